/**
 * The replay report as text a person reads: totals and advice first, then the
 * sessions that looped most. Every text taken from a log is printed escaped,
 * so no id, tool name or argument can fake a line or steer the terminal.
 */
import { preview } from '../arguments.ts'
import { EFFECTS, effectCount } from './effects.ts'
import type { LoopCost } from './cost.ts'
import type { ReminderReport, Report, SessionReport } from './report.ts'
import { EFFECT_KINDS, type Totals } from './totals.ts'
import type { EpisodeScore, Score } from './score.ts'
import { advice } from './advice.ts'
import type { Advice } from './suggest.ts'
import { WIDTH, wrap } from '../wrap.ts'
import { count, grouped, printable, ratio } from './text.ts'

/** The widest bar of the run-length chart, in characters. */
const BAR = 40

/**
 * The most characters of a run's canonical arguments the text report quotes (the JSON has
 * `argumentsPreviewChars` of them).
 */
const QUOTED = 60

/** The most items a list on one line of a session's detail shows before "and N more". */
const LISTED = 10

/** What the text report shows. */
export interface Shown {
  total: Totals
  /** The sessions to detail, in order. */
  sessions: SessionReport[]
  /** How many sessions looped but are not detailed (`--top`). */
  hidden: number
  advice: Advice | undefined
  /** With `--labels`: the config's score on the labeled loops, and every episode's. */
  labels?: { file: string; rereads?: string; score: Score; episodes: EpisodeScore[] } | undefined
  /** Whether to list every labeled episode (`--all`). */
  episodes?: boolean
}

/** The whole text report. */
export function render(
  { total, sessions, hidden, advice: suggested, labels, episodes = false }: Shown,
  width = WIDTH,
): string {
  const lines = [
    `total: ${count(total.sessions, 'session')}, ${grouped(total.sessionsWithLoops)} with loops`,
    `  ${count(total.toolCalls, 'tool call')}, ${grouped(total.trackedCalls)} tracked`,
    `  identical runs: ${grouped(total.runs)} (longest ${grouped(total.longestRun)}), cycles: ${grouped(total.cycles)}`,
    ...chart(total.histogram),
    `  tools that loop most: ${tools(total)}`,
    `  reminders: ${grouped(total.recordedReminders)} in the logs, ${grouped(total.configReminders)} with this config`,
    `  withheld results: ${grouped(total.recordedWithheld)} in the logs${denied(total.recordedDenied)}, ` +
      `${grouped(total.configWithheld)} with this config${denied(total.configDenied)}`,
    cost(total),
    ...effects(total),
  ]
  // Appended one by one: a list of a hundred thousand episodes is no argument list.
  if (labels !== undefined) {
    lines.push('', ...scoreLines(labels.file, labels.score, labels.rereads))
    if (episodes) for (const e of labels.episodes) lines.push(episodeLine(e))
  }
  if (suggested !== undefined) lines.push('', ...advice(suggested))
  if (sessions.length > 0) {
    lines.push(
      '',
      hidden > 0
        ? `the ${count(sessions.length, 'session')} that looped most, of ${sessions.length + hidden} ` +
            `(--top N or --all for more):`
        : `${sessions.length === total.sessions ? 'every session' : 'the sessions that looped'}, most looping first:`,
    )
  }
  for (const s of sessions) {
    lines.push(
      '',
      `session ${printable(s.id)}${s.parentSession ? ` (subagent of ${printable(s.parentSession)})` : ''}`,
      `  ${printable(s.file)}`,
      ...sessionLines(s),
    )
  }
  return `${lines.flatMap((line) => wrap(line, width)).join('\n')}\n`
}

function sessionLines(r: Report): string[] {
  const notRun = new Set(r.configDenied)
  const reminder = (m: ReminderReport & { effect?: string }) =>
    `after call ${m.afterCall} (${printable(m.summary)}${m.effect === undefined ? '' : `, then ${m.effect}`})`
  const withheld = (list: string[]) => (list.length === 0 ? 'none' : `calls ${listed(list, ', ')}`)
  const reminders = (list: (ReminderReport & { effect?: string })[]) =>
    list.length === 0 ? 'none' : listed(list.map(reminder), ', ')
  const recordedWithheld = r.recordedWithheld.map((b) => `${b.call} (${b.denied ? 'not run, ' : ''}then ${b.effect})`)
  const configWithheld = r.configWithheld.map((call) => (notRun.has(call) ? `${call} (not run)` : String(call)))
  return [
    `  ${count(r.toolCalls, 'tool call')}, ${grouped(r.trackedCalls)} tracked`,
    `  identical runs: ${
      r.runs.length === 0
        ? 'none'
        : listed(
            r.runs.map(
              (run) =>
                `${printable(run.tool)} ${printable(preview(run.arguments, QUOTED))} ` +
                `× ${run.length} from call ${run.start}`,
            ),
            '; ',
          )
    }`,
    ...r.cycles
      .slice(0, LISTED)
      .map((c) => `  cycle: ${c.tools.map(printable).join(' → ')} × ${c.length} from call ${c.start}`),
    ...(r.cycles.length > LISTED ? [`  and ${count(r.cycles.length - LISTED, 'more cycle')}`] : []),
    `  tools that loop most: ${tools(r)}`,
    `  reminders in the log: ${reminders(r.recordedReminders)}`,
    `  reminders with this config: ${reminders(r.configReminders)}`,
    ...(r.recordedWithheld.length + r.configWithheld.length === 0
      ? []
      : [
          `  withheld in the log: ${withheld(recordedWithheld)}`,
          `  withheld with this config: ${withheld(configWithheld)}`,
        ]),
    cost(r),
  ]
}

/**
 * How many of the withheld results were of calls denied before they ran, when any were: those calls
 * did not run at all.
 */
function denied(n: number): string {
  return n === 0 ? '' : ` (${n} denied before running)`
}

/** The first {@link LISTED} items joined, then how many more there are. */
function listed(items: string[], separator: string): string {
  const more = items.length > LISTED ? `${separator}and ${items.length - LISTED} more` : ''
  return `${items.slice(0, LISTED).join(separator)}${more}`
}

/**
 * "Did the reminders work": per kind of recorded reminder, what followed; and the tools repeated
 * past reminders most.
 */
function effects(total: Totals): string[] {
  if (total.recordedReminders + total.recordedWithheld === 0)
    return ['  did the reminders work: no reminder or withheld result in the logs']
  const rows = EFFECT_KINDS.filter((kind) => effectCount(total.effects[kind]) > 0).map((kind) => {
    const counts = total.effects[kind]
    const title = kind === 'withheld' ? 'withheld results' : `${kind} reminders`
    return `    ${title} (${effectCount(counts)}): ${EFFECTS.map((e) => `${counts[e]} ${e}`).join(', ')}`
  })
  const past = total.repeatedPast
    .slice(0, LISTED)
    .map((t) => `${printable(t.tool)} (${count(t.reminders, 'reminder')})`)
  return [
    '  did the reminders work (what the model did next):',
    ...rows,
    `    repeated past most often: ${past.length === 0 ? 'none' : past.join(', ')}`,
  ]
}

/** Run lengths as a bar chart, one row per length. */
function chart(histogram: Record<string, number>): string[] {
  // Integer keys enumerate in ascending order: the rows come sorted by length.
  const rows = Object.entries(histogram).map(([length, n]) => [length, n] as const)
  if (rows.length === 0) return ['  run lengths: none']
  const most = Math.max(...rows.map(([, n]) => n))
  const width = Math.max(...rows.map(([length]) => length.length))
  return [
    '  run lengths (calls in a run: runs):',
    ...rows.map(
      ([length, n]) =>
        `    ${String(length).padStart(width)} │${'█'.repeat(Math.max(1, Math.round((n / most) * BAR)))} ${n}`,
    ),
  ]
}

function tools(r: { tools: Report['tools'] }): string {
  const list = r.tools.map(
    (t) => `${printable(t.tool)} (${count(t.runs, 'run')}, ${count(t.repeatedCalls, 'repeated call')})`,
  )
  return list.length === 0 ? 'none' : listed(list, ', ')
}

function cost(r: { cost: Report['cost'] | Totals['cost'] }): string {
  const { responses, inputTokens, outputTokens } = r.cost
  const unknown = 'sessionsWithoutUsage' in r.cost ? r.cost.sessionsWithoutUsage : 0
  if (inputTokens === null || outputTokens === null) return `${spent(r.cost)}; token usage not recorded in the log`
  const known =
    `${count(responses, 'model response')} using ${grouped(inputTokens)} ` +
    `input and ${grouped(outputTokens)} output tokens`
  const tokens =
    unknown === 0
      ? known
      : `${responses > 0 ? `${known}; ` : ''}token usage not recorded in ${count(unknown, 'session')}`
  return `${spent(r.cost)}; ${tokens}`
}

/** What the repeated calls of the loops carried. */
function spent({ calls, argumentChars, resultChars }: LoopCost): string {
  return (
    `  cost of looping: ${count(calls, 'repeated call')} carrying ${count(argumentChars, 'character')} ` +
    `of arguments and ${grouped(resultChars)} of results`
  )
}

/** A config's score on labeled loops, as the shared loop benchmark defines it. */
function scoreLines(file: string, s: Score, rereadsFile: string | undefined): string[] {
  const { episodes, caught, rereads } = s
  const labeled = episodes.stuck + episodes['busy-poll'] + episodes.productive + episodes.unclear
  const more =
    rereadsFile === undefined
      ? []
      : [
          `  with the rereads (${printable(rereadsFile)}: ${rereads.episodes.stuck} ` +
            `stuck, ${rereads.episodes.productive} productive, ${rereads.episodes.unclear} ` +
            `unclear) judged for precision too; reread recall ${ratio(rereads.recall)} ` +
            `(stuck ${rereads.caught} of ${rereads.episodes.stuck})`,
        ]
  return [
    `scored on labeled loops (${printable(file)}: ${count(labeled, 'episode')}; ` +
      `${episodes.stuck} stuck, ${episodes['busy-poll']} busy-poll, ${episodes.productive} ` +
      `productive, ${episodes.unclear} unclear):`,
    `  recall ${ratio(s.recall.overall)} (stuck ${caught.stuck} of ${episodes.stuck}, ` +
      `busy-poll ${caught['busy-poll']} of ${episodes['busy-poll']}), precision ` +
      `${ratio(s.precision)} (${s.right} right, ${s.wrong} wrong), F1 ${ratio(s.f1)}`,
    `  wasted calls ${s.wasted}, of which a reminder could have saved ${s.saved} ` +
      `(${ratio(s.shareOfWasted)}); latency ${s.latency === null ? '–' : count(s.latency, 'call')} (median)`,
    ...more,
  ]
}

/** One labeled episode under `--all`: where it is, and what the config's reminders did there. */
function episodeLine(e: EpisodeScore): string {
  const from = e.from === null ? '' : ` from ${e.from}`
  const where = `  ${printable(e.session)} calls ${e.first}–${e.last} ${e.label}${from}: `
  if (e.caughtAt !== null) {
    const early = e.firstReminder! < e.caughtAt ? ` (first reminder at ${e.firstReminder}, early)` : ''
    return `${where}caught at ${e.caughtAt}${early}, ${count(e.saved, 'call')} saved`
  }
  if (e.from !== null)
    return `${where}missed${e.firstReminder === null ? '' : `, first reminder at ${e.firstReminder} (early)`}`
  if (e.firstReminder === null) return `${where}no reminder`
  return `${where}reminder at ${e.firstReminder}${e.label === 'productive' ? ' (wrong)' : ''}`
}
