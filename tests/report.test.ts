import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { describe, expect, it } from 'vitest'
import { Config } from '../src/config.ts'
import { transcribe, type LoggedCall } from '../src/replay/log.ts'
import { report as replay } from '../src/replay/report.ts'
import { tally } from '../src/replay/suggest.ts'
import { withheldFeedback } from '../src/reminders.ts'

/** One call as a log records it: the tool, its arguments, and the result content (text blocks, or blocks as given). */
interface Logged {
  tool: string
  args: unknown
  result?: string | { type: string, text?: string }[]
  isError?: boolean
}

/** In-memory session events, shaped as the loop writes them, for the calls in order. */
function events(...calls: Logged[]): SessionEvent[] {
  let seq = 0
  return calls.flatMap(({ tool, args, result = 'ok', isError = false }, i) => {
    const callId = `call-${i + 1}`
    const content = typeof result === 'string' ? [{ type: 'text', text: result }] : result
    return [
      { type: 'tool/call', seq: seq++, data: { callId, name: tool, arguments: JSON.stringify(args) } },
      { type: 'tool/result', seq: seq++, data: { message: { content: [{ type: 'tool-result', toolCallId: callId, content, isError }] } } },
    ] as unknown as SessionEvent[]
  })
}

const calls = (session: ReturnType<typeof transcribe>) => session.steps.filter((s): s is LoggedCall => 'tool' in s)
const flags = (session: ReturnType<typeof transcribe>) => calls(session).map((c) => [c.repeatsCall, c.repeatsResult, c.repeatsCall && c.repeatsResult])
const GREP = { tool: 'grep', args: { p: 'x' } }

describe('reading a session log into calls', () => {
  it('a call repeats the call right before it only with the same tool and arguments; its result repeats when the latest identical call returned the same', () => {
    const session = transcribe(events(GREP, GREP, { tool: 'glob', args: { p: 'x' } }, GREP, { ...GREP, result: 'new' }, { ...GREP, result: 'new' }))
    expect(flags(session)).toEqual([
      [false, false, false],
      [true, true, true],
      [false, false, false],
      [false, true, false],
      [true, false, false],
      [true, true, true],
    ])
  })

  it('a withheld result counts as the outcome the live guard saw repeat; without an earlier identical call, as logged', () => {
    const withheld = { ...GREP, result: withheldFeedback(['grep'], 3), isError: true }
    const session = transcribe(events(GREP, withheld, { tool: 'read', args: {}, ...{ result: withheldFeedback(['read'], 3), isError: true } }))
    expect(session.blocks).toEqual([2, 3])
    const [, second, third] = calls(session)
    expect(second!.outcome).toEqual({ isError: false, content: [{ type: 'text', text: 'ok' }] })
    expect(second!.repeatsCall && second!.repeatsResult).toBe(true)
    expect(third!.outcome).toEqual({ isError: true, content: [{ type: 'text', text: withheldFeedback(['read'], 3) }] })
  })

  it.each<[string, Logged]>([
    ['a successful result that quotes the withheld text', { ...GREP, result: withheldFeedback(['grep'], 3) }],
    ['an error that does not start with it', { ...GREP, result: `Error: ${withheldFeedback(['grep'], 3)}`, isError: true }],
    ['an error of two blocks', { ...GREP, result: [{ type: 'text', text: withheldFeedback(['grep'], 3) }, { type: 'text', text: 'more' }], isError: true }],
    ['an error whose block is not text', { ...GREP, result: [{ type: 'image' }], isError: true }],
  ])('%s is not a withheld result', (_label, call) => {
    expect(transcribe(events(GREP, call)).blocks).toEqual([])
  })

  it('a call with an empty tool name is refused, naming it', () => {
    expect(() => transcribe(events({ tool: '', args: {} }))).toThrow(new Error('tool call "call-1" (event 0) has no tool name'))
  })
})

describe('one session\'s report', () => {
  it('two separate cycles of the same calls are two cycles', () => {
    const A = { tool: 'grep', args: { p: 'a' } }
    const B = { tool: 'read', args: { p: 'b' } }
    const C = { tool: 'edit', args: {} }
    const report = replay(transcribe(events(A, B, A, B, C, A, B, A, B, A)), Config({ cycles: true, thresholds: [2] }))
    expect(report.cycles).toEqual([{ tools: ['grep', 'read'], start: 1, repetitions: 2 }, { tools: ['grep', 'read'], start: 6, repetitions: 2 }])
  })

  it('the tools that loop most: most repeated calls first, then by name', () => {
    const b = { tool: 'b_tool', args: {} }
    const a = { tool: 'a_tool', args: {} }
    const z = { tool: 'z_tool', args: {} }
    const report = replay(transcribe(events(z, z, b, b, a, a, z, z, z)), Config({}))
    expect(report.tools).toEqual([{ tool: 'z_tool', runs: 2, repeatedCalls: 3 }, { tool: 'a_tool', runs: 1, repeatedCalls: 1 }, { tool: 'b_tool', runs: 1, repeatedCalls: 1 }])
  })

  it('a reminder on the last call of an eight-call cycle whose results repeat counts as on repeated results', () => {
    const cycle = Array.from({ length: 8 }, (_, i) => ({ tool: 'grep', args: { p: i } }))
    const result = tally(transcribe(events(...cycle, ...cycle)), Config({ cycles: true, maxCyclePeriod: 8, thresholds: [2] }))
    expect(result).toEqual({ reminders: 1, blocks: 0, onRepeatedResults: 1, onChangedResults: 0, unremindedLoopCalls: 0 })
  })
})
