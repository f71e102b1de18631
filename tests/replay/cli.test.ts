import pkg from '../../package.json' with { type: 'json' }
import { effectsWith } from '../support/events.ts'
import { cp, mkdir, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Context } from '@deepseek-ai/cordis'
import { defineContentToolFixture } from '@deepseek-ai/dsh-tools'
import { Config } from '../../src/config.ts'
import { flagsHelp } from '../../src/flags.ts'
import { runReplay, runReplayJson, writeSessions } from '../../support/sessions.ts'
import type { ScriptedCall } from '../../support/model.ts'
import { scratch } from '../../support/scratch.ts'
import { GREP, READ, TODO, turns } from '../support/calls.ts'

const GREP_Y: ScriptedCall = { name: 'grep', args: { pattern: 'y' } }
const LOOPY = turns(GREP, GREP, GREP, GREP, GREP, READ, GREP_Y, GREP_Y)

describe('replay: what the logs say', () => {
  it.each(['none', 'zstd'] as const)(
    'a %s-compressed log: runs, histogram, tools, cost and reminders, exactly',
    async (compression) => {
      const root = await writeSessions(compression, [{ id: 'loopy', script: LOOPY }])
      const { status, report } = await runReplayJson([root])
      expect(status).toBe(0)
      const [session] = report.sessions
      expect(session).toEqual({
        file: join(root, '_no-cwd', 'loopy', compression === 'zstd' ? 'session.jsonl.zstd' : 'session.jsonl'),
        id: 'loopy',
        toolCalls: 8,
        trackedCalls: 8,
        runs: [
          { tool: 'grep', arguments: '{"pattern":"x"}', start: 1, length: 5 },
          { tool: 'grep', arguments: '{"pattern":"y"}', start: 7, length: 2 },
        ],
        cycles: [],
        histogram: { 2: 1, 5: 1 },
        tools: [{ tool: 'grep', runs: 2, repeatedCalls: 5 }],
        recordedReminders: [
          { afterCall: 3, summary: 'grep × 3', kind: 'short', effect: 'repeated', repeatedResult: true },
          { afterCall: 5, summary: 'grep × 5', kind: 'detailed', effect: 'changed', repeatedResult: true },
        ],
        configReminders: [
          { afterCall: 3, summary: 'grep × 3' },
          { afterCall: 5, summary: 'grep × 5' },
        ],
        recordedWithheld: [],
        configWithheld: [],
        configDenied: [],
        // The scripted model reports no token usage: the log has none, and the cost says so.
        cost: {
          calls: 5,
          argumentChars: 5 * '{"pattern":"x"}'.length,
          resultChars: 5 * '[{"type":"text","text":"no match for x"}]'.length,
          responses: 5,
          inputTokens: null,
          outputTokens: null,
        },
      })
      expect(report.errors).toEqual([])
    },
  )

  it(
    'a replay with the live config reproduces the reminders recorded ' +
      'in the log; another config shows what it would do',
    async () => {
      const live: Partial<Config> = { thresholds: [2, 4], exclude: ['todo_write'] }
      const root = await writeSessions(
        'none',
        [{ id: 'live', script: turns(GREP, TODO, GREP, GREP, TODO, GREP, READ, READ) }],
        live,
      )
      const same = (await runReplayJson([root, '--thresholds', '2,4', '--exclude', 'todo_write'])).report.sessions[0]!
      expect(same.recordedReminders.map(({ afterCall, summary }) => ({ afterCall, summary }))).toEqual([
        { afterCall: 3, summary: 'grep × 2' },
        { afterCall: 6, summary: 'grep × 4' },
        { afterCall: 8, summary: 'read_file × 2' },
      ])
      expect(same.configReminders).toEqual(
        same.recordedReminders.map(({ afterCall, summary }) => ({ afterCall, summary })),
      )
      expect(same.trackedCalls).toBe(6)
      const other = (await runReplayJson([root, '--thresholds', '3'])).report.sessions[0]!
      expect(other.configReminders).toEqual([])
      expect(other.trackedCalls).toBe(8)
    },
  )

  it('a user prompt in the log resets the run, as it did live', async () => {
    const root = await writeSessions('none', [
      { id: 'two-prompts', script: [...turns(GREP, GREP), { text: 'ok' }, ...turns(GREP, GREP)], prompts: 2 },
    ])
    const session = (await runReplayJson([root])).report.sessions[0]!
    expect(session.runs.map((r) => [r.start, r.length])).toEqual([
      [1, 2],
      [3, 2],
    ])
    expect(session.configReminders).toEqual([])
  })

  it('each session is its own agent; subagent sessions name their parent; totals add up', async () => {
    const root = await writeSessions('none', [
      { id: 'parent', script: turns(GREP, GREP, GREP) },
      { id: 'child', script: turns(READ, READ), parent: 'parent' },
    ])
    const { report } = await runReplayJson([root])
    expect(report.sessions.map((s) => [s.id, s.parentSession, s.runs.length])).toEqual([
      ['child', 'parent', 1],
      ['parent', undefined, 1],
    ])
    expect(report.total).toEqual({
      sessions: 2,
      sessionsWithLoops: 2,
      toolCalls: 5,
      trackedCalls: 5,
      runs: 2,
      longestRun: 3,
      cycles: 0,
      histogram: { 2: 1, 3: 1 },
      tools: [
        { tool: 'grep', runs: 1, repeatedCalls: 2 },
        { tool: 'read_file', runs: 1, repeatedCalls: 1 },
      ],
      recordedReminders: 1,
      configReminders: 1,
      recordedWithheld: 0,
      recordedDenied: 0,
      configWithheld: 0,
      configDenied: 0,
      effects: effectsWith({ short: { ended: 1 } }),
      detailedOnRepeatedResults: { repeated: 0, waited: 0, relapsed: 0, changed: 0, ended: 0 },
      repeatedPast: [],
      cost: {
        calls: 3,
        argumentChars: 2 * '{"pattern":"x"}'.length + '{"path":"a.ts"}'.length,
        resultChars:
          2 * '[{"type":"text","text":"no match for x"}]'.length + '[{"type":"text","text":"contents of a.ts"}]'.length,
        responses: 0,
        inputTokens: 0,
        outputTokens: 0,
        sessionsWithoutUsage: 2,
      },
    })
    const { out } = await runReplay(['replay', root])
    expect(out).toContain('session child (subagent of parent)\n')
    expect(out).toContain('  tools that loop most: read_file (1 run, 1 repeated call)\n')
  })

  it('--cycles reports cycles and counts their repeated calls as cost', async () => {
    const root = await writeSessions('none', [
      { id: 'cycling', script: turns(TODO, GREP, READ, GREP, READ, GREP, READ, TODO) },
    ])
    const session = (await runReplayJson([root, '--cycles', '--thresholds', '2'])).report.sessions[0]!
    expect(session.cycles).toEqual([{ tools: ['grep', 'read_file'], start: 2, length: 3 }])
    expect(session.configReminders).toEqual([{ afterCall: 5, summary: 'grep → read_file × 2' }])
    expect(session.cost.calls).toBe(4)
    expect(session.runs).toEqual([])
  })

  it('every config option reaches the guard', async () => {
    const root = await writeSessions('none', [{ id: 'long', script: turns(...Array.from({ length: 9 }, () => GREP)) }])
    const args = [
      '--thresholds',
      '2,3',
      '--remind-every',
      '3',
      '--block-at',
      '5',
      '--result-aware',
      '--max-cycle-period',
      '3',
      '--arguments-preview-chars',
      '4',
      '--include',
      'gr*',
      '--ignore-arguments',
      'grep.note',
      '--relapse',
      '--mask-noise',
      '--same-failure',
      '--rereads',
      '--read-only-tools',
      'cat,ls',
      '--navigation-tools',
      'goto',
    ]
    const { report } = await runReplayJson([root, ...args])
    // Every option given a flag above has the flag's value; any other option keeps its default.
    expect(report.config).toEqual({
      ...Config({}),
      thresholds: [2, 3],
      argumentsPreviewChars: 4,
      include: ['gr*'],
      exclude: [],
      resultAware: true,
      ignoreArguments: ['grep.note'],
      relapse: true,
      cycles: false,
      maxCyclePeriod: 3,
      remindEvery: 3,
      blockAt: 5,
      maskNoise: true,
      sameFailure: true,
      rereads: true,
      readOnlyTools: ['cat', 'ls'],
      navigationTools: ['goto'],
    })
    const session = report.sessions[0]!
    expect(session.configReminders.map((r) => r.afterCall)).toEqual([2, 3, 6, 9])
    expect(session.configWithheld).toEqual([5, 6, 7, 8, 9])
    expect(session.runs[0]?.arguments).toBe('{"pa… (11 more chars)')
  })

  it('arguments are read as the loop parsed them: empty as {}, malformed as the raw text', async () => {
    const root = await writeSessions('none', [
      {
        id: 'odd',
        script: turns(
          { name: 'grep', args: '' },
          { name: 'grep', args: '{}' },
          { name: 'grep', args: '{"p":' },
          { name: 'grep', args: '{"p":' },
        ),
      },
    ])
    const session = (await runReplayJson([root, '--thresholds', '2'])).report.sessions[0]!
    expect(session.runs).toEqual([
      { tool: 'grep', arguments: '{}', start: 1, length: 2 },
      { tool: 'grep', arguments: '"{\\"p\\":"', start: 3, length: 2 },
    ])
  })

  it('large array arguments are read as JSON, not mistaken for malformed text', async () => {
    const big = { name: 'grep', args: { lines: Array.from({ length: 300_000 }, (_, i) => i) } }
    const root = await writeSessions('none', [{ id: 'big', script: turns(big, big) }])
    const session = (await runReplayJson([root, '--thresholds', '2', '--arguments-preview-chars', '12'])).report
      .sessions[0]!
    const rest = JSON.stringify(big.args).length - 12
    expect(session.runs).toEqual([
      { tool: 'grep', arguments: `{"lines":[0,… (${rest} more chars)`, start: 1, length: 2 },
    ])
  })

  it('prints a readable report by default: totals first, then the sessions that looped', async () => {
    const root = await writeSessions('none', [
      { id: 'loopy', script: LOOPY },
      { id: 'calm', script: turns(GREP, READ) },
    ])
    const { status, out } = await runReplay(['replay', root, '--block-at', '8'])
    expect(status).toBe(0)
    expect(out).toBe(
      [
        'total: 2 sessions, 1 with loops',
        '  10 tool calls, 10 tracked',
        '  identical runs: 2 (longest 5), cycles: 0',
        '  run lengths (calls in a run: runs):',
        `    2 │${'█'.repeat(40)} 1`,
        `    5 │${'█'.repeat(40)} 1`,
        '  tools that loop most: grep (2 runs, 5 repeated calls)',
        '  reminders: 2 in the logs, 2 with this config',
        '  withheld results: 0 in the logs, 0 with this config',
        '  cost of looping: 5 repeated calls carrying 75 characters of arguments and 205 of results; token',
        '      usage not recorded in 1 session',
        '  did the reminders work (what the model did next):',
        '    short reminders (1): 1 repeated, 0 waited, 0 relapsed, 0 changed, 0 ended',
        '    detailed reminders (1): 0 repeated, 0 waited, 0 relapsed, 1 changed, 0 ended',
        '    repeated past most often: grep (1 reminder)',
        '',
        'the sessions that looped, most looping first:',
        '',
        'session loopy',
        `  ${join(root, '_no-cwd', 'loopy', 'session.jsonl')}`,
        '  8 tool calls, 8 tracked',
        '  identical runs: grep {"pattern":"x"} × 5 from call 1; grep {"pattern":"y"} × 2 from call 7',
        '  tools that loop most: grep (2 runs, 5 repeated calls)',
        '  reminders in the log: after call 3 (grep × 3, then repeated), after call 5 (grep × 5, then',
        '      changed)',
        '  reminders with this config: after call 3 (grep × 3), after call 5 (grep × 5)',
        '  cost of looping: 5 repeated calls carrying 75 characters of arguments and 205 of results; token',
        '      usage not recorded in the log',
        '',
      ].join('\n'),
    )
  })

  it('a readable report of sessions without loops, with a cycle and with withheld results', async () => {
    const root = await writeSessions('none', [
      { id: 'calm', script: turns(GREP, READ) },
      { id: 'cycling', script: turns(GREP, READ, GREP, READ, GREP, READ) },
    ])
    const { out } = await runReplay(['replay', root, '--cycles', '--thresholds', '2', '--block-at', '3'])
    expect(out).not.toContain('session calm\n')
    expect(out).toContain('  cycle: grep → read_file × 3 from call 1\n')
    expect(out).toContain('  withheld in the log: none\n  withheld with this config: calls 6 (not run)\n')
    expect(out).toMatch(
      /^total: 2 sessions, 1 with loops\n {2}8 tool calls, 8 tracked\n {2}identical runs: 0 \(longest 0\), cycles: 1\n/,
    )
    expect(out).toContain('  identical runs: 0 (longest 0), cycles: 1\n  run lengths: none\n')
    const all = (await runReplay(['replay', root, '--all', '--cycles'])).out
    expect(all).toContain('every session, most looping first:\n')
    expect(all.indexOf('session cycling\n')).toBeLessThan(all.indexOf('session calm\n'))
    expect(all).toContain('session calm\n')
  })

  it(
    'shows progress on a terminal when it reads more than a handful of ' + 'sessions, on both passes of --suggest',
    async () => {
      const root = await writeSessions(
        'none',
        Array.from({ length: 6 }, (_, i) => ({ id: `s${i}`, script: turns(GREP) })),
      )
      const { err, status } = await runReplay(['replay', root], true)
      expect(status).toBe(0)
      expect(err).toBe(`${Array.from({ length: 6 }, (_, i) => `\rreplaying ${i + 1}/6 sessions`).join('')}\n`)
      expect((await runReplay(['replay', root], false)).err).toBe('')
      const suggesting = (await runReplay(['replay', root, '--suggest'], true)).err
      expect(suggesting).toBe(
        `${Array.from({ length: 6 }, (_, i) => `\rreplaying ${i + 1}/6 sessions`).join('')}\n` +
          `${Array.from({ length: 6 }, (_, i) => `\rcomparing configs on ${i + 1}/6 sessions`).join('')}\n`,
      )
      const five = await writeSessions(
        'none',
        Array.from({ length: 5 }, (_, i) => ({ id: `s${i}`, script: turns(GREP) })),
      )
      expect((await runReplay(['replay', five], true)).err).toBe('')
    },
  )

  it('sessions are read in the order of their paths, compared whole', async () => {
    const root = await writeSessions(
      'none',
      ['zeta', 'mu', 'alpha', 'kappa'].map((id) => ({ id, script: turns(GREP) })),
    )
    expect((await runReplayJson([root])).report.sessions.map((s) => s.id)).toEqual(['alpha', 'kappa', 'mu', 'zeta'])
    // '-' sorts before '/': a folder-by-folder walk alone would put p/ first.
    await cp(join(root, '_no-cwd'), join(root, 'p'), { recursive: true })
    await cp(join(root, '_no-cwd', 'mu'), join(root, 'p-2', 'mu'), { recursive: true })
    const files = (await runReplayJson([join(root, 'p'), join(root, 'p-2')])).report.sessions.map((s) =>
      s.file.slice(root.length),
    )
    expect(files).toEqual(
      ['alpha', 'kappa', 'mu', 'zeta'].map((id) => `/p/${id}/session.jsonl`).concat('/p-2/mu/session.jsonl'),
    )
    const together = (await runReplayJson([root])).report.sessions.map((s) => s.file.slice(root.length))
    expect(together.slice(4)).toEqual([
      '/p-2/mu/session.jsonl',
      '/p/alpha/session.jsonl',
      '/p/kappa/session.jsonl',
      '/p/mu/session.jsonl',
      '/p/zeta/session.jsonl',
    ])
  })

  it('a path can be the sessions root, a project folder, a session folder or the log itself', async () => {
    const root = await writeSessions('none', [{ id: 'loopy', script: LOOPY }])
    const file = join(root, '_no-cwd', 'loopy', 'session.jsonl')
    for (const path of [root, join(root, '_no-cwd'), join(root, '_no-cwd', 'loopy'), file]) {
      expect((await runReplayJson([path])).report.sessions.map((s) => s.file)).toEqual([file])
    }
  })
})

describe('replay: bad input', () => {
  it('a missing path is reported; the other sessions still are; exit status 1', async () => {
    const root = await writeSessions('none', [{ id: 'loopy', script: LOOPY }])
    const missing = join(root, 'nope')
    const { status, report, err } = await runReplayJson([missing, root])
    expect(status).toBe(1)
    expect(err).toBe(`repeat-tool-reminder replay: ${missing}: no such file or directory\n`)
    expect(report.errors).toEqual([{ path: missing, reason: 'no such file or directory' }])
    expect(report.sessions.map((s) => s.id)).toEqual(['loopy'])
  })

  it('a file that is not a JSONL transcript, and a folder without any, are reported', async () => {
    const dir = await scratch('empty')
    await writeFile(join(dir, 'notes.txt'), 'hello')
    const { status, err } = await runReplay(['replay', join(dir, 'notes.txt'), dir])
    expect(status).toBe(1)
    expect(err).toBe(
      [
        `repeat-tool-reminder replay: ${join(dir, 'notes.txt')}: not a session ` +
          `log of the JSONL backend (session.jsonl or session.jsonl.zstd)`,
        `repeat-tool-reminder replay: ${dir}: no session.jsonl or session.jsonl.zstd below this directory`,
        '',
      ].join('\n'),
    )
  })

  it('a log with a corrupt header is reported; the good one beside it is read', async () => {
    const root = await writeSessions('none', [
      { id: 'good', script: LOOPY },
      { id: 'bad', script: LOOPY },
    ])
    const bad = join(root, '_no-cwd', 'bad', 'session.jsonl')
    await writeFile(bad, `{"type":"session",garbage\n${(await readFile(bad, 'utf8')).split('\n').slice(1).join('\n')}`)
    const { status, report } = await runReplayJson([root])
    expect(status).toBe(1)
    expect(report.errors).toEqual([{ path: bad, reason: 'corrupt session log: header line is not valid JSON' }])
    expect(report.sessions.map((s) => s.id)).toEqual(['good'])
  })

  it('a log from another format version is reported', async () => {
    const root = await writeSessions('none', [{ id: 'future', script: LOOPY }])
    const file = join(root, '_no-cwd', 'future', 'session.jsonl')
    await writeFile(file, (await readFile(file, 'utf8')).replace('"version":0', '"version":7'))
    const { status, out, err } = await runReplay(['replay', file, '--json'])
    expect([status, out]).toEqual([1, ''])
    expect(err).toContain('uses log format v7, but this harness reads only v0')
  })

  it("a compressed log with a damaged frame is reported with the backend's reason", async () => {
    const root = await writeSessions('zstd', [{ id: 'damaged', script: LOOPY }])
    const file = join(root, '_no-cwd', 'damaged', 'session.jsonl.zstd')
    const bytes = await readFile(file)
    bytes[bytes.length - 20] = bytes[bytes.length - 20]! ^ 0xff
    await writeFile(file, bytes)
    const { status, out, err } = await runReplay(['replay', file, '--json'])
    expect([status, out]).toEqual([1, ''])
    expect(err).toMatch(
      /^repeat-tool-reminder replay: [^\n]+: corrupt Zstandard session log: frame at byte \d+ failed validation\n$/,
    )
  })

  it('a truncated log is read up to what was committed, reported as torn, and left as it is', async () => {
    const root = await writeSessions('none', [{ id: 'torn', script: LOOPY }])
    const file = join(root, '_no-cwd', 'torn', 'session.jsonl')
    const text = await readFile(file, 'utf8')
    const third = [1, 2, 3].reduce((at) => text.indexOf('"type":"tool/result"', at + 1), -1)
    const cut = third + 10
    await truncate(file, Buffer.byteLength(text.slice(0, cut)))
    const before = await snapshot(root)
    const { status, report } = await runReplayJson([file])
    expect(status).toBe(1)
    expect(report.sessions[0]).toMatchObject({
      toolCalls: 2,
      runs: [{ tool: 'grep', arguments: '{"pattern":"x"}', start: 1, length: 2 }],
      torn: { ofBytes: Buffer.byteLength(text.slice(0, cut)) },
    })
    expect(await snapshot(root)).toEqual(before)
  })

  it('a root holding both encodings: each log is read with its own, a bad one reported alone', async () => {
    const root = await writeSessions('none', [{ id: 'plain', script: LOOPY }])
    await mkdir(join(root, '_no-cwd', 'packed'), { recursive: true })
    await writeFile(join(root, '_no-cwd', 'packed', 'session.jsonl.zstd'), '')
    const { status, report } = await runReplayJson([root])
    expect(status).toBe(1)
    expect(report.errors).toEqual([
      {
        path: join(root, '_no-cwd', 'packed', 'session.jsonl.zstd'),
        reason: 'empty or header-less Zstandard session log',
      },
    ])
    expect(report.sessions.map((s) => s.id)).toEqual(['plain'])
  })

  it('never creates or changes a file under the paths it reads', async () => {
    const root = await writeSessions('zstd', [
      { id: 'a', script: LOOPY },
      { id: 'b', script: LOOPY },
    ])
    const before = await snapshot(root)
    await runReplayJson([root, '--cycles'])
    expect(await snapshot(root)).toEqual(before)
  })
})

describe('replay: options', () => {
  it(
    '--top N details the N sessions that cost most in looping (repeated ' +
      'calls, then their characters; then the order read)',
    async () => {
      const root = await writeSessions('none', [
        { id: 'a-small', script: turns(GREP, GREP) },
        { id: 'b-large', script: turns(GREP, GREP, GREP, GREP) },
        { id: 'c-calm', script: turns(GREP, READ) },
        { id: 'd-small', script: turns(READ, READ) },
        { id: 'e-large', script: turns(GREP_Y, GREP_Y, GREP_Y, GREP_Y) },
      ])
      const sessions = (out: string) =>
        out
          .split('\n')
          .filter((line) => line.startsWith('session '))
          .map((line) => line.slice(8))
      const two = await runReplay(['replay', root, '--top', '2'])
      expect(two.out).toContain('\nthe 2 sessions that looped most, of 4 (--top N or --all for more):\n')
      expect(sessions(two.out)).toEqual(['b-large', 'e-large'])
      // d-small repeats as many calls as a-small, but carries longer results.
      expect(sessions((await runReplay(['replay', root, '--top', '1'])).out)).toEqual(['b-large'])
      expect(sessions((await runReplay(['replay', root, '--top', '3'])).out)).toEqual(['b-large', 'e-large', 'd-small'])
      expect(sessions((await runReplay(['replay', root])).out)).toEqual(['b-large', 'e-large', 'd-small', 'a-small'])
      expect(sessions((await runReplay(['replay', root, '--all'])).out)).toEqual([
        'b-large',
        'e-large',
        'd-small',
        'a-small',
        'c-calm',
      ])
    },
  )

  it('the tools that loop most are listed ten at a time, with how many more', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `tool_${String(i).padStart(2, '0')}`)
    const setup = (ctx: Context) => {
      for (const name of names)
        ctx.tools.register(
          defineContentToolFixture({
            name,
            description: 'A tool.',
            parameters: {},
            async execute() {
              return [{ type: 'text', text: 'ok' }]
            },
          }),
        )
    }
    const root = await writeSessions('none', [
      {
        id: 'many',
        script: turns(
          ...names.flatMap((name) => [
            { name, args: {} },
            { name, args: {} },
          ]),
        ),
        setup,
      },
    ])
    const { out } = await runReplay(['replay', root])
    expect(out).toContain(
      '  tools that loop most: tool_00 (1 run, 1 repeated call), tool_01 (1 run, 1 repeated call), tool_02\n' +
        '      (1 run, 1 repeated call), tool_03 (1 run, 1 repeated call), tool_04 (1 run, 1 repeated call),\n' +
        '      tool_05 (1 run, 1 repeated call), tool_06 (1 run, 1 repeated call), tool_07 (1 run, 1 repeated\n' +
        '      call), tool_08 (1 run, 1 repeated call), tool_09 (1 run, 1 repeated call), and 2 more\n',
    )
  })

  it('--version prints the package and its version, alone or with a command', async () => {
    for (const argv of [['--version'], ['replay', 'x', '--version']]) {
      const { status, out, err } = await runReplay(argv)
      expect([status, out, err]).toEqual([0, `${pkg.name} ${pkg.version}\n`, ''])
    }
  })

  it(
    '--help prints the usage: what it reads, every config flag from the ' +
      'one table, its own options, the exit status',
    async () => {
      const { status, out } = await runReplay(['--help'])
      expect(status).toBe(0)
      expect(out).toBe(
        [
          'Usage: repeat-tool-reminder replay <session file or sessions root>... [options]',
          '',
          "Replays recorded dsh sessions (the JSONL persistence backend's session.jsonl or session.jsonl.zstd,",
          'or a directory searched for them) through the guard, one at a time, and reports identical runs and',
          'cycles, what the model did after each recorded reminder and withheld result, what the loops cost (in',
          'recorded tokens too), and the reminders and withheld results a config would produce next to the ones',
          'recorded.',
          '',
          'Options:',
          flagsHelp(32),
          "  --config FILE                 The config from a dsh profile's cordis.patch.yml, or a YAML or JSON",
          '                                config object; the flags above override its keys.',
          '  --labels FILE                 Score the config (and with --suggest each candidate) on labeled',
          '                                loops.',
          '  --reread-labels FILE          With --labels: labeled rereads too, judged for precision, and for',
          '                                the recall of rereads apart.',
          '  --suggest                     Compare a few configs on the same sessions and recommend one.',
          '  --top N                       Detail the N sessions that looped most. Default 10.',
          '  --all                         Detail every session.',
          '  --json                        One JSON document on stdout, every session in it.',
          '  -h, --help                    Show this help.',
          '  --version                     Print the package and its version.',
          '',
          'Exit status: 0 when every input was read whole, 1 when any failed or was torn (its calls before the',
          'tear are reported) or a label names a call no log has, 2 for bad options, a bad config file or a bad',
          'labels file.',
          '',
        ].join('\n'),
      )
    },
  )

  it('--help fits the terminal it prints to: its columns, within 60 and 200; 100 in a pipe', async () => {
    const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length))
    expect(widest((await runReplay(['--help'])).out)).toBe(100)
    expect(widest((await runReplay(['--help'], false, 72)).out)).toBeLessThanOrEqual(72)
    expect(widest((await runReplay(['--help'], false, 72)).out)).toBeGreaterThan(66)
    expect(widest((await runReplay(['--help'], false, 30)).out)).toBeLessThanOrEqual(60)
    expect(widest((await runReplay(['--help'], false, 30)).out)).toBeGreaterThan(54)
    expect(widest((await runReplay(['--help'], false, 400)).out)).toBeLessThanOrEqual(200)
    const wide = (await runReplay(['--help'], false, 400)).out
    expect(wide).toContain(
      "--config FILE                 The config from a dsh profile's cordis.patch.yml, or a YAML or JSON config",
    )
    expect((await runReplay(['--help'], false, 0)).out).toBe((await runReplay(['--help'])).out)
  })

  it.each([
    [['replay', '/tmp', '--nope'], 'repeat-tool-reminder replay: unknown option --nope (--help lists the options)\n'],
    [['replay', '/tmp', '-x'], 'repeat-tool-reminder replay: unknown option -x (--help lists the options)\n'],
    [
      ['replay', '/tmp', '--treshold', '2'],
      'repeat-tool-reminder replay: unknown option --treshold: did you mean --thresholds? (--help lists the options)\n',
    ],
    [
      ['replay', '/tmp', '--JSON'],
      'repeat-tool-reminder replay: unknown option --JSON: did you mean --json? (--help lists the options)\n',
    ],
    [['replay', '/tmp', '--top'], 'repeat-tool-reminder replay: --top needs a value (--help lists the options)\n'],
    [
      ['replay', '/tmp', '--json=yes'],
      'repeat-tool-reminder replay: --json takes no value (--help lists the options)\n',
    ],
    [
      [],
      'repeat-tool-reminder: usage: repeat-tool-reminder replay <session ' +
        'file or sessions root>... [options] (--help for more)\n',
    ],
    [
      ['play', '/tmp'],
      'repeat-tool-reminder: unknown command "play"; try: repeat-tool-reminder replay <path>... (--help for more)\n',
    ],
    [['replay'], 'repeat-tool-reminder replay: needs at least one session file or sessions root\n'],
    [
      ['replay', '/tmp', '--thresholds', '1'],
      'repeat-tool-reminder replay: thresholds must be integers >= 2 (got 1)\n',
    ],
    [
      ['replay', '/tmp', '--arguments-preview-chars', 'lots'],
      'repeat-tool-reminder replay: argumentsPreviewChars must be a positive integer (got "lots")\n',
    ],
    [
      ['replay', '/tmp', '--block-at', '4'],
      'repeat-tool-reminder replay: blockAt must be an integer at or above the last threshold (8) (got 4)\n',
    ],
    [
      ['replay', '/tmp', '--max-cycle-period', '9'],
      'repeat-tool-reminder replay: maxCyclePeriod must be an integer from 2 to 8 (got 9)\n',
    ],
    [
      ['replay', '/tmp', '--remind-every=-1'],
      'repeat-tool-reminder replay: remindEvery must be an integer >= 0 ' +
        '(0 = silent after the last threshold) (got -1)\n',
    ],
    [['replay', '/tmp', '--top=-1'], 'repeat-tool-reminder replay: --top must be a positive integer (got "-1")\n'],
    [['replay', '/tmp', '--top', '0'], 'repeat-tool-reminder replay: --top must be a positive integer (got "0")\n'],
    [['replay', '/tmp', '--top', 'x'], 'repeat-tool-reminder replay: --top must be a positive integer (got "x")\n'],
    [['replay', '/tmp', '--top', '2.5'], 'repeat-tool-reminder replay: --top must be a positive integer (got "2.5")\n'],
    [['replay', '/tmp', '--top', '3', '--all'], 'repeat-tool-reminder replay: --top and --all do not go together\n'],
    [
      ['replay', '/tmp', '--preview', '9'],
      'repeat-tool-reminder replay: unknown option --preview: it is now ' +
        '--arguments-preview-chars (renamed in 0.3.0) (--help lists the options)\n',
    ],
    [
      ['replay', '/tmp', '--top', '\u001b[2J\u202e\u009b'],
      'repeat-tool-reminder replay: --top must be a positive integer (got "\\u001b[2J\\u202e\\u009b")\n',
    ],
    [
      ['\u202eplay'],
      'repeat-tool-reminder: unknown command "\\u202eplay"; try: repeat-tool-reminder ' +
        'replay <path>... (--help for more)\n',
    ],
    [
      ['replay', '/tmp', '--include', 'x', '--include', 'y', '--result-aware', '--result-aware-tools', 'z'],
      'repeat-tool-reminder replay: --result-aware-tools sets resultAware, ' +
        'which another flag already set; give one of them\n',
    ],
  ])('%j exits 2 with a one-line reason', async (argv, message) => {
    const { status, out, err } = await runReplay(argv)
    expect(status).toBe(2)
    expect(out).toBe('')
    expect(err).toBe(message)
  })
})

/** Every file below `root` with its size and modification time. */
async function snapshot(root: string) {
  const files = (await readdir(root, { recursive: true })).sort()
  return Promise.all(
    files.map(async (file) => {
      const info = await stat(join(root, file))
      return [file, info.size, info.mtimeMs]
    }),
  )
}
