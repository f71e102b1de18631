/**
 * The replay report as text a person reads.
 */
import type { Report, ReminderReport, SessionReport } from './report.ts'

/** The whole report: each session, then the totals. */
export function render(sessions: SessionReport[], total: Report): string {
  const lines: string[] = []
  for (const s of sessions) {
    lines.push(`session ${s.id}${s.parentSession ? ` (subagent of ${s.parentSession})` : ''}`, `  ${s.file}`, ...sessionLines(s), '')
  }
  lines.push(`total: ${sessions.length} session${sessions.length === 1 ? '' : 's'}`, ...totalLines(total))
  return `${lines.join('\n')}\n`
}

function sessionLines(r: Report): string[] {
  const reminders = (list: ReminderReport[]) => list.length === 0 ? 'none' : list.map((m) => `after call ${m.afterCall} (${m.summary})`).join(', ')
  return [
    calls(r),
    `  identical runs: ${r.runs.length === 0 ? 'none' : r.runs.map((run) => `${run.tool} ${run.arguments} × ${run.length} from call ${run.start}`).join('; ')}`,
    ...r.cycles.map((c) => `  cycle: ${c.tools.join(' → ')} × ${c.repetitions} from call ${c.start}`),
    ...loops(r),
    `  reminders in the log: ${reminders(r.recordedReminders)}`,
    `  reminders with this config: ${reminders(r.configReminders)}`,
    ...r.configBlocks.length === 0 ? [] : [`  results this config withholds: calls ${r.configBlocks.join(', ')}`],
    cost(r),
  ]
}

function totalLines(r: Report): string[] {
  return [
    calls(r),
    `  identical runs: ${r.runs.length} (longest ${Math.max(0, ...r.runs.map((run) => run.length))}), cycles: ${r.cycles.length}`,
    ...loops(r),
    `  reminders: ${r.recordedReminders.length} in the logs, ${r.configReminders.length} with this config; results this config withholds: ${r.configBlocks.length}`,
    cost(r),
  ]
}

function calls(r: Report): string {
  return `  ${r.toolCalls} tool calls, ${r.trackedCalls} tracked`
}

function loops(r: Report): string[] {
  const histogram = Object.entries(r.histogram).map(([length, count]) => `${length}: ${count}`).join(', ')
  const tools = r.tools.map((t) => `${t.tool} (${t.runs} run${t.runs === 1 ? '' : 's'}, ${t.repeatedCalls} repeated call${t.repeatedCalls === 1 ? '' : 's'})`)
  return [`  run lengths: ${histogram === '' ? 'none' : histogram}`, `  tools that loop most: ${tools.length === 0 ? 'none' : tools.join(', ')}`]
}

function cost(r: Report): string {
  return `  cost of looping: ${r.cost.calls} repeated calls carrying ${r.cost.argumentChars} characters of arguments and ${r.cost.resultChars} of results`
}
