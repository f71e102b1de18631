import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import Loader from '@deepseek-ai/cordis-plugin-loader'
import { SessionId } from '@deepseek-ai/dsh-session'
import { describe, expect, it } from 'vitest'
import { version } from '../package.json' with { type: 'json' }
import { fields } from '../src/config.ts'
import { ignoredArgument } from '../src/patterns.ts'
import * as Reminder from '../src/index.ts'
import * as ReminderInvariant from '../src/invariant.ts'
import { PACKAGE_NAME } from '../src/invariant.ts'
import { bootHarness, harness, injected, prompt, PROVIDER, registerContentTools } from '../support/harness.ts'
import { ScriptedModel } from '../support/model.ts'
import { scratch } from '../support/scratch.ts'
import { GREP, source, times, turns } from './support/calls.ts'
import { DEFAULTS } from './support/defaults.ts'
import { RULES } from '../src/rules/index.ts'

describe('config', () => {
  it('defaults: thresholds [3, 5, 8], a 500-character preview, every tool tracked, every opt-in off', () => {
    expect(Reminder.Config({})).toEqual(DEFAULTS)
  })

  it("every rule's first option switches it on, off by default; every default passes back through Config", () => {
    for (const entry of RULES) {
      const [first] = Object.entries(entry.options)
      if (first === undefined) continue
      const off = first[1].schema.meta.default
      // Off: false, or 0 for a rule switched on by a number.
      expect([first[0], off === false || off === 0]).toEqual([first[0], true])
      expect(Object.keys(entry.candidate ?? {})).toEqual([first[0]])
      expect(Reminder.Config(entry.candidate)).not.toEqual(Reminder.Config({}))
    }
    for (const [key, value] of Object.entries(DEFAULTS))
      expect(Reminder.Config({ [key]: value })).toEqual(Reminder.Config({}))
  })

  it('a plugin mounted with no config at all uses the defaults', async () => {
    const ctx = await bootHarness()
    const fiber = await ctx.plugin(Reminder)
    expect(fiber.config).toEqual(DEFAULTS)
  })

  it(
    "the README's config table lists every field in the schema's order, " +
      "with its default and, as its meaning, the schema's description",
    async () => {
      const dict = fields.dict ?? {}
      const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')
      const rows = readme
        .split('\n')
        .filter((line) => /^\| `[a-zA-Z]+` \| `/.test(line))
        .map((line) => line.slice(2, -2).split(' | ').slice(0, 3))
      const written = (value: unknown) => (Array.isArray(value) ? `[${value.join(', ')}]` : String(value))
      expect(rows).toEqual(
        Object.entries(dict).map(([key, field]) => [
          `\`${key}\``,
          `\`${written(field.meta.default)}\``,
          field.meta.description,
        ]),
      )
      expect(Object.keys(dict)).toEqual(Object.keys(DEFAULTS))
    },
  )

  it("the Chinese README's config table lists the same fields with the same defaults", async () => {
    const table = async (file: string) =>
      (await readFile(new URL(`../${file}`, import.meta.url), 'utf8'))
        .split('\n')
        .filter((line) => /^\| `[a-zA-Z]+` \| `/.test(line))
        .map((line) => line.split(' | ').slice(0, 2))
    expect(await table('README.zh.md')).toEqual(await table('README.md'))
  })

  it.each<[string, unknown, string]>([
    ['thresholds', [], 'thresholds must be a non-empty list of integers >= 2 (got [])'],
    ['thresholds', 'abc', 'thresholds must be a non-empty list of integers >= 2 (got "abc")'],
    ['thresholds', 3, 'thresholds must be a non-empty list of integers >= 2 (got 3)'],
    ['thresholds', [1.5], 'thresholds must be integers >= 2 (got 1.5)'],
    ['thresholds', [1], 'thresholds must be integers >= 2 (got 1)'],
    ['thresholds', [3, 0], 'thresholds must be integers >= 2 (got 0)'],
    ['thresholds', [-4], 'thresholds must be integers >= 2 (got -4)'],
    ['thresholds', [Infinity], 'thresholds must be integers >= 2 (got Infinity)'],
    ['thresholds', [NaN], 'thresholds must be integers >= 2 (got NaN)'],
    ['thresholds', ['5'], 'thresholds must be integers >= 2 (got "5")'],
    ['thresholds', [3, 5, 3], 'thresholds must not repeat a value (got 3)'],
    ['argumentsPreviewChars', 0, 'argumentsPreviewChars must be a positive integer (got 0)'],
    ['argumentsPreviewChars', -1, 'argumentsPreviewChars must be a positive integer (got -1)'],
    ['argumentsPreviewChars', 1.5, 'argumentsPreviewChars must be a positive integer (got 1.5)'],
    ['argumentsPreviewChars', '500', 'argumentsPreviewChars must be a positive integer (got "500")'],
    ['argumentsPreviewChars', Infinity, 'argumentsPreviewChars must be a positive integer (got Infinity)'],
    ['include', 'grep', 'include must be a list of tool-name patterns (strings) (got "grep")'],
    ['include', [1], 'include must be a list of tool-name patterns (strings) (got [1])'],
    ['exclude', { grep: true }, 'exclude must be a list of tool-name patterns (strings) (got {"grep":true})'],
    ['exclude', [null], 'exclude must be a list of tool-name patterns (strings) (got [null])'],
    ['exclude', [10n], 'exclude must be a list of tool-name patterns (strings) (got [10])'],
    ['readOnlyTools', 'Read', 'readOnlyTools must be a list of tool-name patterns (strings) (got "Read")'],
    ['navigationTools', [1], 'navigationTools must be a list of tool-name patterns (strings) (got [1])'],
    ['include', 'x'.repeat(78), `include must be a list of tool-name patterns (strings) (got "${'x'.repeat(78)}")`],
    ['include', 'x'.repeat(79), `include must be a list of tool-name patterns (strings) (got "${'x'.repeat(79)}…)`],
    ['resultAware', 'yes', 'resultAware must be true, false or a list of tool-name patterns (strings) (got "yes")'],
    ['resultAware', 1, 'resultAware must be true, false or a list of tool-name patterns (strings) (got 1)'],
    [
      'resultAware',
      ['job_output', 2],
      'resultAware must be true, false or a list of tool-name patterns (strings) (got ["job_output",2])',
    ],
    [
      'ignoreArguments',
      'bash.description',
      'ignoreArguments must be a list of <tool pattern>.<argument> entries (got "bash.description")',
    ],
    [
      'ignoreArguments',
      { bash: 'description' },
      'ignoreArguments must be a list of <tool pattern>.<argument> entries (got {"bash":"description"})',
    ],
    ['ignoreArguments', [7], 'ignoreArguments entries must be strings like "bash.description" (got 7)'],
    [
      'ignoreArguments',
      ['description'],
      'ignoreArguments entries must be <tool pattern>.<argument>, with a dot before the argument (got "description")',
    ],
    [
      'ignoreArguments',
      ['.description'],
      'ignoreArguments entries need a tool pattern before the dot (* for every tool) (got ".description")',
    ],
    ['ignoreArguments', ['bash.'], 'ignoreArguments entries need an argument name after the dot (got "bash.")'],
    [
      'ignoreArguments',
      ['bash.description', ''],
      'ignoreArguments entries must be <tool pattern>.<argument>, with a dot before the argument (got "")',
    ],
    ['relapse', 'on', 'relapse must be true or false (got "on")'],
    ['relapse', 1, 'relapse must be true or false (got 1)'],
    ['cycles', 'true', 'cycles must be true or false (got "true")'],
    ['maxCyclePeriod', 1, 'maxCyclePeriod must be an integer from 2 to 8 (got 1)'],
    ['maxCyclePeriod', 9, 'maxCyclePeriod must be an integer from 2 to 8 (got 9)'],
    ['maxCyclePeriod', 2.5, 'maxCyclePeriod must be an integer from 2 to 8 (got 2.5)'],
    ['maxCyclePeriod', '4', 'maxCyclePeriod must be an integer from 2 to 8 (got "4")'],
    ['remindEvery', -1, 'remindEvery must be an integer >= 0 (0 = silent after the last threshold) (got -1)'],
    ['remindEvery', 0.5, 'remindEvery must be an integer >= 0 (0 = silent after the last threshold) (got 0.5)'],
    [
      'remindEvery',
      Infinity,
      'remindEvery must be an integer >= 0 (0 = silent after the last threshold) (got Infinity)',
    ],
    ['blockAt', 7, 'blockAt must be an integer at or above the last threshold (8) (got 7)'],
    ['blockAt', 1, 'blockAt must be an integer at or above the last threshold (8) (got 1)'],
    ['blockAt', 8.5, 'blockAt must be an integer at or above the last threshold, or 0 (never) (got 8.5)'],
    ['blockAt', -8, 'blockAt must be an integer at or above the last threshold, or 0 (never) (got -8)'],
    ['blockAt', '10', 'blockAt must be an integer at or above the last threshold, or 0 (never) (got "10")'],
    ['blockAt', false, 'blockAt must be an integer at or above the last threshold, or 0 (never) (got false)'],
  ])('%s: %o is rejected at load', async (field, value, message) => {
    const ctx = await bootHarness()
    await expect(ctx.plugin(Reminder, { [field]: value })).rejects.toThrow(`repeat-tool-reminder: ${message}`)
  })

  it(
    'resultAware takes true, false or a list of tool patterns; ignoreArguments ' + 'splits each entry at its last dot',
    () => {
      expect(Reminder.Config({ resultAware: ['job_output', 'bash'] }).resultAware).toEqual(['job_output', 'bash'])
      expect(Reminder.Config({ resultAware: [] }).resultAware).toEqual([])
      expect(Reminder.Config({ resultAware: true }).resultAware).toBe(true)
      expect(
        Reminder.Config({ ignoreArguments: ['bash.description', '*.justification', 'mcp.server.note'] })
          .ignoreArguments,
      ).toEqual(['bash.description', '*.justification', 'mcp.server.note'])
      expect(ignoredArgument('mcp.server.note')).toEqual({ tool: 'mcp.server', argument: 'note' })
    },
  )

  it("each option's type is judged as schemastery judges it: a value refused by one is refused by both", () => {
    const values: unknown[] = [
      ...[true, false, null, undefined, 0, -0, 1, 2, 2.5, -1, 4, 8, 9, 500, NaN, Infinity, -Infinity, 10n],
      ...['', '3', 'a.b', {}, { 0: 2 }, [], [2], [1], [3, 3], [5, 2], [2.5], [NaN], ['5'], [[2]], [true]],
      ...[
        ['a'],
        ['*', 'b*'],
        ['a.b'],
        ['.b'],
        ['b.'],
        ['b'],
        [null],
        [undefined],
        Object.assign(new Array(2), { 1: 2 }),
        new Array(2),
        [2, null],
      ],
    ]
    const dict = fields.dict!
    const outcomes = (key: string, value: unknown) => {
      const by = (judge: () => unknown) => {
        try {
          judge()
          return 'kept'
        } catch {
          return 'refused'
        }
      }
      // A hole is an entry schemastery's lists pass over, and ours refuse.
      const holes = Array.isArray(value) && value.includes(undefined)
      // At thresholds [2], blockAt's rule beyond its type (at or above the last threshold) refuses only 1.
      const ours = by(() => Reminder.Config({ thresholds: [2], [key]: value }))
      return [ours, holes ? 'refused' : by(() => dict[key]!(value))]
    }
    for (const key of Object.keys(dict))
      for (const value of values.filter((v) => key !== 'blockAt' || v !== 1)) {
        const [ours, theirs] = outcomes(key, value)
        expect([key, value, ours]).toEqual([key, value, theirs])
      }
  })

  it('maxCyclePeriod takes every integer from 2 to 8', () => {
    for (const maxCyclePeriod of [2, 3, 4, 5, 6, 7, 8])
      expect(Reminder.Config({ maxCyclePeriod }).maxCyclePeriod).toBe(maxCyclePeriod)
  })

  it('blockAt is checked against the thresholds as configured', async () => {
    const ctx = await bootHarness()
    await expect(ctx.plugin(Reminder, { thresholds: [2, 4], blockAt: 3 })).rejects.toThrow(
      'repeat-tool-reminder: blockAt must be an integer at or above the last threshold (4) (got 3)',
    )
    expect((await ctx.plugin(Reminder, { thresholds: [2, 4], blockAt: 4 })).config.blockAt).toBe(4)
  })

  it('an unknown key of 10 MB is quoted cut short, and no known key is guessed for it', () => {
    const key = `thresholds${'x'.repeat(10_000_000)}`
    expect(() => Reminder.Config({ [key]: 2 } as never)).toThrow(
      exactly(`repeat-tool-reminder: unknown option "thresholds${'x'.repeat(69)}…`),
    )
  })

  it.each<[string, string]>([
    ['threshold', 'repeat-tool-reminder: unknown option "threshold" (did you mean "thresholds"?)'],
    ['blockat', 'repeat-tool-reminder: unknown option "blockat" (did you mean "blockAt"?)'],
    ['result_aware', 'repeat-tool-reminder: unknown option "result_aware" (did you mean "resultAware"?)'],
    ['cycle', 'repeat-tool-reminder: unknown option "cycle" (did you mean "cycles"?)'],
    [
      'argumentPreviewChars',
      'repeat-tool-reminder: unknown option "argumentPreviewChars" (did you mean "argumentsPreviewChars"?)',
    ],
    ['thresold', 'repeat-tool-reminder: unknown option "thresold" (did you mean "thresholds"?)'],
    ['ixclude', 'repeat-tool-reminder: unknown option "ixclude" (did you mean "include"?)'],
    ['EXCLUDE', 'repeat-tool-reminder: unknown option "EXCLUDE" (did you mean "exclude"?)'],
    ['remind', 'repeat-tool-reminder: unknown option "remind"'],
    ['enabled', 'repeat-tool-reminder: unknown option "enabled"'],
    ['x', 'repeat-tool-reminder: unknown option "x"'],
  ])('an unknown key %j is rejected at load, naming it and the key it probably meant', async (key, message) => {
    const ctx = await bootHarness()
    await expect(ctx.plugin(Reminder, { [key]: 2 } as never)).rejects.toThrow(exactly(message))
    expect(() => Reminder.Config({ thresholds: [2, 4], [key]: 2 } as never)).toThrow(exactly(message))
  })

  it.each<[unknown, string]>([
    ['thresholds', 'repeat-tool-reminder: config must be an object of options (got "thresholds")'],
    [[3, 5], 'repeat-tool-reminder: config must be an object of options (got [3,5])'],
    [8, 'repeat-tool-reminder: config must be an object of options (got 8)'],
  ])('a config that is not an object (%j) is rejected', (raw, message) => {
    expect(() => Reminder.Config(raw as never)).toThrow(message)
  })

  it('no config, null or an empty object is the defaults, and Config(raw) does not change what it is given', () => {
    expect(Reminder.Config(undefined)).toEqual(DEFAULTS)
    expect(Reminder.Config(null as never)).toEqual(DEFAULTS)
    const raw = { thresholds: [5, 3] }
    expect(Reminder.Config(raw)).toEqual({ ...DEFAULTS, thresholds: [3, 5] })
    expect(raw).toEqual({ thresholds: [5, 3] })
  })

  it('at mount, one info line names the package, its version and the effective config', async () => {
    const ctx = await bootHarness()
    const lines: string[] = []
    ctx.logger.exporter({
      export: (message) =>
        message.name === 'repeat-tool-reminder' && lines.push(`${message.type} ${message.args.join(' ')}`),
    })
    await ctx.plugin(Reminder, { thresholds: [4, 2], cycles: true })
    expect(lines).toEqual([
      `info @deepseek-ai/dsh-repeat-tool-reminder ${version} active: ` +
        JSON.stringify({ ...DEFAULTS, thresholds: [2, 4], cycles: true }),
    ])
  })

  it('the package entry exports only name, Config and apply', () => {
    expect(Object.keys(Reminder).sort()).toEqual(['Config', 'apply', 'name'])
  })

  it('a value that contains itself is quoted to 80 characters, then an ellipsis', async () => {
    const cyclic: unknown[] = []
    cyclic.push(cyclic)
    const ctx = await bootHarness()
    await expect(ctx.plugin(Reminder, { include: cyclic as never })).rejects.toThrow(
      `repeat-tool-reminder: include must be a list of tool-name patterns (strings) (got ${'['.repeat(80)}…)`,
    )
  })
})

describe('loading from cordis.yml', () => {
  it('a valid entry mounts with its thresholds as written; an invalid one fails and names the field', async () => {
    const dir = await scratch('yaml')
    await writeFile(
      join(dir, 'cordis.yml'),
      [
        ...['sessions:dsh-session', 'llm:dsh-llm', 'tools:dsh-tools', 'prompt:dsh-system-prompt', 'agents:dsh-agent']
          .map((pair) => pair.split(':'))
          .map(([id, pkg]) => `- id: ${id}\n  name: '@deepseek-ai/${pkg}'`),
        `- id: loop\n  name: '@deepseek-ai/dsh-agent-loop'\n  config:\n    agents: []`,
        `- id: reminder\n  name: 'cordis:repeat-tool-reminder'\n  config:\n    ` +
          `thresholds: [4, 2]\n    exclude: [todo_write]`,
        `- id: broken\n  name: 'cordis:repeat-tool-reminder'\n  config:\n    thresholds: [1]`,
      ].join('\n'),
    )
    const root = new Context()
    await root.plugin(Loader, {})
    // The package as built is what a deployment names; the suite registers the source module under
    // the loader's builtin scheme.
    root.loader.builtins['repeat-tool-reminder'] = Reminder
    const include = await root.loader.create({
      name: '@deepseek-ai/cordis-plugin-include',
      config: { path: pathToFileURL(join(dir, 'cordis.yml')).href },
    })
    await root.loader.await()
    const entries = root.loader.resolve(include).subtree!.store
    expect(entries.reminder?.fiber?.config).toEqual({ ...DEFAULTS, thresholds: [2, 4], exclude: ['todo_write'] })
    await expect(entries.broken!.fiber!.await()).rejects.toThrow(
      'repeat-tool-reminder: thresholds must be integers >= 2 (got 1)',
    )

    registerContentTools(root)
    root.llm.registerAdapter([PROVIDER], new ScriptedModel(turns(...times(4, GREP))))
    const { agent } = await root.agents.create({
      sessionId: SessionId('from-yaml'),
      agentOptions: { provider: PROVIDER, model: 'm' },
    })
    await prompt(root, agent, 'go')
    expect(injected(agent).map((r) => [r.afterCall, r.source])).toEqual([
      [2, source('grep × 2')],
      [4, source('grep × 4')],
    ])
    await root.fiber.dispose()
  })
})

describe('lifecycle', () => {
  it('after the plugin is disposed no reminder appears', async () => {
    const ctx = await bootHarness()
    const fiber = await ctx.plugin(Reminder, { thresholds: [2] })
    const model = new ScriptedModel([...turns(...times(2, GREP)), { text: 'first' }, ...turns(...times(2, GREP))])
    ctx.llm.registerAdapter([PROVIDER], model)
    const { agent } = await ctx.agents.create({
      sessionId: SessionId('disposal'),
      agentOptions: { provider: PROVIDER, model: 'm' },
    })
    await prompt(ctx, agent, 'one')
    expect(injected(agent).map((r) => r.afterCall)).toEqual([2])
    await fiber.dispose()
    await prompt(ctx, agent, 'two')
    expect(injected(agent).map((r) => r.afterCall)).toEqual([2])
  })

  it('the invariant companion registers ownership of the package name', async () => {
    const h = await harness([])
    expect(PACKAGE_NAME).toBe('@deepseek-ai/dsh-repeat-tool-reminder')
    expect(() => h.ctx.invariants.register(PACKAGE_NAME, () => {})).toThrow(PACKAGE_NAME)
  })

  it('the invariant companion is named after the plugin, as the cordis.yml row that mounts it', () => {
    expect(ReminderInvariant.name).toBe('repeat-tool-reminder-invariant')
    expect(ReminderInvariant.inject).toEqual(['invariants'])
  })
})

/** A matcher for an error whose message is `message` and nothing more. */
function exactly(message: string): RegExp {
  return new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
}
