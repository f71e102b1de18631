/**
 * Which `--suggest` candidate is recommended, on labeled loops or without
 * labels, and the recommendation written as a dsh profile patch.
 */
import { sameJson } from '../arguments.ts'
import type { Config } from '../config.ts'
import type { Scored, Suggestion } from './tally.ts'

/**
 * Mark the recommendation on labeled loops: of the candidates no opt-in of
 * which lowers precision (see {@link lowersPrecision}), the one with the
 * highest F1 (then the larger share of wasted calls saved, then the fewer
 * reminders, then the earlier in the list, so the baseline wins a tie).
 */
export function recommendScored(suggestions: Scored[]): Scored[] {
  // One is always eligible: the most precise candidate is never less precise than another.
  const eligible = suggestions.filter((s) => !lowersPrecision(s, suggestions))
  const best = eligible.reduce((best, s) => {
    const better =
      s.score.f1 - best.score.f1 ||
      (s.score.shareOfWasted ?? 0) - (best.score.shareOfWasted ?? 0) ||
      best.reminders - s.reminders
    return better > 0 ? s : best
  })
  best.recommended = true
  return suggestions
}

/**
 * Whether an opt-in of `s` lowers precision: another candidate is the same
 * config with one or more of its opt-ins off, and is more precise. A rule
 * that catches more loops at the cost of wrong reminders is never advice.
 */
function lowersPrecision(s: Scored, suggestions: readonly Scored[]): boolean {
  return suggestions.some((other) => withFewerOptIns(other.config, s.config) && precise(other) > precise(s))
}

/** A candidate's precision on the labels; a config that reminded nothing labeled wrongs no one. */
function precise(s: Scored): number {
  return s.score.precision ?? 1
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
 * is never advice), the one with the fewest reminders after new output (then
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
