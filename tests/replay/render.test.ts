import { effectsWith } from '../support/events.ts'
import { describe, expect, it } from 'vitest'
import { render } from '../../src/replay/render.ts'
import { printable } from '../../src/replay/text.ts'
import { WIDTH, wrap } from '../../src/wrap.ts'
import { noEffects } from '../../src/replay/effects.ts'
import { readLabels } from '../../src/replay/labels.ts'
import { Scorer } from '../../src/replay/score.ts'
import type { SessionReport } from '../../src/replay/report.ts'
import { addToTotals, emptyTotals, type Totals } from '../../src/replay/totals.ts'

const session = (id: string, extra: Partial<SessionReport> = {}): SessionReport => ({
  file: `/sessions/p/${id}/session.jsonl`,
  id,
  toolCalls: 3,
  trackedCalls: 3,
  runs: [{ tool: 'grep', arguments: '{}', start: 1, length: 3 }],
  cycles: [],
  histogram: { 3: 1 },
  tools: [{ tool: 'grep', runs: 1, repeatedCalls: 2 }],
  recordedReminders: [],
  configReminders: [{ afterCall: 3, summary: 'grep × 3' }],
  recordedWithheld: [],
  configWithheld: [],
  configDenied: [],
  cost: { calls: 2, argumentChars: 4, resultChars: 10, responses: 2, inputTokens: 900, outputTokens: 40 },
  ...extra,
})

const totals = (extra: Partial<Totals> = {}): Totals => ({ ...emptyTotals(), sessions: 1, ...extra })

describe('the text report', () => {
  it('escapes every control character, line separator and bidirectional formatting character, and nothing else', () => {
    expect(printable('a\u0000b\u001f\u0020~\u007e\u007f\u0080\u009f\u00a0é\u2027\u2028\u2029\n\r\t\x1b[31m')).toBe(
      'a\\u0000b\\u001f ~~\\u007f\\u0080\\u009f\u00a0é\u2027\\u2028\\u2029\\u000a\\u000d\\u0009\\u001b[31m',
    )
    expect(
      printable(
        '\u061b\u061c\u061d\u200d\u200e\u200f\u2010\u202a\u202b\u202c' +
          '\u202d\u202e\u202f\u2065\u2066\u2067\u2068\u2069\u206a',
      ),
    ).toBe(
      '\u061b\\u061c\u061d\u200d\\u200e\\u200f\u2010\\u202a\\u202b\\u202c' +
        '\\u202d\\u202e\u202f\u2065\\u2066\\u2067\\u2068\\u2069\u206a',
    )
    expect(printable('evil\u202egnp.exe')).toBe('evil\\u202egnp.exe')
  })

  it('a value from a log that is not text prints as its JSON, escaped', () => {
    expect(printable(42)).toBe('42')
    expect(printable({ a: '\u202e' })).toBe('{"a":"\\u202e"}')
    expect(printable(undefined)).toBe('undefined')
  })

  it('draws run lengths as bars scaled to the most common length, one block at least, lengths right-aligned', () => {
    const out = render({
      total: totals({ histogram: { 2: 40, 10: 20, 3: 1, 100: 2 } }),
      sessions: [],
      hidden: 0,
      advice: undefined,
    })
    expect(out).toContain(
      [
        '  run lengths (calls in a run: runs):',
        `      2 │${'█'.repeat(40)} 40`,
        `      3 │█ 1`,
        `     10 │${'█'.repeat(20)} 20`,
        `    100 │${'█'.repeat(2)} 2`,
      ].join('\n'),
    )
  })

  it('counts in words: one session, two sessions, one run, one repeated call', () => {
    const one = render({
      total: totals({ tools: [{ tool: 'grep', runs: 1, repeatedCalls: 1 }] }),
      sessions: [],
      hidden: 0,
      advice: undefined,
    })
    expect(one).toMatch(/^total: 1 session, 0 with loops\n/)
    expect(one).toContain('  tools that loop most: grep (1 run, 1 repeated call)\n')
    const two = render({
      total: totals({ sessions: 2, tools: [{ tool: 'grep', runs: 2, repeatedCalls: 3 }] }),
      sessions: [],
      hidden: 0,
      advice: undefined,
    })
    expect(two).toMatch(/^total: 2 sessions, 0 with loops\n/)
    expect(two).toContain('  tools that loop most: grep (2 runs, 3 repeated calls)\n')
  })

  it('says which sessions it details: all of them, the ones that looped, or the top N of how many', () => {
    const heading = (sessions: SessionReport[], total: Totals, hidden: number) =>
      render({ total, sessions, hidden, advice: undefined })
        .split('\n')
        .find((line) => line.endsWith(':') && !line.startsWith(' '))
    expect(heading([session('a')], totals({ sessions: 1 }), 0)).toBe('every session, most looping first:')
    expect(heading([session('a')], totals({ sessions: 3 }), 0)).toBe('the sessions that looped, most looping first:')
    expect(heading([session('a')], totals({ sessions: 3 }), 2)).toBe(
      'the 1 session that looped most, of 3 (--top N or --all for more):',
    )
    expect(render({ total: totals(), sessions: [], hidden: 0, advice: undefined })).toBe(
      [
        'total: 1 session, 0 with loops',
        '  0 tool calls, 0 tracked',
        '  identical runs: 0 (longest 0), cycles: 0',
        '  run lengths: none',
        '  tools that loop most: none',
        '  reminders: 0 in the logs, 0 with this config',
        '  withheld results: 0 in the logs, 0 with this config',
        '  cost of looping: 0 repeated calls carrying 0 characters of arguments and 0 of results; 0 model',
        '      responses using 0 input and 0 output tokens',
        '  did the reminders work: no reminder or withheld result in the logs',
        '',
      ].join('\n'),
    )
  })

  it('ten tools are listed whole; an eleventh is counted', () => {
    const tools = (n: number) => Array.from({ length: n }, (_, i) => ({ tool: `t${i}`, runs: 1, repeatedCalls: 1 }))
    expect(render({ total: totals({ tools: tools(10) }), sessions: [], hidden: 0, advice: undefined })).toContain(
      `(1 run, 1 repeated call)\n`,
    )
    expect(render({ total: totals({ tools: tools(10) }), sessions: [], hidden: 0, advice: undefined })).not.toContain(
      'more',
    )
    expect(render({ total: totals({ tools: tools(11) }), sessions: [], hidden: 0, advice: undefined })).toContain(
      't9 (1 run, 1 repeated call), and 1 more\n',
    )
  })

  it(
    'a session: its id, its parent, its file, its runs, cycles, reminders, ' +
      'and withheld results only when there are any',
    () => {
      const out = render({
        total: totals(),
        sessions: [
          session('child', { parentSession: 'parent', cycles: [{ tools: ['grep', 'read'], start: 2, length: 3 }] }),
        ],
        hidden: 0,
        advice: undefined,
      })
      expect(out).toContain(
        [
          'session child (subagent of parent)',
          '  /sessions/p/child/session.jsonl',
          '  3 tool calls, 3 tracked',
          '  identical runs: grep {} × 3 from call 1',
          '  cycle: grep → read × 3 from call 2',
          '  tools that loop most: grep (1 run, 2 repeated calls)',
          '  reminders in the log: none',
          '  reminders with this config: after call 3 (grep × 3)',
          '  cost of looping: 2 repeated calls carrying 4 characters of arguments and 10 of results; 2 model',
          '      responses using 900 input and 40 output tokens',
        ].join('\n'),
      )
      expect(
        render({
          total: totals(),
          sessions: [session('b', { recordedWithheld: [{ call: 4, denied: false, effect: 'repeated' }] })],
          hidden: 0,
          advice: undefined,
        }),
      ).toContain('  withheld in the log: calls 4 (then repeated)\n  withheld with this config: none\n')
      expect(
        render({
          total: totals(),
          sessions: [
            session('c', {
              recordedWithheld: [{ call: 4, denied: false, effect: 'repeated' }],
              configWithheld: [4, 5],
            }),
          ],
          hidden: 0,
          advice: undefined,
        }),
      ).toContain('  withheld in the log: calls 4 (then repeated)\n  withheld with this config: calls 4, 5\n')
      expect(
        render({
          total: totals(),
          sessions: [
            session('e', { recordedWithheld: [{ call: 4, denied: false, effect: 'repeated' }], configWithheld: [4] }),
          ],
          hidden: 0,
          advice: undefined,
        }),
      ).toContain('  withheld in the log: calls 4 (then repeated)\n  withheld with this config: calls 4\n')
      expect(
        render({
          total: totals({ recordedWithheld: 1, recordedDenied: 1, configWithheld: 2, configDenied: 1 }),
          sessions: [
            session('f', {
              recordedWithheld: [{ call: 4, denied: true, effect: 'changed' }],
              configWithheld: [4, 5],
              configDenied: [5],
            }),
          ],
          hidden: 0,
          advice: undefined,
        }),
      ).toContain(
        '  withheld in the log: calls 4 (not run, then changed)\n  withheld with this config: calls 4, 5 (not run)\n',
      )
      expect(
        render({
          total: totals({ recordedWithheld: 1, recordedDenied: 1, configWithheld: 2, configDenied: 1 }),
          sessions: [],
          hidden: 0,
          advice: undefined,
        }),
      ).toContain(
        '  withheld results: 1 in the logs (1 denied before running), 2 with this config (1 denied before\n' +
          '      running)\n',
      )
      expect(
        render({
          total: totals(),
          sessions: [
            session('d', {
              runs: [],
              recordedReminders: [
                { afterCall: 2, summary: 'a × 2', kind: 'short', effect: 'ended', repeatedResult: true },
              ],
            }),
          ],
          hidden: 0,
          advice: undefined,
        }),
      ).toContain(
        '  identical runs: none\n  tools that loop most: grep (1 run, 2 repeated ' +
          'calls)\n  reminders in the log: after call 2 (a × 2, then ended)\n',
      )
    },
  )
})

describe('the text report, bounded', () => {
  it("a session's lists show ten items, then how many more", () => {
    const runs = Array.from({ length: 12 }, (_, i) => ({
      tool: 'grep',
      arguments: `{"p":${i}}`,
      start: 2 * i + 1,
      length: 2,
    }))
    const cycles = Array.from({ length: 11 }, (_, i) => ({ tools: ['a', 'b'], start: i, length: 2 }))
    const reminders = Array.from({ length: 11 }, (_, i) => ({ afterCall: i + 2, summary: 'grep × 2' }))
    const out = render({
      total: totals(),
      sessions: [
        session('long', {
          runs,
          cycles,
          configReminders: reminders,
          configWithheld: Array.from({ length: 13 }, (_, i) => i + 1),
        }),
      ],
      hidden: 0,
      advice: undefined,
    })
    expect(out).toContain(
      '  identical runs: grep {"p":0} × 2 from call 1; grep {"p":1} × 2 from call 3; grep {"p":2} × 2 from\n' +
        '      call 5; grep {"p":3} × 2 from call 7; grep {"p":4} × 2 from call 9; grep {"p":5} × 2 from call\n' +
        '      11; grep {"p":6} × 2 from call 13; grep {"p":7} × 2 from call 15; grep {"p":8} × 2 from call\n' +
        '      17; grep {"p":9} × 2 from call 19; and 2 more\n',
    )
    expect(out.match(/ {2}cycle: /g)).toHaveLength(10)
    expect(out).toContain('  and 1 more cycle\n')
    expect(out).toContain(
      '  reminders with this config: after call 2 (grep × 2), after call 3 (grep × 2), after call 4 (grep ×\n' +
        '      2), after call 5 (grep × 2), after call 6 (grep × 2), after call 7 (grep × 2), after call 8\n' +
        '      (grep × 2), after call 9 (grep × 2), after call 10 (grep × 2), after call 11 (grep × 2), and 1\n' +
        '      more\n',
    )
    expect(out).toContain('  withheld with this config: calls 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, and 3 more\n')
  })

  it('exactly ten items are listed whole, with no "and 0 more"', () => {
    const runs = Array.from({ length: 10 }, (_, i) => ({
      tool: 'grep',
      arguments: `{"p":${i}}`,
      start: 2 * i + 1,
      length: 2,
    }))
    const cycles = Array.from({ length: 10 }, (_, i) => ({ tools: ['a', 'b'], start: i, length: 2 }))
    const out = render({ total: totals(), sessions: [session('ten', { runs, cycles })], hidden: 0, advice: undefined })
    expect(out.match(/ {2}cycle: /g)).toHaveLength(10)
    expect(out).toContain(
      '  identical runs: grep {"p":0} × 2 from call 1; grep {"p":1} × 2 from call 3; grep {"p":2} × 2 from\n' +
        '      call 5; grep {"p":3} × 2 from call 7; grep {"p":4} × 2 from call 9; grep {"p":5} × 2 from call\n' +
        '      11; grep {"p":6} × 2 from call 13; grep {"p":7} × 2 from call 15; grep {"p":8} × 2 from call\n' +
        '      17; grep {"p":9} × 2 from call 19\n',
    )
    expect(out).not.toContain('more')
  })

  it('the tools repeated past most: ten, most reminders first', () => {
    const repeatedPast = Array.from({ length: 11 }, (_, i) => ({ tool: `t${i}`, reminders: 20 - i }))
    const out = render({
      total: totals({
        recordedReminders: 1,
        effects: { ...totals().effects, short: { ...noEffects(), repeated: 1 } },
        repeatedPast,
      }),
      sessions: [],
      hidden: 0,
      advice: undefined,
    })
    expect(out).toContain(
      '    repeated past most often: t0 (20 reminders), t1 (19 reminders), t2 (18 reminders), t3 (17\n' +
        '        reminders), t4 (16 reminders), t5 (15 reminders), t6 (14 reminders), t7 (13 reminders), t8\n' +
        '        (12 reminders), t9 (11 reminders)\n',
    )
  })
})

describe('the text report: did the reminders work', () => {
  it('a row for every kind recorded, and "none" when the model never repeated past one', () => {
    const effects = effectsWith({ short: { ended: 1 }, cycle: { changed: 2 }, withheld: { ended: 1 } })
    // As many reminders as withheld results: the section is still there.
    const out = render({
      total: totals({ recordedReminders: 1, recordedWithheld: 1, effects }),
      sessions: [session('s', { configReminders: [] })],
      hidden: 0,
      advice: undefined,
    })
    expect(out).toContain(
      [
        '  did the reminders work (what the model did next):',
        '    short reminders (1): 0 repeated, 0 waited, 0 relapsed, 0 changed, 1 ended',
        '    cycle reminders (2): 0 repeated, 0 waited, 0 relapsed, 2 changed, 0 ended',
        '    withheld results (1): 0 repeated, 0 waited, 0 relapsed, 0 changed, 1 ended',
        '    repeated past most often: none',
        '',
      ].join('\n'),
    )
    expect(out).toContain('  reminders with this config: none\n')
  })

  it('the totals rank the tools repeated past by reminders, then by name', () => {
    const total = emptyTotals()
    const repeated = (summary: string) => ({
      afterCall: 3,
      summary,
      kind: 'short' as const,
      effect: 'repeated' as const,
      repeatedResult: true,
    })
    addToTotals(
      total,
      session('s', {
        recordedReminders: [repeated('b × 3'), repeated('a → c × 2'), repeated('c × 5'), repeated('a × 3')],
      }),
      [['b'], ['a', 'c'], ['c'], ['a']].map((tools) => ({ tools, detailed: false })),
    )
    expect(total.repeatedPast).toEqual([
      { tool: 'c', reminders: 2 },
      { tool: 'a', reminders: 1 },
      { tool: 'b', reminders: 1 },
    ])
  })

  it(
    'labeled episodes under --all: caught (after an early reminder too), ' +
      'missed (quiet or early), productive, unclear; an unknown latency',
    () => {
      const labels = readLabels(
        'l.jsonl',
        [
          { session: 's', first: 1, last: 4, label: 'stuck', from: 2 },
          { session: 's', first: 6, last: 9, label: 'busy-poll', from: 8 },
          { session: 's', first: 11, last: 12, label: 'stuck', from: 12 },
          { session: 's', first: 14, last: 15, label: 'stuck', from: 15 },
          { session: 's', first: 17, last: 18, label: 'productive', from: null },
          { session: 's', first: 20, last: 21, label: 'productive', from: null },
          { session: 's', first: 23, last: 24, label: 'unclear', from: null },
        ]
          .map((l) => JSON.stringify(l))
          .join('\n'),
      )
      const scorer = new Scorer(labels)
      scorer.add('s', 24, { reminders: [2, 7, 9, 11, 17, 23], withheld: [] })
      const text = render({
        total: totals(),
        sessions: [],
        hidden: 0,
        advice: undefined,
        labels: { file: 'l.jsonl', score: scorer.score(), episodes: scorer.episodes() },
        episodes: true,
      })
      expect(text).toContain(
        [
          '  s calls 1–4 stuck from 2: caught at 2, 2 calls saved',
          '  s calls 6–9 busy-poll from 8: caught at 9 (first reminder at 7, early), 0 calls saved',
          '  s calls 11–12 stuck from 12: missed, first reminder at 11 (early)',
          '  s calls 14–15 stuck from 15: missed',
          '  s calls 17–18 productive: reminder at 17 (wrong)',
          '  s calls 20–21 productive: no reminder',
          '  s calls 23–24 unclear: reminder at 23',
          '',
        ].join('\n'),
      )
      // The score opens after a blank line, and counts every label.
      expect(text).toContain(
        '\n\nscored on labeled loops (l.jsonl: 7 episodes; 3 stuck, 1 busy-poll, 2 productive, 1 unclear):\n',
      )
      const quiet = new Scorer(
        readLabels('l.jsonl', JSON.stringify({ session: 's', first: 1, last: 2, label: 'stuck', from: 2 })),
      )
      quiet.add('s', 2, { reminders: [], withheld: [] })
      // Without --all, the episodes are not listed.
      const summary = render({
        total: totals(),
        sessions: [],
        hidden: 0,
        advice: undefined,
        labels: { file: 'l.jsonl', score: quiet.score(), episodes: quiet.episodes() },
      })
      expect(summary).toContain('  wasted calls 1, of which a reminder could have saved 0 (0.00); latency – (median)\n')
      expect(summary).not.toContain('s calls 1–2')
      // No reminder was judged, so there is no precision: a dash, not a number.
      expect(summary).toContain(
        '  recall 0.00 (stuck 0 of 1, busy-poll 0 of 0), precision – (0 right, 0 wrong), F1 0.00\n',
      )
    },
  )
})

describe('the text report fits 100 columns', () => {
  it('a long line is cut at the last space that fits, its continuations indented four more', () => {
    expect(wrap('  aaa bbb ccc ddd', 10)).toEqual(['  aaa bbb', '      ccc', '      ddd'])
    expect(wrap('short', 10)).toEqual(['short'])
    expect(wrap('0123456789', 10)).toEqual(['0123456789'])
    // A continuation that fills the line exactly is not cut again.
    expect(wrap('aaaa bbbb ccccc', 9)).toEqual(['aaaa bbbb', '    ccccc'])
  })

  it('a word longer than a line (a path) is never cut: it stands whole on a line of its own', () => {
    expect(wrap('/a/very/long/path/without/spaces', 12)).toEqual(['/a/very/long/path/without/spaces'])
    expect(wrap('  /a/very/long/path', 10)).toEqual(['  /a/very/long/path'])
    expect(wrap('see /a/very/long/path here', 10)).toEqual(['see', '    /a/very/long/path', '    here'])
    expect(wrap('  /a/very/long/path here', 10)).toEqual(['  /a/very/long/path', '      here'])
  })

  it('numbers are grouped and nouns agree with them', () => {
    const out = render({
      total: totals({
        toolCalls: 1,
        trackedCalls: 1,
        cost: {
          ...emptyTotals().cost,
          calls: 1,
          argumentChars: 1,
          resultChars: 2_492_860,
          responses: 1,
          inputTokens: 1_234_567,
          outputTokens: 1_000,
        },
      }),
      sessions: [],
      hidden: 0,
      advice: undefined,
    })
    expect(out).toContain('  1 tool call, 1 tracked\n')
    expect(out).toContain(
      '  cost of looping: 1 repeated call carrying 1 character of arguments and 2,492,860 of results; 1\n' +
        '      model response using 1,234,567 input and 1,000 output tokens\n',
    )
    expect(out.split('\n').every((line) => line.length <= WIDTH)).toBe(true)
  })
})
