/**
 * `--suggest`: the candidates (`candidates.ts`) each tallied on the same
 * sessions by where its reminders land (on calls whose result repeated, so the
 * model was seeing no new output, or on calls whose result changed: likely
 * progress) or, with labels, scored on the labeled loops; one recommendation,
 * written as a dsh profile patch. It reads the logs through the function it is
 * given and writes nothing.
 */
import type { Config } from '../config.ts'
import {
  candidates,
  escalation,
  progressTools,
  type Candidate,
  type Escalation,
  type ProgressStats,
} from './candidates.ts'
import type { EffectCounts } from './effects.ts'
import type { Labels } from './labels.ts'
import { Scorer, type Score } from './score.ts'
import type { LoggedCall, Transcript } from './transcript.ts'
import { drive } from './drive.ts'
import { sameJson } from '../arguments.ts'

/** How one config fares on the sessions. */
export interface Tally {
  reminders: number
  /** Calls whose result the config withholds (`blockAt`). */
  withheld: number
  /** Of the withheld, the calls denied before they run: they would not run at all. */
  denied: number
  /**
   * Reminders attached to a call whose result was the same as the previous identical call's: the
   * model was seeing no new output.
   */
  onRepeatedResults: number
  /** Reminders attached to a call whose result differed from the previous identical call's. */
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

/** What `--suggest` comes to: the candidates with their tallies, and the evidence on escalating. */
export interface Advice {
  suggestions: Suggestion[]
  escalation: Escalation
}

/** One config under comparison, with how it fared. */
export interface Suggestion extends Candidate, Tally {
  /** With labels: how its reminders score on the labeled loops. */
  score?: Score
  recommended?: true
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
    loops.add(starts[at - 1]!)
    result.reminders++
    // One measure for every candidate, whatever rule reminded: whether the call returned what the same call
    // returned last time. A rule is not right merely because it fired.
    if (call.repeatsResult) {
      result.onRepeatedResults++
      repeated.add(starts[at - 1]!)
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
  for (const step of transcript.steps) {
    if (!('tool' in step)) continue
    starts.push(step.repeatsCall ? starts.at(-1)! : starts.length + 1)
  }
  return starts
}

/** A tally of nothing yet. */
function noTally(): Tally {
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
function addTally(total: Tally, more: Tally): void {
  for (const key of Object.keys(more) as (keyof Tally)[]) total[key] += more[key]
}

/**
 * `--suggest`'s second pass: read every log again through `read` (which
 * reports what cannot be read) and tally each candidate on it, scoring it on
 * `labels` when given; recommend one.
 */
export async function advise(
  files: readonly string[],
  read: (file: string) => Promise<{ id: string; transcript: Transcript } | undefined>,
  baseline: Config,
  stats: ProgressStats,
  later: EffectCounts,
  labels?: Labels,
): Promise<Advice> {
  const evidence = escalation(later)
  const suggestions: Suggestion[] = candidates(baseline, progressTools(stats), evidence).map((c) => ({
    ...c,
    ...noTally(),
  }))
  const scorers = suggestions.map(() => (labels === undefined ? undefined : new Scorer(labels)))
  for (const file of files) {
    const session = await read(file)
    if (session === undefined) continue
    let baseline: RemindedLoops = { loops: new Set(), repeated: new Set() }
    suggestions.forEach((s, i) => {
      const one = tally(session.transcript, s.config, {
        baseline,
        scorer: scorers[i] && { id: session.id, scorer: scorers[i] },
      })
      // The baseline comes first: it keeps every one of its own loops, and the others are set against them.
      if (i === 0) {
        baseline = one.reminded
        one.tally.baselineLoopsKept = baseline.loops.size
      }
      addTally(s, one.tally)
    })
  }
  suggestions.forEach((s, i) => {
    if (scorers[i] !== undefined) s.score = scorers[i].score()
  })
  return {
    suggestions: labels === undefined ? recommend(suggestions) : recommendScored(suggestions),
    escalation: evidence,
  }
}

/**
 * Mark the recommendation on labeled loops: of the candidates no opt-in of
 * which lowers precision (see {@link lowersPrecision}), the one with the
 * highest F1 (then the larger share of wasted calls saved, then the fewer
 * reminders, then the earlier in the list, so the baseline wins a tie).
 */
export function recommendScored(suggestions: Suggestion[]): Suggestion[] {
  // One is always eligible: the most precise candidate is never less precise than another.
  const eligible = suggestions.filter((s) => !lowersPrecision(s, suggestions))
  let best = eligible[0]!
  for (const s of eligible) {
    const better =
      s.score!.f1 - best.score!.f1 ||
      (s.score!.shareOfWasted ?? 0) - (best.score!.shareOfWasted ?? 0) ||
      best.reminders - s.reminders
    if (better > 0) best = s
  }
  best.recommended = true
  return suggestions
}

/**
 * Whether an opt-in of `s` lowers precision: another candidate is the same
 * config with one or more of its opt-ins off, and is more precise. A rule
 * that catches more loops at the cost of wrong reminders is never advice.
 */
function lowersPrecision(s: Suggestion, suggestions: readonly Suggestion[]): boolean {
  return suggestions.some((other) => withFewerOptIns(other.config, s.config) && precise(other) > precise(s))
}

/** A candidate's precision on the labels; a config that reminded nothing labeled wrongs no one. */
function precise(s: Suggestion): number {
  return s.score!.precision ?? 1
}

/** Whether `fewer` is `config` with one or more of its opt-ins (options that are `true`) off. */
function withFewerOptIns(fewer: Config, config: Config): boolean {
  const keys = Object.keys(config) as (keyof Config)[]
  const off = keys.filter((k) => config[k] === true && fewer[k] === false)
  return off.length > 0 && keys.every((k) => off.includes(k) || sameJson(fewer[k], config[k]))
}

/**
 * Mark the recommendation without labels: of the candidates that remind every
 * loop the baseline reminded on a call whose result repeated (a reminder the
 * model needed is never traded for quiet elsewhere) and keep at least one of
 * the baseline's loops when it reminded any (a config that silences them all
 * is never advice), the one with the fewest reminders on changed results (then
 * the most on repeated results, then the fewest loop calls left unreminded,
 * then the earlier in the list). The baseline stays recommended unless another
 * does strictly better.
 */
export function recommend(suggestions: Suggestion[]): Suggestion[] {
  const [baseline] = suggestions
  const keeps = (s: Suggestion) =>
    s.baselineRepeatedLoopsLost === 0 && (baseline!.reminders === 0 || s.baselineLoopsKept > 0)
  let best = baseline!
  for (const s of suggestions) {
    if (!keeps(s)) continue
    const better =
      s.onChangedResults - best.onChangedResults ||
      best.onRepeatedResults - s.onRepeatedResults ||
      s.unremindedLoopCalls - best.unremindedLoopCalls
    if (better < 0) best = s
  }
  best.recommended = true
  return suggestions
}

/**
 * The recommendation as a ready patch for a dsh profile's `cordis.patch.yml`: the thresholds, and
 * every option that is not its default.
 */
export function patchSnippet(config: Config, defaults: Config): string {
  const lines = ['# ~/.dsh/profiles/<name>/cordis.patch.yml', '- id: repeat-tool-reminder', '  config:']
  for (const [key, value] of Object.entries(config) as [keyof Config, unknown][]) {
    if (key !== 'thresholds' && sameJson(value, defaults[key])) continue
    lines.push(`    ${key}: ${yamlValue(value)}`)
  }
  return lines.join('\n')
}

/** A config value in YAML flow style: numbers and booleans as they are, strings and lists of strings quoted as JSON. */
function yamlValue(value: unknown): string {
  return Array.isArray(value) ? `[${value.map((item) => JSON.stringify(item)).join(', ')}]` : JSON.stringify(value)
}
