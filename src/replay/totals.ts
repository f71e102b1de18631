/**
 * What all sessions came to: totals that keep counts and short ranked lists,
 * not sessions, so memory stays flat however many are replayed. Pure: reports
 * in, numbers out.
 */
import { NOTICE_KINDS, type NoticeKind } from '../reminders.ts'
import { noEffects, type EffectCounts } from './effects.ts'
import type { LoopCost } from './cost.ts'
import { addLoops, byRepeatedCalls, type Report, type ToolLoops } from './report.ts'
import type { LoggedReminder } from './transcript.ts'

/** Which kind of recorded reminder or withheld result an effect followed. */
export type EffectKind = NoticeKind | 'withheld'

/** Every kind of recorded reminder, then withheld results: the order the report lists them in. */
export const EFFECT_KINDS: readonly EffectKind[] = [...NOTICE_KINDS, 'withheld']

/** Per tool: how many recorded reminders the model repeated the call past. */
interface RepeatedPast {
  tool: string
  reminders: number
}

/** What all sessions came to: counts, so memory stays flat however many there are. */
export interface Totals {
  sessions: number
  /** Sessions with at least one identical run or cycle. */
  sessionsWithLoops: number
  toolCalls: number
  trackedCalls: number
  runs: number
  longestRun: number
  cycles: number
  histogram: Record<string, number>
  /** Ranked: most repeated calls first. */
  tools: ToolLoops[]
  recordedReminders: number
  configReminders: number
  recordedWithheld: number
  /** Of the recorded withheld results, those of calls denied before they ran. */
  recordedDenied: number
  configWithheld: number
  /** Of the config's withheld results, those of calls it denies before they run. */
  configDenied: number
  /** The effects by kind of reminder, withheld results included. */
  effects: Record<EffectKind, EffectCounts>
  /** What followed the detailed reminders on calls whose result repeated: the evidence `--suggest` escalates on. */
  detailedOnRepeatedResults: EffectCounts
  /** Ranked: the tools whose calls were repeated right after a reminder most often. */
  repeatedPast: RepeatedPast[]
  /** The cost over the sessions whose tokens are known; `sessionsWithoutUsage` counts the others. */
  cost: Omit<LoopCost, 'inputTokens' | 'outputTokens'> & {
    inputTokens: number
    outputTokens: number
    sessionsWithoutUsage: number
  }
}

/** Totals before any session. */
export function emptyTotals(): Totals {
  return {
    sessions: 0,
    sessionsWithLoops: 0,
    toolCalls: 0,
    trackedCalls: 0,
    runs: 0,
    longestRun: 0,
    cycles: 0,
    histogram: {},
    tools: [],
    recordedReminders: 0,
    configReminders: 0,
    recordedWithheld: 0,
    recordedDenied: 0,
    configWithheld: 0,
    configDenied: 0,
    effects: Object.fromEntries(EFFECT_KINDS.map((kind) => [kind, noEffects()])) as Totals['effects'],
    detailedOnRepeatedResults: noEffects(),
    repeatedPast: [],
    cost: {
      calls: 0,
      argumentChars: 0,
      resultChars: 0,
      responses: 0,
      inputTokens: 0,
      outputTokens: 0,
      sessionsWithoutUsage: 0,
    },
  }
}

/** Whether a session looped at all: an identical run or a cycle. */
export function looped(report: Report): boolean {
  return report.runs.length > 0 || report.cycles.length > 0
}

/**
 * Add one session's report to the totals; the ranked lists stay ranked. `logged` are its recorded
 * reminders as the transcript read them, in the report's order: the tools each was about.
 */
export function addToTotals(
  total: Totals,
  s: Report,
  logged: readonly Pick<LoggedReminder, 'tools' | 'detailed'>[],
): void {
  total.sessions++
  if (looped(s)) total.sessionsWithLoops++
  total.toolCalls += s.toolCalls
  total.trackedCalls += s.trackedCalls
  total.runs += s.runs.length
  for (const run of s.runs) total.longestRun = Math.max(total.longestRun, run.length)
  total.cycles += s.cycles.length
  for (const [length, count] of Object.entries(s.histogram))
    total.histogram[length] = (total.histogram[length] ?? 0) + count
  for (const t of s.tools) addLoops(total.tools, t)
  total.tools.sort(byRepeatedCalls)
  total.recordedReminders += s.recordedReminders.length
  total.configReminders += s.configReminders.length
  total.recordedWithheld += s.recordedWithheld.length
  total.recordedDenied += s.recordedWithheld.filter((b) => b.denied).length
  total.configWithheld += s.configWithheld.length
  total.configDenied += s.configDenied.length
  s.recordedReminders.forEach((r, i) => {
    const { tools, detailed } = logged[i] as (typeof logged)[number]
    total.effects[r.kind][r.effect]++
    // The evidence for escalating: the detailed texts, of identical runs and of busy polls.
    if (detailed && (r.kind === 'detailed' || r.kind === 'poll') && r.repeatedResult)
      total.detailedOnRepeatedResults[r.effect]++
    if (r.effect === 'repeated') addRepeatedPast(total.repeatedPast, tools.at(-1) as string)
  })
  for (const b of s.recordedWithheld) {
    total.effects.withheld[b.effect]++
  }
  total.cost.calls += s.cost.calls
  total.cost.argumentChars += s.cost.argumentChars
  total.cost.resultChars += s.cost.resultChars
  if (s.cost.inputTokens === null || s.cost.outputTokens === null) {
    total.cost.sessionsWithoutUsage++
  } else {
    total.cost.responses += s.cost.responses
    total.cost.inputTokens += s.cost.inputTokens
    total.cost.outputTokens += s.cost.outputTokens
  }
}

/** Count a reminder the model repeated past for `tool`, the last it was about, keeping the list ranked. */
function addRepeatedPast(list: RepeatedPast[], tool: string): void {
  const known = list.find((t) => t.tool === tool)
  if (known === undefined) list.push({ tool, reminders: 1 })
  else known.reminders++
  list.sort((a, b) => b.reminders - a.reminders || a.tool.localeCompare(b.tool))
}
