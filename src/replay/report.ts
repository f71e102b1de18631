/**
 * One session's transcript through a fresh guard into a report of its runs,
 * cycles, reminders, withheld results, their effects and the cost of looping
 * (the totals over sessions are `totals.ts`'s). Pure: a transcript in,
 * numbers out, no files.
 */
import { drive } from './drive.ts'
import { argumentsPreview, sameJson } from '../arguments.ts'
import type { Config } from '../config.ts'
import { type Comparison, comparison } from '../compare.ts'
import { type Effect, effects } from './effects.ts'
import type { Marks } from './score.ts'
import type { Corrupt, Torn } from './reader.ts'
import { type NoticeKind, summary } from '../reminders.ts'
import type { LoggedCall, Transcript } from './transcript.ts'
import { Cost, type LoopCost } from './cost.ts'

/** One identical run of length 2 or more. */
interface RunReport {
  tool: string
  arguments: string
  /** The run's first call, counted 1-based among the session's tool calls. */
  start: number
  length: number
}

/** One repeating cycle of distinct calls that completed at least two repetitions. */
interface CycleReport {
  tools: string[]
  start: number
  length: number
}

/** Where a reminder stood: after the session's `afterCall`-th tool result. */
export interface ReminderReport {
  afterCall: number
  summary: string
}

/** A reminder the live guard gave, which text it was, and what the model did next. */
interface RecordedReminder extends ReminderReport {
  kind: NoticeKind
  effect: Effect
  /**
   * Whether the call it was about returned the same result as the identical call before it (dsh's
   * locators masked): a loop, not progress.
   */
  repeatedResult: boolean
}

/**
 * A result the live guard withheld (the session's `call`-th), whether it denied the call before it
 * ran, and what the model did next.
 */
interface RecordedWithheld {
  call: number
  denied: boolean
  effect: Effect
}

/** Per tool: how many runs it looped in and how many calls those runs repeated. */
export interface ToolLoops {
  tool: string
  runs: number
  repeatedCalls: number
}

/** What one session came to. */
export interface Report {
  toolCalls: number
  trackedCalls: number
  runs: RunReport[]
  cycles: CycleReport[]
  /** Identical runs by length: `{ "2": 3 }` is three runs of two calls. */
  histogram: Record<string, number>
  tools: ToolLoops[]
  /** Reminders from repeat-tool-reminder found in the log, as the live guard attached them, with their effect. */
  recordedReminders: RecordedReminder[]
  /** Reminders the given config produces on the same calls. */
  configReminders: ReminderReport[]
  /** Calls whose results the live guard withheld, as the log records them, with their effect. */
  recordedWithheld: RecordedWithheld[]
  /** Calls whose results the given config withholds (`blockAt`). */
  configWithheld: number[]
  /** Of those, the calls it denies before they run: they would not run at all. */
  configDenied: number[]
  cost: LoopCost
}

/** One session's report, with where its log lives. */
export interface SessionReport extends Report {
  file: string
  id: string
  parentSession?: string
  /** A torn log: how many of its bytes held the calls replayed, of how many. */
  torn?: Torn
  /** A corrupt plain log: the lines that could not be read; the calls of the lines around them were replayed. */
  corrupt?: Corrupt
}

/** Where a report's reminders and withheld results stand, as labels are scored. */
export function marks(r: Pick<Report, 'configReminders' | 'configWithheld'>): Marks {
  return { reminders: r.configReminders.map((m) => m.afterCall), withheld: r.configWithheld }
}

/** The session's report under `config`. */
export function report(transcript: Transcript, config: Config): Report {
  const compared = comparison(config)
  const result = empty(transcript, compared)
  const tracked: { at: number; call: LoggedCall }[] = []
  const cost = new Cost(transcript)
  const { ignored } = compared
  let run: RunReport | undefined
  let cycle: CycleReport | undefined
  result.trackedCalls = drive(transcript, config, (call, at, seen) => {
    tracked.push({ at, call })
    if (seen.inARow === 1) {
      close(result, run)
      // Quoted as compared, as a reminder quotes them: the ignored arguments left out.
      run = {
        tool: call.tool,
        arguments: argumentsPreview(call.args, config.argumentsPreviewChars, ignored(call.tool)),
        start: at,
        length: 1,
      }
    } else {
      run!.length = seen.inARow
      cost.add(call)
    }
    const tools = seen.cycle?.calls.map((c) => c.tool)
    if (cycle !== undefined && (tools === undefined || !sameJson(tools, cycle.tools))) {
      result.cycles.push(cycle)
      cycle = undefined
    }
    if (tools !== undefined) {
      if (cycle === undefined) {
        // First seen when its second repetition completes: that repetition's calls are the first repeated ones.
        for (const earlier of tracked.slice(-tools.length, -1)) cost.add(earlier.call)
        cycle = { tools, start: tracked.at(-2 * tools.length)!.at, length: 2 }
      }
      cycle.length = seen.cycle!.length
      cost.add(call)
    }
    if (seen.reminded !== undefined) result.configReminders.push({ afterCall: at, summary: summary(seen.reminded) })
    if (seen.withheld !== undefined) {
      result.configWithheld.push(at)
      if (seen.deniable) result.configDenied.push(at)
    }
  })
  close(result, run)
  if (cycle !== undefined) result.cycles.push(cycle)
  result.tools.sort(byRepeatedCalls)
  result.cost = cost.total()
  return result
}

/** Add a finished identical run to the session's report, when it repeated at all. */
function close(session: Report, run: RunReport | undefined): void {
  if (run === undefined || run.length < 2) return
  session.runs.push(run)
  session.histogram[run.length] = (session.histogram[run.length] ?? 0) + 1
  addLoops(session.tools, { tool: run.tool, runs: 1, repeatedCalls: run.length - 1 })
}

/** Add one tool's loops to a list of per-tool tallies. */
export function addLoops(tools: ToolLoops[], loops: ToolLoops): void {
  const known = tools.find((t) => t.tool === loops.tool)
  if (known === undefined) tools.push({ ...loops })
  else {
    known.runs += loops.runs
    known.repeatedCalls += loops.repeatedCalls
  }
}

/** The order tools are ranked in: most repeated calls first, then by name. */
export function byRepeatedCalls(a: ToolLoops, b: ToolLoops): number {
  return b.repeatedCalls - a.repeatedCalls || a.tool.localeCompare(b.tool)
}

/** The report before any call is replayed: the recorded reminders and blocks with their effects. */
function empty(transcript: Transcript, compared: Comparison): Report {
  const followed = effects(transcript, compared)
  const denied = new Set(transcript.denied)
  return {
    toolCalls: transcript.calls,
    trackedCalls: 0,
    runs: [],
    cycles: [],
    histogram: {},
    tools: [],
    recordedReminders: followed.reminders,
    configReminders: [],
    recordedWithheld: followed.withheld.map(({ call, effect }) => ({ call, denied: denied.has(call), effect })),
    configWithheld: [],
    configDenied: [],
    cost: { calls: 0, argumentChars: 0, resultChars: 0, responses: 0, inputTokens: 0, outputTokens: 0 },
  }
}
