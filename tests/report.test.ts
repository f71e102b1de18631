import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { describe, expect, it } from 'vitest'
import { Config } from '../src/config.ts'
import { transcribe, type LoggedCall } from '../src/replay/transcript.ts'
import { report as replay } from '../src/replay/report.ts'
import { tally } from '../src/replay/suggest.ts'
import { withheldFeedback } from '../src/reminders.ts'

/** One call as a log records it: the tool, its arguments, and the result content (text blocks, or blocks as given, hostile ones too). */
interface Logged {
  tool: string
  args: unknown
  result?: string | ({ type: string, text?: string } | null)[]
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
    const session = transcribe(events(GREP, GREP, { tool: 'glob', args: { p: 'x' } }, GREP, { ...GREP, result: 'new' }, { ...GREP, result: 'new' }), [])
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
    const session = transcribe(events(GREP, withheld, { tool: 'read', args: {}, ...{ result: withheldFeedback(['read'], 3), isError: true } }), [])
    expect(session.withheld).toEqual([2, 3])
    const [, second, third] = calls(session)
    expect(second!.result).toEqual({ isError: false, content: [{ type: 'text', text: 'ok' }] })
    expect(second!.repeatsCall && second!.repeatsResult).toBe(true)
    expect(third!.result).toEqual({ isError: true, content: [{ type: 'text', text: withheldFeedback(['read'], 3) }] })
  })

  it.each<[string, Logged]>([
    ['a successful result that quotes the withheld text', { ...GREP, result: withheldFeedback(['grep'], 3) }],
    ['an error that does not start with it', { ...GREP, result: `Error: ${withheldFeedback(['grep'], 3)}`, isError: true }],
    ['an error of two blocks', { ...GREP, result: [{ type: 'text', text: withheldFeedback(['grep'], 3) }, { type: 'text', text: 'more' }], isError: true }],
    ['an error whose block is not text', { ...GREP, result: [{ type: 'image' }], isError: true }],
    ['an error whose block is not text but carries the text', { ...GREP, result: [{ type: 'reasoning', text: withheldFeedback(['grep'], 3) }], isError: true }],
    ['an error with no blocks', { ...GREP, result: [], isError: true }],
    ['an error whose text block holds no text', { ...GREP, result: [{ type: 'text', text: 5 as unknown as string }], isError: true }],
  ])('%s is not a withheld result', (_label, call) => {
    expect(transcribe(events(GREP, call), []).withheld).toEqual([])
  })

  it('a call with an empty tool name is refused, naming it', () => {
    expect(() => transcribe(events({ tool: '', args: {} }), [])).toThrow(new Error('tool call "call-1" (event 0) has no tool name'))
  })
})

describe('one session\'s report', () => {
  it('two separate cycles of the same calls are two cycles', () => {
    const A = { tool: 'grep', args: { p: 'a' } }
    const B = { tool: 'read', args: { p: 'b' } }
    const C = { tool: 'edit', args: {} }
    const report = replay(transcribe(events(A, B, A, B, C, A, B, A, B, A), []), Config({ cycles: true, thresholds: [2] }))
    expect(report.cycles).toEqual([{ tools: ['grep', 'read'], start: 1, length: 2 }, { tools: ['grep', 'read'], start: 6, length: 2 }])
  })

  it('the tools that loop most: most repeated calls first, then by name', () => {
    const b = { tool: 'b_tool', args: {} }
    const a = { tool: 'a_tool', args: {} }
    const z = { tool: 'z_tool', args: {} }
    const report = replay(transcribe(events(z, z, b, b, a, a, z, z, z), []), Config({}))
    expect(report.tools).toEqual([{ tool: 'z_tool', runs: 2, repeatedCalls: 3 }, { tool: 'a_tool', runs: 1, repeatedCalls: 1 }, { tool: 'b_tool', runs: 1, repeatedCalls: 1 }])
  })

  it('loops are stretches of calls each repeating the one before: earlier thresholds keep the baseline\'s loops on other calls', () => {
    const session = transcribe(events(GREP, GREP, GREP, GREP, GREP, { tool: 'read', args: {} }, { ...GREP, result: 'a' }, { ...GREP, result: 'b' }, { ...GREP, result: 'c' }), [])
    const baseline = tally(session, Config({}), { baseline: { loops: new Set(), repeated: new Set() } })
    expect(baseline.reminded).toEqual({ loops: new Set([1, 7]), repeated: new Set([1]) })
    const earlier = tally(session, Config({ thresholds: [2, 4, 7], resultAware: true }), { baseline: baseline.reminded })
    expect(earlier.reminded).toEqual({ loops: new Set([1]), repeated: new Set([1]) })
    expect(earlier.tally).toMatchObject({ baselineLoopsKept: 1, baselineRepeatedLoopsLost: 0 })
  })

  it('a reminder on the last call of an eight-call cycle whose results repeat counts as on repeated results', () => {
    const cycle = Array.from({ length: 8 }, (_, i) => ({ tool: 'grep', args: { p: i } }))
    const result = tally(transcribe(events(...cycle, ...cycle), []), Config({ cycles: true, maxCyclePeriod: 8, thresholds: [2] }), { baseline: { loops: new Set([16, 3]), repeated: new Set([16, 5]) } })
    expect(result).toEqual({
      tally: { reminders: 1, withheld: 0, denied: 0, onRepeatedResults: 1, onChangedResults: 0, unremindedLoopCalls: 0, baselineLoopsKept: 1, baselineRepeatedLoopsLost: 1 },
      reminded: { loops: new Set([16]), repeated: new Set([16]) },
    })
  })
})

/** A user message as the log records it: a reminder from this plugin with `summary` and `text`, or the user's prompt. */
function message(seq: number, source: Record<string, unknown>, text = 'x'): SessionEvent {
  return { type: 'user/message', seq, data: { content: [{ type: 'text', text }], source } } as unknown as SessionEvent
}
const reminder = (seq: number, summary: unknown, text = 'Reminder') => message(seq, { kind: 'plugin', plugin: 'repeat-tool-reminder', form: 'notice', summary }, text)

describe('reading what the live guard left', () => {
  it('a reminder\'s kind: a cycle names calls with arrows, a later one quotes arguments on a line of their own, the first is one line', () => {
    const log = [...events(GREP, GREP), reminder(90, 'grep × 2'), reminder(91, 'grep × 5', 'Reminder:\n{"p":"x"}'), reminder(92, 'grep → read × 2', 'a\nb')]
    expect(transcribe(log, []).reminders.map((r) => r.kind)).toEqual(['short', 'detailed', 'cycle'])
  })

  it('a reminder before any tool result, or with a summary that is not text, is a log no loop writes', () => {
    expect(() => transcribe([reminder(0, 'grep × 3')], [])).toThrow(new Error('reminder (event 0) from repeat-tool-reminder comes before any tool result'))
    expect(() => transcribe([...events(GREP), reminder(5, null)], [])).toThrow(new Error('reminder (event 5) from repeat-tool-reminder has no summary text'))
  })

  it('a user message without content, or an event without data, is named', () => {
    expect(() => transcribe([{ type: 'user/message', seq: 3, data: { source: { kind: 'user' } } } as unknown as SessionEvent], [])).toThrow(new Error('user message (event 3) has no source or no content list'))
    expect(() => transcribe([{ type: 'tool/result', seq: 4, data: null } as unknown as SessionEvent], [])).toThrow(new Error('tool/result (event 4) carries no data'))
    expect(() => transcribe([{ type: 'step/start', seq: 5, data: [] } as unknown as SessionEvent], [])).toThrow(new Error('step/start (event 5) carries no data'))
    expect(() => transcribe([{ type: 'tool/result', seq: 6, data: { message: 'none' } } as unknown as SessionEvent], [])).toThrow(new Error('tool result (event 6) names no call it answers'))
    expect(() => transcribe([{ type: 'tool/result', seq: 7, data: { message: { content: [] } } } as unknown as SessionEvent], [])).toThrow(new Error('tool result (event 7) names no call it answers'))
  })

  it('a response without tool calls holds no usage of loops; one whose message is malformed makes no call', () => {
    const response = (seq: number, data: unknown) => ({ type: 'assistant/message', seq, data }) as unknown as SessionEvent
    const log = [
      response(100, { message: { content: [{ type: 'text', text: 'hi' }] }, usage: { inputTokens: 'bad' } }),
      response(101, { message: 'nothing' }),
      response(102, { message: { content: [null, { type: 'tool-call', id: 7 }, { type: 'tool-call', id: 'call-1' }] }, usage: { inputTokens: 10, outputTokens: 2 } }),
      ...events(GREP),
    ]
    const transcript = transcribe(log, [])
    expect(transcript.usage).toEqual([{ inputTokens: 10, outputTokens: 2 }])
    expect(calls(transcript)[0]!.response).toBe(0)
  })

  it('a result with a content block that is not an object is refused, naming it', () => {
    expect(() => transcribe(events({ ...GREP, result: [null] }), [])).toThrow(new Error('tool result (event 1) for call "call-1" has a content block that is not an object'))
  })

  it('a usage is token counts only when both counts are numbers', () => {
    const response = (usage: unknown) => ({ type: 'assistant/message', seq: 9, data: { message: { content: [{ type: 'tool-call', id: 'call-1' }] }, usage } }) as unknown as SessionEvent
    expect(() => transcribe([response({ inputTokens: 'many', outputTokens: 2 }), ...events(GREP)], [])).toThrow(new Error('model response (event 9) has a usage that is not token counts'))
    expect(() => transcribe([response({ inputTokens: 3 }), ...events(GREP)], [])).toThrow(new Error('model response (event 9) has a usage that is not token counts'))
    expect(transcribe([response({ inputTokens: 3, outputTokens: 2 }), ...events(GREP)], []).usage).toEqual([{ inputTokens: 3, outputTokens: 2 }])
  })

  it('a call no logged response made names no response, so it adds no tokens', () => {
    const response = (seq: number, id: string) => ({ type: 'assistant/message', seq, data: { message: { content: [{ type: 'tool-call', id }] }, usage: { inputTokens: 10, outputTokens: 2 } } }) as unknown as SessionEvent
    // Calls 1 and 2 come from responses 0 and 1; call 3 from none the log kept.
    const transcript = transcribe([response(100, 'call-1'), response(101, 'call-2'), ...events(GREP, { ...GREP, args: { p: 'y' } }, GREP)], [])
    expect(calls(transcript).map((c) => c.response)).toEqual([0, 1, -1])
  })
})

describe('what followed a reminder, from its summary', () => {
  it('a summary that names no call made: the reminder is about the call it follows', () => {
    const read = { tool: 'read', args: { p: 'r' } }
    const log = [...events(GREP, read, read)]
    const at = log.length
    const report = replay(transcribe([...log.slice(0, 4), reminder(at, 'cut off… × 3'), ...log.slice(4)], []), Config({}))
    expect(report.recordedReminders.map((r) => [r.afterCall, r.effect])).toEqual([[2, 'repeated']])
  })

  it('a cycle summary longer than the calls before it: the reminder is about its call, and repeated when that call comes again', () => {
    const log = [...events(GREP, GREP)]
    const report = replay(transcribe([...log.slice(0, 2), reminder(50, 'a → b → grep × 2'), ...log.slice(2)], []), Config({}))
    expect(report.recordedReminders.map((r) => [r.afterCall, r.kind, r.effect])).toEqual([[1, 'cycle', 'repeated']])
  })

  it('an untracked call in between is transparent: the next tracked call decides', () => {
    const todo = { tool: 'todo', args: {} }
    const log = [...events(GREP, todo, GREP)]
    const report = replay(transcribe([...log.slice(0, 2), reminder(50, 'grep × 1'), ...log.slice(2)], []), Config({ exclude: ['todo'] }))
    expect(report.recordedReminders.map((r) => r.effect)).toEqual(['repeated'])
    const counted = replay(transcribe([...log.slice(0, 2), reminder(50, 'grep × 1'), ...log.slice(2)], []), Config({}))
    expect(counted.recordedReminders.map((r) => r.effect)).toEqual(['relapsed'])
  })

  it('many reminders waiting on one call all relapse when it comes back; a plugin message from another plugin settles nothing', () => {
    const a = { tool: 'grep', args: { p: 'a' } }
    const b = { tool: 'grep', args: { p: 'b' } }
    const log = events(a, b, a)
    const report = replay(transcribe([...log.slice(0, 2), reminder(50, 'grep × 1'), reminder(51, 'grep × 1'), ...log.slice(2, 4), message(52, { kind: 'plugin', plugin: 'other' }), ...log.slice(4)], []), Config({}))
    expect(report.recordedReminders.map((r) => [r.afterCall, r.effect])).toEqual([[1, 'relapsed'], [1, 'relapsed']])
  })
})
