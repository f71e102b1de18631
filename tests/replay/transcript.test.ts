import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { describe, expect, it } from 'vitest'
import { Problem } from '../../src/problem.ts'
import { withheldFeedback } from '../../src/texts.ts'
import { transcribe } from '../../src/replay/transcript.ts'
import { calls, events, flags, LOGGED_GREP, reminder, type Logged } from '../support/events.ts'

describe('reading a session log into calls', () => {
  it(
    'a call repeats the call right before it only with the same tool ' +
      'and arguments; its result repeats when the latest identical call ' +
      'returned the same',
    () => {
      const session = transcribe(
        events(
          LOGGED_GREP,
          LOGGED_GREP,
          { tool: 'glob', args: { p: 'x' } },
          LOGGED_GREP,
          { ...LOGGED_GREP, result: 'new' },
          { ...LOGGED_GREP, result: 'new' },
        ),
        [],
      )
      expect(flags(session)).toEqual([
        [false, false, false],
        [true, true, true],
        [false, false, false],
        [false, true, false],
        [true, false, false],
        [true, true, true],
      ])
    },
  )

  it(
    'nothing is new at a call only when its result repeats and every call since the same call last ' +
      'returned it repeated its own',
    () => {
      const A = LOGGED_GREP
      const B = { tool: 'read', args: { p: 'b' } }
      const C = { tool: 'glob', args: { p: 'c' } }
      // B is new before the second A; the second B follows only A's repeat; C is new before the third A.
      const session = transcribe(events(A, B, A, B, C, A, { ...A, result: 'other' }), [])
      expect(calls(session).map((c) => [c.repeatsResult, c.nothingNew])).toEqual([
        [false, false],
        [false, false],
        [true, false],
        [true, true],
        [false, false],
        [true, false],
        [false, false],
      ])
    },
  )

  it(
    'a withheld result counts as the outcome the live guard saw repeat; ' +
      'without an earlier identical call, as logged',
    () => {
      const withheld = { ...LOGGED_GREP, result: withheldFeedback(['grep'], 3), isError: true }
      const session = transcribe(
        events(LOGGED_GREP, withheld, {
          tool: 'read',
          args: {},
          ...{ result: withheldFeedback(['read'], 3), isError: true },
        }),
        [],
      )
      expect(session.withheld).toEqual([2, 3])
      const [, second, third] = calls(session)
      expect(second!.result).toEqual({ isError: false, content: [{ type: 'text', text: 'ok' }] })
      expect(second!.repeatsCall && second!.repeatsResult).toBe(true)
      expect(third!.result).toEqual({ isError: true, content: [{ type: 'text', text: withheldFeedback(['read'], 3) }] })
    },
  )

  it.each<[string, Logged]>([
    ['a successful result that quotes the withheld text', { ...LOGGED_GREP, result: withheldFeedback(['grep'], 3) }],
    [
      'an error that does not start with it',
      { ...LOGGED_GREP, result: `Error: ${withheldFeedback(['grep'], 3)}`, isError: true },
    ],
    [
      'an error of two blocks',
      {
        ...LOGGED_GREP,
        result: [
          { type: 'text', text: withheldFeedback(['grep'], 3) },
          { type: 'text', text: 'more' },
        ],
        isError: true,
      },
    ],
    ['an error whose block is not text', { ...LOGGED_GREP, result: [{ type: 'image' }], isError: true }],
    [
      'an error whose block is not text but carries the text',
      { ...LOGGED_GREP, result: [{ type: 'reasoning', text: withheldFeedback(['grep'], 3) }], isError: true },
    ],
    ['an error with no blocks', { ...LOGGED_GREP, result: [], isError: true }],
    [
      'an error whose text block holds no text',
      { ...LOGGED_GREP, result: [{ type: 'text', text: 5 as unknown as string }], isError: true },
    ],
  ])('%s is not a withheld result', (_label, call) => {
    expect(transcribe(events(LOGGED_GREP, call), []).withheld).toEqual([])
  })

  it('a call with an empty tool name is refused, naming it', () => {
    expect(() => transcribe(events({ tool: '', args: {} }), [])).toThrow(
      new Problem('tool call "call-1" (event 0) has no tool name'),
    )
  })
})

describe('reading what the live guard left', () => {
  it(
    "a reminder's kind: a cycle names calls with arrows, a later one " +
      'quotes arguments on a line of their own, the first is one line',
    () => {
      const log = [
        ...events(LOGGED_GREP, LOGGED_GREP),
        reminder(90, 'grep × 2'),
        reminder(91, 'grep × 5', 'Reminder:\n{"p":"x"}'),
        reminder(92, 'grep → read × 2', 'a\nb'),
      ]
      expect(transcribe(log, []).reminders.map((r) => r.kind)).toEqual(['short', 'detailed', 'cycle'])
    },
  )

  it('a reminder before any tool result, or with a summary that is not text, is a log no loop writes', () => {
    expect(() => transcribe([reminder(0, 'grep × 3')], [])).toThrow(
      new Problem('reminder (event 0) from repeat-tool-reminder comes before any tool result'),
    )
    expect(() => transcribe([...events(LOGGED_GREP), reminder(5, null)], [])).toThrow(
      new Problem('reminder (event 5) from repeat-tool-reminder has no summary text'),
    )
  })

  it('a user message without content, or an event without data, is named', () => {
    expect(() =>
      transcribe([{ type: 'user/message', seq: 3, data: { source: { kind: 'user' } } } as unknown as SessionEvent], []),
    ).toThrow(new Problem('user message (event 3) has no source or no content list'))
    expect(() => transcribe([{ type: 'tool/result', seq: 4, data: null } as unknown as SessionEvent], [])).toThrow(
      new Problem('tool/result (event 4) carries no data'),
    )
    expect(() => transcribe([{ type: 'step/start', seq: 5, data: [] } as unknown as SessionEvent], [])).toThrow(
      new Problem('step/start (event 5) carries no data'),
    )
    expect(() =>
      transcribe([{ type: 'tool/result', seq: 6, data: { message: 'none' } } as unknown as SessionEvent], []),
    ).toThrow(new Problem('tool result (event 6) names no call it answers'))
    expect(() =>
      transcribe([{ type: 'tool/result', seq: 7, data: { message: { content: [] } } } as unknown as SessionEvent], []),
    ).toThrow(new Problem('tool result (event 7) names no call it answers'))
  })

  it('a response without tool calls holds no usage of loops; one whose message is malformed makes no call', () => {
    const response = (seq: number, data: unknown) =>
      ({ type: 'assistant/message', seq, data }) as unknown as SessionEvent
    const log = [
      response(100, { message: { content: [{ type: 'text', text: 'hi' }] }, usage: { inputTokens: 'bad' } }),
      response(101, { message: 'nothing' }),
      response(102, {
        message: { content: [null, { type: 'tool-call', id: 7 }, { type: 'tool-call', id: 'call-1' }] },
        usage: { inputTokens: 10, outputTokens: 2 },
      }),
      ...events(LOGGED_GREP),
    ]
    const transcript = transcribe(log, [])
    expect(transcript.usage).toEqual([{ inputTokens: 10, outputTokens: 2 }])
    expect(calls(transcript)[0]!.response).toBe(0)
  })

  it('a result with a content block that is not an object is refused, naming it', () => {
    expect(() => transcribe(events({ ...LOGGED_GREP, result: [null] }), [])).toThrow(
      new Problem('tool result (event 1) for call "call-1" has a content block that is not an object'),
    )
  })

  it('a usage is token counts only when both counts are numbers', () => {
    const response = (usage: unknown) =>
      ({
        type: 'assistant/message',
        seq: 9,
        data: { message: { content: [{ type: 'tool-call', id: 'call-1' }] }, usage },
      }) as unknown as SessionEvent
    expect(() => transcribe([response({ inputTokens: 'many', outputTokens: 2 }), ...events(LOGGED_GREP)], [])).toThrow(
      new Problem('model response (event 9) has a usage that is not token counts'),
    )
    expect(() => transcribe([response({ inputTokens: 3 }), ...events(LOGGED_GREP)], [])).toThrow(
      new Problem('model response (event 9) has a usage that is not token counts'),
    )
    expect(transcribe([response({ inputTokens: 3, outputTokens: 2 }), ...events(LOGGED_GREP)], []).usage).toEqual([
      { inputTokens: 3, outputTokens: 2 },
    ])
  })

  it('a call no logged response made names no response, so it adds no tokens', () => {
    const response = (seq: number, id: string) =>
      ({
        type: 'assistant/message',
        seq,
        data: { message: { content: [{ type: 'tool-call', id }] }, usage: { inputTokens: 10, outputTokens: 2 } },
      }) as unknown as SessionEvent
    // Calls 1 and 2 come from responses 0 and 1; call 3 from none the log kept.
    const transcript = transcribe(
      [
        response(100, 'call-1'),
        response(101, 'call-2'),
        ...events(LOGGED_GREP, { ...LOGGED_GREP, args: { p: 'y' } }, LOGGED_GREP),
      ],
      [],
    )
    expect(calls(transcript).map((c) => c.response)).toEqual([0, 1, -1])
  })
})

describe("a call refused approval, as dsh-user-approval's audit events log it", () => {
  /** `approval/asked` or `approval/decided` with `data`, as a log records it. */
  const approval = (type: string, data: Record<string, unknown>) =>
    ({ type: `approval/${type}`, seq: 0, data }) as unknown as SessionEvent
  const ran = (...before: SessionEvent[]) =>
    calls(transcribe([...before, ...events(LOGGED_GREP, LOGGED_GREP)], [])).map((c) => c.ran)

  it('anything but a grant means the call never ran', () => {
    for (const outcome of ['rejected', 'cancelled', 'unavailable'])
      expect(ran(approval('asked', { id: 'q', callId: 'call-2' }), approval('decided', { id: 'q', outcome }))).toEqual([
        true,
        false,
      ])
    expect(
      ran(approval('asked', { id: 'q', callId: 'call-2' }), approval('decided', { id: 'q', outcome: 'allowed-once' })),
    ).toEqual([true, true])
  })

  it('only approval/asked asks, and a later question about no call does not undo an earlier one', () => {
    const decided = approval('decided', { id: 'q', outcome: 'rejected' })
    expect(ran(approval('policy', { id: 'q', callId: 'call-2' }), decided)).toEqual([true, true])
    expect(ran(approval('asked', { id: 'q', callId: 'call-2' }), approval('asked', { id: 'q' }), decided)).toEqual([
      true,
      false,
    ])
  })

  it('a question about no call, an answer to no question and an id that is not text are left out', () => {
    expect(
      ran(
        approval('asked', { id: 'q' }),
        approval('decided', { id: 'q', outcome: 'rejected' }),
        approval('decided', { id: 'call-1', outcome: 'rejected' }),
        approval('asked', { id: 7, callId: 'call-1' }),
        approval('decided', { id: 7, outcome: 'rejected' }),
      ),
    ).toEqual([true, true])
  })
})
