/**
 * `--suggest`: advice from the evidence. A few configs a user would consider
 * next to the one given (the baseline), compared on the same sessions by where
 * their reminders land: on calls whose result repeated (the model was seeing no
 * new output) or on calls whose result changed (likely progress). It picks one
 * and writes it as a dsh profile patch. Pure: tallies in, advice out.
 */
import type { Config } from '../config.ts'
import type { RecordedCall, Tally } from './report.ts'

/** One config under comparison, with how it fared. */
export interface Suggestion extends Tally {
  /** What the candidate changes from the baseline, for a person. */
  label: string
  config: Config
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

/** Count, per tool, repeats of the call right before and the ones whose result changed. */
export function addProgress(stats: ProgressStats, call: RecordedCall): void {
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

/**
 * The configs to compare: the baseline; with `resultAware`; with `cycles`; with
 * the prose arguments left out; with `relapse`; with the progress tools (when
 * there are any) excluded, or result-aware alone; and with every threshold two
 * calls later.
 */
export function candidates(baseline: Config, progress: readonly string[]): Omit<Suggestion, keyof Tally>[] {
  const list: Omit<Suggestion, keyof Tally>[] = [{ label: 'the config given (baseline)', config: baseline, baseline: true }]
  // A candidate that is the same config as one already listed (the baseline included) is not listed again.
  const add = (label: string, change: Partial<Config>) => {
    const config = { ...baseline, ...change }
    if (!list.some((c) => JSON.stringify(c.config) === JSON.stringify(config))) list.push({ label, config })
  }
  add('resultAware', { resultAware: true })
  add('cycles', { cycles: true })
  add('ignoreArguments: the prose fields', { ignoreArguments: [...new Set([...baseline.ignoreArguments, ...PROSE_ARGUMENTS])] })
  add('relapse', { relapse: true })
  if (progress.length > 0) {
    add(`exclude ${progress.join(', ')}`, { exclude: [...new Set([...baseline.exclude, ...progress])] })
    // Scoped: the other tools keep comparing calls alone, as the baseline does.
    if (baseline.resultAware !== true) add(`resultAware for ${progress.join(', ')} only`, { resultAware: [...new Set([...baseline.resultAware || [], ...progress])] })
  }
  const later = baseline.thresholds.map((t) => t + 2)
  add(`thresholds ${later.join(', ')}`, { thresholds: later, blockAt: baseline.blockAt === 0 ? 0 : Math.max(baseline.blockAt, later.at(-1)!) })
  return list
}

/**
 * Mark the recommendation: of the candidates that keep every one of the
 * baseline's reminders on repeated results (a reminder the model needed is
 * never traded for quiet elsewhere), the one with the fewest reminders on
 * changed results (then the most on repeated results, then the fewest loop
 * calls left unreminded, then the earlier in the list). The baseline stays
 * recommended unless another does strictly better.
 */
export function recommend(suggestions: Suggestion[]): Suggestion[] {
  const [baseline] = suggestions
  const keeps = (s: Suggestion) => s.onRepeatedResults >= baseline!.onRepeatedResults
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
