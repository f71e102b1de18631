import { readFile } from 'node:fs/promises'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { join } from 'node:path'
import { defineContentToolFixture } from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { Config as ConfigSchema, type Config } from '../src/config.ts'
import { createGuard } from '../src/guard.ts'
import { withheldFeedback } from '../src/texts.ts'
import { harness, reminders, toolResults } from '../support/harness.ts'
import type { ScriptedCall } from '../support/model.ts'
import { scratch } from '../support/scratch.ts'
import { runReplay, runReplayJson, writeSessions } from '../support/sessions.ts'
import { bashSuite, mountBash } from './support/dsh-tools.ts'
import { GREP, source, times, turns } from './support/calls.ts'

bashSuite()

/** A bash call with a side effect: it appends a line to `file`. */
const append = (file: string): ScriptedCall => ({
  name: 'bash',
  args: { command: `echo ran >> '${file}'`, description: 'Append a line' },
})

async function lines(file: string): Promise<number> {
  return (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '').length
}

async function runAppends(n: number, config: Partial<Config>) {
  const file = join(await scratch('effects'), 'effects.txt')
  const h = await harness(turns(...times(n, append(file))), config)
  await mountBash(h.ctx)
  const agent = await h.run()
  return { agent, file }
}

describe("blockAt denies a repeat before it runs, with dsh's bash tool as dsh-base composes it", () => {
  it(
    'a command with a side effect repeated past blockAt ran blockAt − ' +
      "1 times; the model reads the withheld text as each denied call's result",
    async () => {
      const { agent, file } = await runAppends(6, { thresholds: [2], blockAt: 3 })
      expect(await lines(file)).toBe(2)
      const results = toolResults(agent)
      expect(results.slice(0, 2)).toEqual([
        [false, '(no output)'],
        [false, '(no output)'],
      ])
      expect(results.slice(2)).toEqual([3, 4, 5, 6].map((n) => [true, withheldFeedback(['bash'], n, { ran: false })]))
      expect(reminders(agent).map((r) => r.afterCall)).toEqual([2])
    },
  )

  it(
    'under resultAware the result decides whether the run goes on: the ' +
      'call runs, and its result is withheld after',
    async () => {
      const { agent, file } = await runAppends(4, { thresholds: [2], blockAt: 3, resultAware: true })
      expect(await lines(file)).toBe(4)
      expect(toolResults(agent).slice(2)).toEqual(
        [3, 4].map((n) => [true, withheldFeedback(['bash'], n, { sameResults: true })]),
      )
    },
  )

  it(
    'the log records each denied call with the withheld text; replay ' +
      'reports them as not run, and a config with blockAt as calls it would not run',
    async () => {
      const file = join(await scratch('effects'), 'effects.txt')
      const config = { thresholds: [2], blockAt: 3 }
      const root = await writeSessions(
        'none',
        [
          {
            id: 'appends',
            script: turns(...times(5, append(file))),
            setup: async (ctx) => {
              await mountBash(ctx)
            },
          },
        ],
        config,
      )
      expect(await lines(file)).toBe(2)
      const log = await readFile(join(root, '_no-cwd', 'appends', 'session.jsonl'), 'utf8')
      expect(log).toContain(JSON.stringify(withheldFeedback(['bash'], 3, { ran: false })))
      const { report } = await runReplayJson([root, '--thresholds', '2', '--block-at', '3'])
      const [session] = report.sessions
      expect(session!.recordedWithheld).toEqual([
        { call: 3, denied: true, effect: 'repeated' },
        { call: 4, denied: true, effect: 'repeated' },
        { call: 5, denied: true, effect: 'ended' },
      ])
      expect(session!.configWithheld).toEqual([3, 4, 5])
      expect(session!.configDenied).toEqual([3, 4, 5])
      expect(report.total).toMatchObject({ recordedWithheld: 3, recordedDenied: 3, configWithheld: 3, configDenied: 3 })
      const { out } = await runReplay(['replay', root])
      expect(out).toContain('  withheld results: 3 in the logs (3 denied before running), 0 with this config\n')
    },
  )
})

describe("every other listener's decision still wins", () => {
  it('a call another tools/pre-execute listener denies or asks about keeps that decision', async () => {
    const h = await harness(turns(...times(4, GREP)), { thresholds: [2], blockAt: 2 })
    let asked = 0
    h.ctx.on('tools/pre-execute', async (exec, next) => {
      const decision = await next()
      if (exec.callId === 'call-3-1') return { kind: 'deny', reason: 'policy says no' }
      if (exec.callId === 'call-4-1') {
        asked++
        return { kind: 'ask', reason: 'confirm' }
      }
      return decision
    })
    const agent = await h.run()
    expect(asked).toBe(1)
    expect(toolResults(agent).map(([isError]) => isError)).toEqual([false, true, true, true])
  })

  it("a listener after this one that denies: its reason stands, not this plugin's", async () => {
    const h = await harness(turns(...times(3, GREP)), { thresholds: [2], blockAt: 2 })
    const reasons: string[] = []
    h.ctx.on('tools/pre-execute', async () => ({ kind: 'deny', reason: 'closed for maintenance' }))
    h.ctx.on(
      'tools/post-execute',
      async (_exec, result, next) => {
        reasons.push((result.content[0] as { text: string }).text)
        return next()
      },
      { prepend: true },
    )
    await h.run()
    expect(reasons).toEqual([
      'Error: closed for maintenance',
      'Error: closed for maintenance',
      'Error: closed for maintenance',
    ])
  })
})

describe('parallel calls of one step', () => {
  /** A parallel-safe tool; every call of a step starts before any is counted. */
  function slow(ctx: Parameters<typeof mountBash>[0]): void {
    ctx.tools.register(
      defineContentToolFixture({
        name: 'slow',
        description: 'A parallel-safe call.',
        parameters: { key: { type: 'string' } },
        isConcurrencySafe: () => true,
        async execute(args) {
          return [{ type: 'text', text: `done ${args.key}` }]
        },
      }),
    )
  }
  const call = (key: string) => ({ name: 'slow', args: { key } })

  it(
    'a call behind an earlier one of its step is not denied on a run ' +
      'that call may end: it runs, and is counted in model order',
    async () => {
      // a, a, then one response of b and a: in model order b ends the run, so the last a starts a new one.
      const h = await harness([{ calls: [call('a')] }, { calls: [call('a')] }, { calls: [call('b'), call('a')] }], {
        thresholds: [2],
        blockAt: 3,
      })
      slow(h.ctx)
      const agent = await h.run()
      expect(toolResults(agent)).toEqual([
        [false, 'done a'],
        [false, 'done a'],
        [false, 'done b'],
        [false, 'done a'],
      ])
    },
  )

  it('the first call of a step that continues the run is still denied before it runs', async () => {
    const h = await harness([{ calls: [call('a')] }, { calls: [call('a')] }, { calls: [call('a'), call('b')] }], {
      thresholds: [2],
      blockAt: 3,
    })
    slow(h.ctx)
    const agent = await h.run()
    expect(toolResults(agent)).toEqual([
      [false, 'done a'],
      [false, 'done a'],
      [true, withheldFeedback(['slow'], 3, { ran: false })],
      [false, 'done b'],
    ])
  })
})

describe('what deny never turns away', () => {
  const agent = {} as Agent
  const grep = { agent, name: 'grep', arguments: { pattern: 'x' } }
  const result = { isError: false, content: [{ type: 'text' as const, text: 'none' }] }
  /** A guard that has counted `n` identical greps of `agent`. */
  const observed = (n: number, config: Partial<Config>) => {
    const guard = createGuard(ConfigSchema(config))
    for (let i = 0; i < n; i++) guard.observe(grep, result)
    return guard
  }

  it('with blockAt 0, nothing; a call without an agent, one a tool dispatched, an untracked one: nothing', () => {
    expect(observed(5, {}).deny(grep)).toBeUndefined()
    const guard = observed(2, { thresholds: [2], blockAt: 3, exclude: ['glob'] })
    expect(guard.deny({ name: 'grep', arguments: { pattern: 'x' } })).toBeUndefined()
    expect(guard.deny({ ...grep, parent: { callId: 'outer' } as never })).toBeUndefined()
    expect(guard.deny({ ...grep, name: 'glob' })).toBeUndefined()
    expect(guard.deny(grep)).toBe(withheldFeedback(['grep'], 3, { ran: false }))
  })
})

describe('which calls are open while deny judges', () => {
  const agent = {} as Agent
  const call = (pattern: string) => ({ agent, name: 'grep', arguments: { pattern } })
  const result = { isError: false, content: [{ type: 'text' as const, text: 'none' }] }
  const DENIED = withheldFeedback(['grep'], 3, { ran: false })
  /** A guard with blockAt 3 that has counted two identical greps of `agent`. */
  const guard = () => {
    const g = createGuard(ConfigSchema({ thresholds: [2], blockAt: 3 }))
    g.observe(call('x'), result)
    g.observe(call('x'), result)
    return g
  }

  it('a call counted is no longer open: the next call of the same step, taken after it, is denied too', () => {
    const g = guard()
    const first = call('x')
    expect(g.deny(first)).toBe(DENIED)
    g.observe(first, result)
    expect(g.deny(call('x'))).toBe(withheldFeedback(['grep'], 4, { ran: false }))
  })

  it('a call that was never counted (its step ended without it) is open no longer at the next step', () => {
    const g = guard()
    // An earlier call of a step is still open: the one behind it is not denied.
    g.deny(call('y'))
    expect(g.deny(call('x'))).toBeUndefined()
    g.step(agent, [])
    expect(g.deny(call('x'))).toBe(DENIED)
  })

  it('what deny compared for its call is not the answer for another call counted before it', () => {
    const g = guard()
    // The memo made for the denied grep of x must not answer for a grep of y counted first: y starts a run of its own.
    expect(g.deny(call('x'))).toBe(DENIED)
    expect(g.observe(call('y'), result)?.inARow).toBe(1)
  })
})

describe("every other listener's decision, in model order", () => {
  /** Parallel-safe tools that answer with their name and key; `nap` returns only once `awake` resolves. */
  function parallel(ctx: Parameters<typeof mountBash>[0], awake: Promise<void>): void {
    for (const name of ['slow', 'nap', 'other']) {
      ctx.tools.register(
        defineContentToolFixture({
          name,
          description: 'A parallel-safe call.',
          parameters: { key: { type: 'string' } },
          isConcurrencySafe: () => true,
          async execute(args) {
            if (name === 'nap') await awake
            return [{ type: 'text', text: `${name} ${args.key}` }]
          },
        }),
      )
    }
  }

  it(
    'a call a later listener denies is still a call of its step: the ' +
      'repeat behind it, whose run it ended in model order, runs',
    async () => {
      const calls = (...names: [string, string][]) => ({ calls: names.map(([name, key]) => ({ name, args: { key } })) })
      const h = await harness(
        [calls(['slow', 'a']), calls(['slow', 'a']), calls(['nap', 'z'], ['other', 'y'], ['slow', 'a'])],
        { thresholds: [2], blockAt: 3, exclude: ['nap'] },
      )
      // nap is still running when the last call reaches pre-execute: nothing of its step has been counted yet.
      let wake = () => {}
      parallel(h.ctx, new Promise((resolve) => (wake = resolve)))
      h.ctx.on(
        'tools/pre-execute',
        (exec, next) => {
          if (exec.callId === 'call-3-3') wake()
          return next()
        },
        { prepend: true },
      )
      // A policy registered after the plugin: its listener runs inside the plugin's next().
      h.ctx.on('tools/pre-execute', async (exec, next) =>
        exec.name === 'other' ? { kind: 'deny', reason: 'not other' } : next(),
      )
      const agent = await h.run()
      expect(toolResults(agent)).toEqual([
        [false, 'slow a'],
        [false, 'slow a'],
        [false, 'nap z'],
        [true, 'Error: not other'],
        [false, 'slow a'],
      ])
    },
  )

  it('a call this plugin denied and an outer listener let through ran: its withheld result says so', async () => {
    const file = join(await scratch('effects'), 'effects.txt')
    const h = await harness(turns(...times(3, append(file))), { thresholds: [2], blockAt: 3 })
    await mountBash(h.ctx)
    h.ctx.on(
      'tools/pre-execute',
      async (_exec, next) => {
        const decision = await next()
        return decision.kind === 'deny' ? { kind: 'allow' } : decision
      },
      { prepend: true },
    )
    const agent = await h.run()
    expect(await lines(file)).toBe(3)
    expect(toolResults(agent).at(-1)).toEqual([true, withheldFeedback(['bash'], 3)])
  })

  it('a call another listener denied did not run: its withheld result says so', async () => {
    const file = join(await scratch('effects'), 'effects.txt')
    const h = await harness(turns(...times(4, append(file))), { thresholds: [2], blockAt: 3 })
    await mountBash(h.ctx)
    // Registered after the plugin, so the plugin sees its deny and leaves the call to it.
    h.ctx.on('tools/pre-execute', async (exec, next) =>
      exec.callId === 'call-4-1' ? { kind: 'deny', reason: 'enough' } : next(),
    )
    const agent = await h.run()
    expect(await lines(file)).toBe(2)
    expect(toolResults(agent).slice(2)).toEqual([
      [true, withheldFeedback(['bash'], 3, { ran: false })],
      [true, withheldFeedback(['bash'], 4, { ran: false })],
    ])
  })
})

describe('what deny keeps for a call', () => {
  it('primitive arguments (malformed JSON) of two tools: blockAt changes no reminder', async () => {
    const script = turns(
      ...Array.from({ length: 6 }, (_, i) => ({ name: i % 2 === 0 ? 'grep' : 'read_file', args: '{oops' })),
    )
    const reminded = async (blockAt: number) =>
      reminders(await (await harness(script, { thresholds: [2], cycles: true, blockAt })).run()).map((r) => [
        r.afterCall,
        r.source,
      ])
    const without = await reminded(0)
    expect(without).toEqual([[4, source('grep → read_file × 2')]])
    expect(await reminded(4)).toEqual(without)
  })

  it('nothing of a call deny judged is kept past the next step when it never reached post-execute', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const agent = {} as Agent
    const guard = createGuard(ConfigSchema({ thresholds: [2], blockAt: 3 }))
    for (let i = 0; i < 2; i++)
      guard.observe({ agent, name: 'write', arguments: { content: 'x' } }, { isError: false, content: [] })
    const ref = (() => {
      const args = { content: 'y'.repeat(1_000_000) }
      guard.deny({ agent, name: 'write', arguments: args })
      return new WeakRef(args)
    })()
    guard.step(agent, [])
    // A WeakRef holds its target to the end of the current job.
    await new Promise((resolve) => setImmediate(resolve))
    gc()
    expect(ref.deref()).toBeUndefined()
  })
})

// Seconds of work on a busy machine (every sequence, or 100 large lists): a slow run is not a wrong one.
describe('what deny compares changes nothing it does not withhold', { timeout: 30_000 }, () => {
  it(
    'every sequence of 8 calls over 3 tools, cycles of up to 4 on: with ' +
      'a blockAt no run reaches, deny before every call, the same reminders as without',
    () => {
      const agent = {} as Agent
      const result = { isError: false, content: [{ type: 'text' as const, text: 'same' }] }
      const reminded = (sequence: number[], blockAt: number) => {
        const guard = createGuard(ConfigSchema({ thresholds: [2, 3], cycles: true, maxCyclePeriod: 4, blockAt }))
        return sequence.map((tool) => {
          const exec = { agent, name: 'abc'[tool]!, arguments: { k: 1 } }
          // As the pipeline does: pre-execute first, with a fresh call object each time.
          expect(guard.deny(exec)).toBeUndefined()
          return guard.observe(exec, result)?.reminder?.source
        })
      }
      for (let n = 0; n < 3 ** 8; n++) {
        const sequence = Array.from({ length: 8 }, (_, i) => Math.floor(n / 3 ** i) % 3)
        expect(reminded(sequence, 1_000)).toEqual(reminded(sequence, 0))
      }
    },
  )

  it('observe, like deny, ignores a call without an agent, one a tool dispatched and an untracked one', () => {
    const guard = createGuard(ConfigSchema({ thresholds: [2], exclude: ['glob'] }))
    const result = { isError: false, content: [] }
    expect(guard.observe({ name: 'grep', arguments: {} }, result)).toBeUndefined()
    expect(
      guard.observe({ agent: {} as Agent, parent: { callId: 'outer' } as never, name: 'grep', arguments: {} }, result),
    ).toBeUndefined()
    expect(guard.observe({ agent: {} as Agent, name: 'glob', arguments: {} }, result)).toBeUndefined()
  })

  it('the first call of an agent has nothing to be denied against', () => {
    const guard = createGuard(ConfigSchema({ thresholds: [2], blockAt: 2 }))
    expect(guard.deny({ agent: {} as Agent, name: 'grep', arguments: {} })).toBeUndefined()
  })
})
