/**
 * How one `--suggest` candidate fares on one session: its reminders split by
 * what the model was seeing (a result that repeated, or one that changed:
 * likely progress), the loops it leaves unreminded, the baseline's loops it
 * keeps and loses, and with labels its score.
 */
import type { Candidate } from './candidates.ts'
import { drive } from './drive.ts'
import type { Score, Scorer } from './score.ts'
import type { LoggedCall, Transcript } from './transcript.ts'
import type { Config } from '../config.ts'

/** How one config fares on the sessions. */
export interface Tally {
  reminders: number
  /** Calls whose result the config withholds (`blockAt`). */
  withheld: number
  /** Of the withheld, the calls denied before they run: they would not run at all. */
  denied: number
  /**
   * Reminders attached to a call whose result was the same as the previous identical call's, with
   * every call between repeating its own: the model was seeing no new output.
   */
  onRepeatedResults: number
  /**
   * The other reminders: the call's result differed from the previous identical call's, or a call
   * between returned something new.
   */
  onChangedResults: number
  /** Calls that repeated the call before them, result included, and got no reminder. */
  unremindedLoopCalls: number
  /**
   * The loops the baseline reminded (stretches of calls each repeating the one before) that this
   * config reminds too.
   */
  baselineLoopsKept: number
  /** The loops the baseline reminded on a call whose result repeated that this config leaves without a reminder. */
  baselineRepeatedLoopsLost: number
}

/** One config under comparison, with how it fared. */
export interface Suggestion extends Candidate, Tally {
  /** With labels: how its reminders score on the labeled loops. */
  score?: Score
  recommended?: true
}

/** A candidate scored on labels. */
export type Scored = Suggestion & { score: Score }

/** Whether every candidate was scored on labels: all are when labels were given, and none otherwise. */
export function scored<S extends Suggestion>(suggestions: S[]): suggestions is (S & Scored)[] {
  return suggestions.every((s) => s.score !== undefined)
}

/**
 * The loops a config reminded in one session, each named by the call its stretch starts at; and
 * those where a reminded call's result repeated.
 */
export interface RemindedLoops {
  loops: ReadonlySet<number>
  repeated: ReadonlySet<number>
}

/**
 * What a candidate's tally on a session is set against: the loops the baseline reminded there, and
 * the session's labels to score on.
 */
interface Against {
  baseline: RemindedLoops
  scorer?: { id: string; scorer: Scorer } | undefined
}

/**
 * How `config` fares on one session: its reminders split by what the model
 * was seeing, the loop calls it leaves unreminded, the baseline's loops it
 * keeps and loses, and (with a scorer) its score on the session's labels; and
 * the loops it reminded. A loop is a stretch of calls each repeating the one
 * before (as the evidence compares them), so configs whose thresholds differ
 * are judged on the same loops, not on the same calls.
 */
export function tally(
  transcript: Transcript,
  config: Config,
  against: Against,
): { tally: Tally; reminded: RemindedLoops } {
  const result = noTally()
  const reminded = new Set<LoggedCall>()
  const loops = new Set<number>()
  const repeated = new Set<number>()
  const reminders: number[] = []
  const withheld: number[] = []
  const starts = stretches(transcript)
  drive(transcript, config, (call, at, seen) => {
    if (seen.withheld !== undefined) {
      result.withheld++
      if (seen.deniable) result.denied++
      withheld.push(at)
    }
    if (seen.reminder === undefined) return
    reminders.push(at)
    reminded.add(call)
    const start = starts[at - 1]!
    loops.add(start)
    result.reminders++
    // One measure for every candidate, whatever rule reminded: whether the call returned what the same call
    // returned last time, with nothing new seen since. A rule is not right merely because it fired: a reread
    // after a call that told the model something new may be a check of what it learned.
    if (call.nothingNew) {
      result.onRepeatedResults++
      repeated.add(start)
    } else {
      result.onChangedResults++
    }
  })
  for (const step of transcript.steps)
    if ('tool' in step && step.repeatsCall && step.repeatsResult && !reminded.has(step)) result.unremindedLoopCalls++
  for (const start of against.baseline.loops) if (loops.has(start)) result.baselineLoopsKept++
  for (const start of against.baseline.repeated) if (!loops.has(start)) result.baselineRepeatedLoopsLost++
  against.scorer?.scorer.add(against.scorer.id, transcript.calls, { reminders, withheld })
  return { tally: result, reminded: { loops, repeated } }
}

/**
 * For every call, 1-based, the call its stretch starts at: a call that repeats the one before it
 * continues that one's stretch.
 */
function stretches(transcript: Transcript): number[] {
  const starts: number[] = []
  let start = 0
  for (const step of transcript.steps) {
    if (!('tool' in step)) continue
    if (!step.repeatsCall) start = starts.length + 1
    starts.push(start)
  }
  return starts
}

/** A tally of nothing yet. */
export function noTally(): Tally {
  return {
    reminders: 0,
    withheld: 0,
    denied: 0,
    onRepeatedResults: 0,
    onChangedResults: 0,
    unremindedLoopCalls: 0,
    baselineLoopsKept: 0,
    baselineRepeatedLoopsLost: 0,
  }
}

/** Add one config's tally on a session to its running total. */
export function addTally(total: Tally, more: Tally): void {
  for (const key of Object.keys(more) as (keyof Tally)[]) total[key] += more[key]
}
