import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Config } from '../src/config.ts'
import { createGuard } from '../src/guard.ts'
import { anyOf } from '../src/patterns.ts'
import { main } from '../src/replay/cli.ts'
import { transcribe, type LoggedCall } from '../src/replay/transcript.ts'
import { LogReader } from '../src/replay/reader.ts'
import { writeSessions } from '../support/sessions.ts'
import { GREP, turns } from './support/calls.ts'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** The heap after a full collection. */
function heap(): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

describe('what each agent remembers is bounded', () => {
  it.each([
    ['cycles on', { cycles: true, maxCyclePeriod: 8 }],
    ['relapse on', { relapse: true }],
    ['cycles and relapse on, results compared', { cycles: true, relapse: true, resultAware: true }],
    [
      'every rule for loops in other words on',
      { cycles: true, relapse: true, resultAware: true, rereads: true, sameFailure: true, maskNoise: true },
    ],
  ])("with %s, 2,000 distinct calls of 50 kB each leave at most a few calls' worth behind", (_label, config) => {
    const guard = createGuard(Config(config))
    const agent = {} as Agent
    const before = heap()
    for (let i = 0; i < 2_000; i++) {
      // Each call's arguments and result are its own 50 kB strings: keeping every call would keep 200 MB.
      const text = `${i}:${'x'.repeat(50_000)}`
      guard.observe(
        { agent, name: 'write', arguments: { content: text } },
        { isError: false, content: [{ type: 'text', text: `wrote ${text}` }] },
      )
    }
    // The newest call, up to 8 recent ones, up to 8 interrupted runs and the 6 calls rereads looks
    // back on: well under 3 MB.
    expect(heap() - before).toBeLessThan(4e6)
    // The guard and the agent are still in use here, so the collection above could not take their state.
    expect(guard.observe({ agent, name: 'write', arguments: {} }, { isError: false, content: [] })?.inARow).toBe(1)
  })
})

// Seconds of work on a busy machine (100 large lists): a slow run is not a wrong one.
describe('compiled pattern lists', { timeout: 30_000 }, () => {
  it(
    'a filter keeps its compiled patterns and nothing else does: 100 lists of a ' +
      '200,000-character pattern, each dropped, leave a few MB',
    () => {
      const before = heap()
      // Each filter is used and dropped, as a replay drops a config's comparison.
      for (let i = 0; i < 100; i++)
        expect(anyOf([`${i}${'x'.repeat(200_000)}*`])(`${i}${'x'.repeat(200_000)}`)).toBe(true)
      // Each compiled list holds its pattern and a table of 200,000 numbers: one kept would be 2.5 MB, all 100, 250 MB.
      expect(heap() - before).toBeLessThan(2e6)
    },
  )
})

describe('what a long ignoreArguments list costs', () => {
  it('10,000 entries over 5,000 calls of one tool: the calls share one list', () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => `*.arg${i}`)
    const events = Array.from(
      { length: 5_000 },
      (_, i): SessionEvent[] =>
        [
          { type: 'tool/call', seq: 2 * i, data: { callId: `c${i}`, name: 'grep', arguments: '{}' } },
          {
            type: 'tool/result',
            seq: 2 * i + 1,
            data: { message: { content: [{ type: 'tool-result', toolCallId: `c${i}`, content: [] }] } },
          },
        ] as unknown as SessionEvent[],
    ).flat()
    const before = heap()
    const transcript = transcribe(events, entries)
    // A list of 10,000 per call would be 400 MB.
    expect(heap() - before).toBeLessThan(20e6)
    expect(transcript.calls).toBe(5_000)
  })
})

describe("replay's look-back window", () => {
  const logged = (tool: string, args: unknown, i: number): SessionEvent[] =>
    [
      { type: 'tool/call', seq: 2 * i, data: { callId: `c${i}`, name: tool, arguments: JSON.stringify(args) } },
      {
        type: 'tool/result',
        seq: 2 * i + 1,
        data: {
          message: {
            content: [{ type: 'tool-result', toolCallId: `c${i}`, content: [{ type: 'text', text: 'same' }] }],
          },
        },
      },
    ] as unknown as SessionEvent[]
  const between = (n: number) =>
    [
      logged('grep', GREP.args, 0),
      ...Array.from({ length: n }, (_, i) => logged('read', { i }, i + 1)),
      logged('grep', GREP.args, n + 1),
    ].flat()
  const last = (events: SessionEvent[]) =>
    transcribe(events, [])
      .steps.filter((s): s is LoggedCall => 'tool' in s)
      .at(-1)!

  it(
    'a call compares its result with the same call up to 8 calls back, ' +
      'the farthest the guard compares, and no farther',
    () => {
      expect(last(between(7)).repeatsResult).toBe(true)
      expect(last(between(8)).repeatsResult).toBe(false)
    },
  )
})

describe('the log reader is closed on every path', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('after a clean replay, after files that failed, and when writing the report throws', async () => {
    const close = vi.spyOn(LogReader.prototype, 'close')
    const root = await writeSessions('none', [{ id: 'a', script: turns(GREP, GREP) }])
    expect(await main(['replay', root], { out: () => {}, err: () => {}, progress: false })).toBe(0)
    expect(close).toHaveBeenCalledTimes(1)
    expect(
      await main(['replay', root, '/no/such/session.jsonl'], { out: () => {}, err: () => {}, progress: false }),
    ).toBe(1)
    expect(close).toHaveBeenCalledTimes(2)
    await expect(
      main(['replay', root], {
        out: () => {
          throw new Error('stdout closed')
        },
        err: () => {},
        progress: false,
      }),
    ).rejects.toThrow('stdout closed')
    expect(close).toHaveBeenCalledTimes(3)
  })
})
