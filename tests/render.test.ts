import { describe, expect, it } from 'vitest'
import { printable, render } from '../src/replay/render.ts'
import { emptyTotals, type SessionReport, type Totals } from '../src/replay/report.ts'

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
  recordedBlocks: [],
  configBlocks: [],
  cost: { calls: 2, argumentChars: 4, resultChars: 10 },
  ...extra,
})

const totals = (extra: Partial<Totals> = {}): Totals => ({ ...emptyTotals(), sessions: 1, ...extra })

describe('the text report', () => {
  it('escapes every control character and line separator, and nothing else', () => {
    expect(printable('a\u0000b\u001f\u0020~\u007e\u007f\u0080\u009f\u00a0é\u2027\u2028\u2029\u202a\n\r\t\x1b[31m'))
      .toBe('a\\u0000b\\u001f ~~\\u007f\\u0080\\u009f\u00a0é\u2027\\u2028\\u2029\u202a\\u000a\\u000d\\u0009\\u001b[31m')
  })

  it('draws run lengths as bars scaled to the most common length, one block at least, lengths right-aligned', () => {
    const out = render({ total: totals({ histogram: { 2: 40, 10: 20, 3: 1, 100: 2 } }), sessions: [], hidden: 0, suggestions: undefined })
    expect(out).toContain([
      '  run lengths (calls in a run: runs):',
      `      2 │${'█'.repeat(40)} 40`,
      `      3 │█ 1`,
      `     10 │${'█'.repeat(20)} 20`,
      `    100 │${'█'.repeat(2)} 2`,
    ].join('\n'))
  })

  it('counts in words: one session, two sessions, one run, one repeated call', () => {
    const one = render({ total: totals({ tools: [{ tool: 'grep', runs: 1, repeatedCalls: 1 }] }), sessions: [], hidden: 0, suggestions: undefined })
    expect(one).toMatch(/^total: 1 session, 0 with loops\n/)
    expect(one).toContain('  tools that loop most: grep (1 run, 1 repeated call)\n')
    const two = render({ total: totals({ sessions: 2, tools: [{ tool: 'grep', runs: 2, repeatedCalls: 3 }] }), sessions: [], hidden: 0, suggestions: undefined })
    expect(two).toMatch(/^total: 2 sessions, 0 with loops\n/)
    expect(two).toContain('  tools that loop most: grep (2 runs, 3 repeated calls)\n')
  })

  it('says which sessions it details: all of them, the ones that looped, or the top N of how many', () => {
    const heading = (sessions: SessionReport[], total: Totals, hidden: number) => render({ total, sessions, hidden, suggestions: undefined }).split('\n').find((line) => line.endsWith(':') && !line.startsWith(' '))
    expect(heading([session('a')], totals({ sessions: 1 }), 0)).toBe('every session, most looping first:')
    expect(heading([session('a')], totals({ sessions: 3 }), 0)).toBe('the sessions that looped, most looping first:')
    expect(heading([session('a')], totals({ sessions: 3 }), 2)).toBe('the 1 session that looped most, of 3 (--top N or --all for more):')
    expect(render({ total: totals(), sessions: [], hidden: 0, suggestions: undefined })).toBe([
      'total: 1 session, 0 with loops',
      '  0 tool calls, 0 tracked',
      '  identical runs: 0 (longest 0), cycles: 0',
      '  run lengths: none',
      '  tools that loop most: none',
      '  reminders: 0 in the logs, 0 with this config',
      '  blocks: 0 in the logs, 0 with this config',
      '  cost of looping: 0 repeated calls carrying 0 characters of arguments and 0 of results',
      '',
    ].join('\n'))
  })

  it('ten tools are listed whole; an eleventh is counted', () => {
    const tools = (n: number) => Array.from({ length: n }, (_, i) => ({ tool: `t${i}`, runs: 1, repeatedCalls: 1 }))
    expect(render({ total: totals({ tools: tools(10) }), sessions: [], hidden: 0, suggestions: undefined })).toContain(`(1 run, 1 repeated call)\n`)
    expect(render({ total: totals({ tools: tools(10) }), sessions: [], hidden: 0, suggestions: undefined })).not.toContain('more')
    expect(render({ total: totals({ tools: tools(11) }), sessions: [], hidden: 0, suggestions: undefined })).toContain('t9 (1 run, 1 repeated call), and 1 more\n')
  })

  it('a session: its id, its parent, its file, its runs, cycles, reminders, and blocks only when there are any', () => {
    const out = render({ total: totals(), sessions: [session('child', { parentSession: 'parent', cycles: [{ tools: ['grep', 'read'], start: 2, repetitions: 3 }] })], hidden: 0, suggestions: undefined })
    expect(out).toContain([
      'session child (subagent of parent)',
      '  /sessions/p/child/session.jsonl',
      '  3 tool calls, 3 tracked',
      '  identical runs: grep {} × 3 from call 1',
      '  cycle: grep → read × 3 from call 2',
      '  tools that loop most: grep (1 run, 2 repeated calls)',
      '  reminders in the log: none',
      '  reminders with this config: after call 3 (grep × 3)',
      '  cost of looping: 2 repeated calls carrying 4 characters of arguments and 10 of results',
    ].join('\n'))
    expect(render({ total: totals(), sessions: [session('b', { recordedBlocks: [4] })], hidden: 0, suggestions: undefined }))
      .toContain('  blocks in the log: calls 4\n  blocks with this config: none\n')
    expect(render({ total: totals(), sessions: [session('c', { recordedBlocks: [4], configBlocks: [4, 5] })], hidden: 0, suggestions: undefined }))
      .toContain('  blocks in the log: calls 4\n  blocks with this config: calls 4, 5\n')
    expect(render({ total: totals(), sessions: [session('e', { recordedBlocks: [4], configBlocks: [4] })], hidden: 0, suggestions: undefined }))
      .toContain('  blocks in the log: calls 4\n  blocks with this config: calls 4\n')
    expect(render({ total: totals(), sessions: [session('d', { runs: [], recordedReminders: [{ afterCall: 2, summary: 'a × 2' }] })], hidden: 0, suggestions: undefined }))
      .toContain('  identical runs: none\n  tools that loop most: grep (1 run, 2 repeated calls)\n  reminders in the log: after call 2 (a × 2)\n')
  })
})
