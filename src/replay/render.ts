/**
 * The replay report as text a person reads: totals and advice first, then the
 * sessions that looped most. Every text taken from a log is printed escaped,
 * so no id, tool name or argument can fake a line or steer the terminal.
 */
import { Config } from '../config.ts'
import type { ReminderReport, Report, SessionReport, Totals } from './report.ts'
import { patchSnippet, type Suggestion } from './suggest.ts'

/** The widest bar of the run-length chart, in characters. */
const BAR = 40

/** What the text report shows. */
export interface Shown {
  total: Totals
  /** The sessions to detail, in order. */
  sessions: SessionReport[]
  /** How many sessions looped but are not detailed (`--top`). */
  hidden: number
  suggestions: Suggestion[] | undefined
}

/** The whole text report. */
export function render({ total, sessions, hidden, suggestions }: Shown): string {
  const lines = [
    `total: ${count(total.sessions, 'session')}, ${total.sessionsWithLoops} with loops`,
    `  ${total.toolCalls} tool calls, ${total.trackedCalls} tracked`,
    `  identical runs: ${total.runs} (longest ${total.longestRun}), cycles: ${total.cycles}`,
    ...chart(total.histogram),
    `  tools that loop most: ${tools(total)}`,
    `  reminders: ${total.recordedReminders} in the logs, ${total.configReminders} with this config`,
    `  blocks: ${total.recordedBlocks} in the logs, ${total.configBlocks} with this config`,
    cost(total),
  ]
  if (suggestions !== undefined) lines.push('', ...advice(suggestions))
  if (sessions.length > 0) {
    lines.push('', hidden > 0
      ? `the ${count(sessions.length, 'session')} that looped most, of ${sessions.length + hidden} (--top N or --all for more):`
      : `${sessions.length === total.sessions ? 'every session' : 'the sessions that looped'}, most looping first:`)
  }
  for (const s of sessions) {
    lines.push('', `session ${printable(s.id)}${s.parentSession ? ` (subagent of ${printable(s.parentSession)})` : ''}`, `  ${printable(s.file)}`, ...sessionLines(s))
  }
  return `${lines.join('\n')}\n`
}

/** Escape what a log could use to fake output: control characters (C0, DEL, C1) and line separators. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function sessionLines(r: Report): string[] {
  const reminders = (list: ReminderReport[]) => list.length === 0 ? 'none' : list.map((m) => `after call ${m.afterCall} (${printable(m.summary)})`).join(', ')
  const blocks = (list: number[]) => list.length === 0 ? 'none' : `calls ${list.join(', ')}`
  return [
    `  ${r.toolCalls} tool calls, ${r.trackedCalls} tracked`,
    `  identical runs: ${r.runs.length === 0 ? 'none' : r.runs.map((run) => `${printable(run.tool)} ${printable(run.arguments)} × ${run.length} from call ${run.start}`).join('; ')}`,
    ...r.cycles.map((c) => `  cycle: ${c.tools.map(printable).join(' → ')} × ${c.repetitions} from call ${c.start}`),
    `  tools that loop most: ${tools(r)}`,
    `  reminders in the log: ${reminders(r.recordedReminders)}`,
    `  reminders with this config: ${reminders(r.configReminders)}`,
    ...r.recordedBlocks.length + r.configBlocks.length === 0 ? [] : [
      `  blocks in the log: ${blocks(r.recordedBlocks)}`,
      `  blocks with this config: ${blocks(r.configBlocks)}`,
    ],
    cost(r),
  ]
}

/** Run lengths as a bar chart, one row per length. */
function chart(histogram: Record<string, number>): string[] {
  // Integer keys enumerate in ascending order: the rows come sorted by length.
  const rows = Object.entries(histogram).map(([length, n]) => [length, n] as const)
  if (rows.length === 0) return ['  run lengths: none']
  const most = Math.max(...rows.map(([, n]) => n))
  const width = rows.at(-1)![0].length
  return ['  run lengths (calls in a run: runs):', ...rows.map(([length, n]) => `    ${String(length).padStart(width)} │${'█'.repeat(Math.max(1, Math.round(n / most * BAR)))} ${n}`)]
}

function tools(r: { tools: Report['tools'] }): string {
  const list = r.tools.slice(0, 10).map((t) => `${printable(t.tool)} (${count(t.runs, 'run')}, ${count(t.repeatedCalls, 'repeated call')})`)
  return list.length === 0 ? 'none' : `${list.join(', ')}${r.tools.length > 10 ? `, and ${r.tools.length - 10} more` : ''}`
}

function cost(r: { cost: Report['cost'] }): string {
  return `  cost of looping: ${r.cost.calls} repeated calls carrying ${r.cost.argumentChars} characters of arguments and ${r.cost.resultChars} of results`
}

/** The `--suggest` table, what it recommends and why, and the patch to paste. */
function advice(suggestions: Suggestion[]): string[] {
  const header = ['config', 'reminders', 'on repeated results', 'on changed results', 'loop calls unreminded', 'blocks']
  const rows = suggestions.map((s) => [
    `${s.recommended ? '* ' : '  '}${printable(s.label)}`,
    ...[s.reminders, s.onRepeatedResults, s.onChangedResults, s.unremindedLoopCalls, s.blocks].map(String),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) => `  ${cells.map((c, i) => i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)).join('  ')}`.trimEnd()
  const chosen = suggestions.find((s) => s.recommended)!
  const why = chosen.baseline
    ? 'keep the config given: no candidate drops reminders on changed results while keeping every one on repeated results'
    : `${printable(chosen.label)}: fewest reminders on calls whose result changed (likely progress), keeping every one on calls whose result repeated`
  return [
    'advice (--suggest): where each config\'s reminders land',
    line(header),
    ...rows.map(line),
    '',
    `recommended (*): ${why}`,
    ...patchSnippet(chosen.config, Config({})).split('\n').map((l) => `  ${printable(l)}`),
  ]
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
