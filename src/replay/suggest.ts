/**
 * `--suggest`, all of it: a few configs a user would consider next to the one
 * given (the baseline), each tallied on the same sessions by where its
 * reminders land (on calls whose result repeated, so the model was seeing no
 * new output, or on calls whose result changed: likely progress); escalations
 * listed only when the recorded reminders' effects show the model went on
 * repeating; one recommendation, written as a dsh profile patch. It reads the
 * logs through the function it is given and writes nothing.
 */
import type { Config } from '../config.ts'
import { counted, type EffectCounts } from './effects.ts'
import { Scorer, type Labels, type Score } from './labels.ts'
import type { LoggedCall, Transcript } from './transcript.ts'
import { drive } from './report.ts'

/** How one config fares on the sessions. */
export interface Tally {
  reminders: number
  blocks: number
  /** Of the blocks, the calls denied before they run: they would not run at all. */
  denied: number
  /** Reminders attached to a call whose result was the same as the previous identical call's: the model was seeing no new output. */
  onRepeatedResults: number
  /** Reminders attached to a call whose result differed from the previous identical call's. */
  onChangedResults: number
  /** Calls that repeated the call before them, result included, and got no reminder. */
  unremindedLoopCalls: number
  /** The loops the baseline reminded (stretches of calls each repeating the one before) that this config reminds too. */
  baselineLoopsKept: number
  /** The loops the baseline reminded on a call whose result repeated that this config leaves without a reminder. */
  baselineRepeatedLoopsLost: number
}

/** What the recorded detailed reminders on repeated results were followed by: the evidence for escalating, or against it. */
export interface Escalation {
  /** Detailed reminders on calls whose result repeated, right after which the model made the same call again. */
  followed: number
  /** Detailed reminders in the logs on calls whose result repeated. */
  of: number
  /** Whether the candidates include `blockAt` and `remindEvery`: the same call followed most detailed reminders. */
  escalate: boolean
}

/** What `--suggest` comes to: the candidates with their tallies, and the evidence on escalating. */
export interface Advice {
  suggestions: Suggestion[]
  escalation: Escalation
}

/** One config under comparison, with how it fared. */
export interface Suggestion extends Tally {
  /** What the candidate changes from the baseline, for a person. */
  label: string
  config: Config
  /** With labels: how its reminders score on the labeled loops. */
  score?: Score
  baseline?: true
  recommended?: true
}

/** Per tool: how often a call repeated the one right before it, and how often such a repeat still returned a new result. */
export type ProgressStats = Map<string, { repeats: number, changed: number }>

/**
 * The arguments dsh's tools take that are prose for the UI or the user, never
 * part of what the call does: `bash`, `pwsh` and `run_code` require a
 * `description`, and `bash`, `edit` and `write` take a `justification`. The
 * evidence compares calls without them, and a candidate leaves them out.
 */
export const PROSE_ARGUMENTS = ['bash.description', 'pwsh.description', 'run_code.description', '*.justification']

/** The arguments the evidence compares calls without: the prose fields, and whatever `config` leaves out. */
export function evidenceArguments(config: Config): string[] {
  return [...new Set([...config.ignoreArguments, ...PROSE_ARGUMENTS])]
}

/** Count, per tool, repeats of the call right before and the ones whose result changed. */
export function addProgress(stats: ProgressStats, call: LoggedCall): void {
  if (!call.repeatsCall) return
  const tool = stats.get(call.tool) ?? { repeats: 0, changed: 0 }
  tool.repeats++
  if (!call.repeatsResult) tool.changed++
  stats.set(call.tool, tool)
}

/** Tools whose repeats mostly returned a new result each time (paging, polling): progress, not loops. */
export function progressTools(stats: ProgressStats): string[] {
  return [...stats].filter(([, { repeats, changed }]) => changed * 2 > repeats).map(([tool]) => tool).sort()
}

/** The evidence on escalating, from the effects of the detailed reminders the logs recorded on calls whose result repeated (a pager's are progress, not evidence). */
export function escalation(later: EffectCounts): Escalation {
  const of = counted(later)
  return { followed: later.repeated, of, escalate: later.repeated * 2 > of }
}

/**
 * The configs to compare: the baseline; with `resultAware`; with `cycles`; with
 * the prose arguments left out; with `relapse`; with the progress tools (when
 * there are any) excluded, or result-aware alone; with every threshold two
 * calls later; and, only when `evidence` says the model went on repeating
 * after most detailed reminders, with `blockAt` and with `remindEvery`, the
 * evidence in their labels.
 */
export function candidates(baseline: Config, progress: readonly string[], evidence: Escalation): Omit<Suggestion, keyof Tally>[] {
  const list: Omit<Suggestion, keyof Tally>[] = [{ label: 'the config given (baseline)', config: baseline, baseline: true }]
  // A candidate that is the same config as one already listed (the baseline included) is not listed again.
  const add = (label: string, change: Partial<Config>) => {
    const config = { ...baseline, ...change }
    if (!list.some((c) => JSON.stringify(c.config) === JSON.stringify(config))) list.push({ label, config })
  }
  add('resultAware', { resultAware: true })
  add('cycles', { cycles: true })
  const prose = evidenceArguments(baseline)
  add('ignoreArguments: the prose fields', { ignoreArguments: prose })
  add('relapse', { relapse: true })
  if (progress.length > 0) {
    add(`exclude ${progress.join(', ')}`, { exclude: [...new Set([...baseline.exclude, ...progress])] })
    // Scoped: the other tools keep comparing calls alone, as the baseline does.
    if (baseline.resultAware !== true) add(`resultAware for ${progress.join(', ')} only`, { resultAware: [...new Set([...baseline.resultAware || [], ...progress])] })
  }
  const later = baseline.thresholds.map((t) => t + 2)
  add(`thresholds ${later.join(', ')}`, { thresholds: later, blockAt: baseline.blockAt === 0 ? 0 : Math.max(baseline.blockAt, later.at(-1)!) })
  // Most real loops are short: the second identical call is often already the pointless one.
  const shift = baseline.thresholds[0]! - 2
  if (shift > 0) {
    const earlier = baseline.thresholds.map((t) => t - shift)
    const named = `thresholds ${earlier.join(', ')}`
    add(named, { thresholds: earlier })
    add(`${named}, resultAware`, { thresholds: earlier, resultAware: true })
    add(`${named}, resultAware, cycles, the prose fields`, { thresholds: earlier, resultAware: true, cycles: true, ignoreArguments: prose })
  }
  // The evidence is said once, in the escalation line of the report and in the JSON's escalation, not in every label.
  if (evidence.escalate) {
    const last = baseline.thresholds.at(-1)!
    if (baseline.blockAt === 0) add(`blockAt ${last + 2}`, { blockAt: last + 2 })
    if (baseline.remindEvery === 0) add(`remindEvery ${REMIND_EVERY}`, { remindEvery: REMIND_EVERY })
  }
  return list
}

/** The `remindEvery` an escalation proposes: the detailed reminder again every few calls of a loop that outlasted the thresholds. */
const REMIND_EVERY = 3

/** The loops a config reminded in one session, each named by the call its stretch starts at; and those where a reminded call's result repeated. */
export interface RemindedLoops {
  loops: ReadonlySet<number>
  repeated: ReadonlySet<number>
}

/** What a candidate's tally on a session is set against: the loops the baseline reminded there, and the session's labels to score on. */
interface Against {
  baseline: RemindedLoops
  scorer?: { id: string, scorer: Scorer } | undefined
}

/**
 * How `config` fares on one session: its reminders split by what the model
 * was seeing, the loop calls it leaves unreminded, the baseline's loops it
 * keeps and loses, and (with a scorer) its score on the session's labels; and
 * the loops it reminded. A loop is a stretch of calls each repeating the one
 * before (as the evidence compares them), so configs whose thresholds differ
 * are judged on the same loops, not on the same calls.
 */
export function tally(transcript: Transcript, config: Config, against: Against): { tally: Tally, reminded: RemindedLoops } {
  const result = noTally()
  const reminded = new Set<LoggedCall>()
  const loops = new Set<number>()
  const repeated = new Set<number>()
  const reminders: number[] = []
  const withheld: number[] = []
  const starts = stretches(transcript)
  drive(transcript, config, (call, at, seen) => {
    if (seen.withheld !== undefined) {
      result.blocks++
      if (seen.deniable) result.denied++
      withheld.push(at)
    }
    if (seen.reminder === undefined) return
    reminders.push(at)
    reminded.add(call)
    loops.add(starts[at - 1]!)
    result.reminders++
    if (call.repeatsResult) {
      result.onRepeatedResults++
      repeated.add(starts[at - 1]!)
    } else {
      result.onChangedResults++
    }
  })
  for (const step of transcript.steps) if ('tool' in step && step.repeatsCall && step.repeatsResult && !reminded.has(step)) result.unremindedLoopCalls++
  for (const start of against.baseline.loops) if (loops.has(start)) result.baselineLoopsKept++
  for (const start of against.baseline.repeated) if (!loops.has(start)) result.baselineRepeatedLoopsLost++
  against.scorer?.scorer.add(against.scorer.id, transcript.calls, { reminders, withheld })
  return { tally: result, reminded: { loops, repeated } }
}

/** For every call, 1-based, the call its stretch starts at: a call that repeats the one before it continues that one's stretch. */
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
  return { reminders: 0, blocks: 0, denied: 0, onRepeatedResults: 0, onChangedResults: 0, unremindedLoopCalls: 0, baselineLoopsKept: 0, baselineRepeatedLoopsLost: 0 }
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
export async function advise(files: readonly string[], read: (file: string) => Promise<{ id: string, transcript: Transcript } | undefined>, baseline: Config, stats: ProgressStats, later: EffectCounts, labels?: Labels): Promise<Advice> {
  const evidence = escalation(later)
  const suggestions: Suggestion[] = candidates(baseline, progressTools(stats), evidence).map((c) => ({ ...c, ...noTally() }))
  const scorers = suggestions.map(() => labels === undefined ? undefined : new Scorer(labels))
  for (const file of files) {
    const session = await read(file)
    if (session === undefined) continue
    let baseline: RemindedLoops = { loops: new Set(), repeated: new Set() }
    suggestions.forEach((s, i) => {
      const one = tally(session.transcript, s.config, { baseline, scorer: scorers[i] && { id: session.id, scorer: scorers[i] } })
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
  return { suggestions: labels === undefined ? recommend(suggestions) : recommendScored(suggestions), escalation: evidence }
}

/**
 * Mark the recommendation on labeled loops: the candidate with the highest F1
 * (then the larger share of wasted calls saved, then the fewer reminders, then
 * the earlier in the list, so the baseline wins a tie).
 */
export function recommendScored(suggestions: Suggestion[]): Suggestion[] {
  let best = suggestions[0]!
  for (const s of suggestions) {
    const better = s.score!.f1 - best.score!.f1
      || (s.score!.shareOfWasted ?? 0) - (best.score!.shareOfWasted ?? 0)
      || best.reminders - s.reminders
    if (better > 0) best = s
  }
  best.recommended = true
  return suggestions
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
  const keeps = (s: Suggestion) => s.baselineRepeatedLoopsLost === 0 && (baseline!.reminders === 0 || s.baselineLoopsKept > 0)
  let best = baseline!
  for (const s of suggestions) {
    if (!keeps(s)) continue
    const better = s.onChangedResults - best.onChangedResults
      || best.onRepeatedResults - s.onRepeatedResults
      || s.unremindedLoopCalls - best.unremindedLoopCalls
    if (better < 0) best = s
  }
  best.recommended = true
  return suggestions
}

/** The recommendation as a ready patch for a dsh profile's `cordis.patch.yml`: the thresholds, and every option that is not its default. */
export function patchSnippet(config: Config, defaults: Config): string {
  const lines = ['# ~/.dsh/profiles/<name>/cordis.patch.yml', '- id: repeat-tool-reminder', '  config:']
  for (const [key, value] of Object.entries(config) as [keyof Config, unknown][]) {
    if (key !== 'thresholds' && JSON.stringify(value) === JSON.stringify(defaults[key])) continue
    lines.push(`    ${key}: ${yamlValue(value)}`)
  }
  return lines.join('\n')
}

/** A config value in YAML flow style: numbers and booleans as they are, strings and lists of strings quoted as JSON. */
function yamlValue(value: unknown): string {
  return Array.isArray(value) ? `[${value.map((item) => JSON.stringify(item)).join(', ')}]` : JSON.stringify(value)
}
