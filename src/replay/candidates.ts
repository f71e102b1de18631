/**
 * Which configs `--suggest` compares, and the evidence that picks them: the
 * tools whose repeats were progress, the prose arguments dsh's tools carry,
 * and whether the model went on repeating after the detailed reminders the
 * logs recorded (the case for escalating). Pure.
 */
import { grouped } from './text.ts'
import type { Config } from '../config.ts'
import { effectCount, type EffectCounts } from './effects.ts'
import type { LoggedCall } from './transcript.ts'
import { sameJson } from '../arguments.ts'
import { RULES } from '../rules/index.ts'

/** One config to compare, named for a person by what it changes from the baseline. */
export interface Candidate {
  name: string
  config: Config
  baseline?: true
}

/**
 * What the recorded detailed reminders on repeated results were followed by: the evidence for
 * escalating, or against it.
 */
export interface Escalation {
  /** Detailed reminders on calls whose result repeated, right after which the model made the same call again. */
  followed: number
  /** Detailed reminders in the logs on calls whose result repeated. */
  of: number
  /** Whether the candidates include `blockAt` and `remindEvery`: the same call followed most detailed reminders. */
  escalate: boolean
}

/**
 * Per tool: how often a call repeated the one right before it, and how often such a repeat still
 * returned a new result.
 */
export type ProgressStats = Map<string, { repeats: number; changed: number }>

/**
 * The arguments that are prose for the UI, the user or the log, never part of
 * what the call does, as the tools' own schemas describe them: dsh's `bash`,
 * `pwsh` and `run_code` require a `description`; `bash` and dsh's file tools
 * take a `justification`; `job_kill` takes a `reason`; Codex CLI's
 * `update_plan` an `explanation`. The evidence compares calls without them,
 * and a candidate leaves them out.
 */
export const PROSE_ARGUMENTS = [
  'bash.description',
  'pwsh.description',
  'run_code.description',
  '*.justification',
  'job_kill.reason',
  'update_plan.explanation',
]

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
  return [...stats]
    .filter(([, { repeats, changed }]) => changed * 2 > repeats)
    .map(([tool]) => tool)
    .sort()
}

/**
 * The evidence on escalating, from the effects of the detailed reminders the logs recorded on calls
 * whose result repeated (a pager's are progress, not evidence).
 */
export function escalation(later: EffectCounts): Escalation {
  const of = effectCount(later)
  return { followed: later.repeated, of, escalate: later.repeated * 2 > of }
}

/**
 * The configs to compare: the baseline; with `resultAware`; with the prose
 * arguments left out; with the progress tools (when there are any) excluded,
 * or result-aware alone; with every threshold two calls later; from 2 (alone,
 * with `resultAware`, with `cycles` and the prose fields, with `rereads` too,
 * and with `reruns` too); with each opt-in rule of the registry alone; with
 * `resultAware` and `maskNoise`; and, only when `evidence` says the model went
 * on repeating after most detailed reminders, with `blockAt` and with
 * `remindEvery`, the evidence in their labels.
 */
export function candidates(baseline: Config, progress: readonly string[], evidence: Escalation): Candidate[] {
  const list: Candidate[] = [{ name: 'the config given (baseline)', config: baseline, baseline: true }]
  // A candidate that is the same config as one already listed (the baseline included) is not listed again.
  const add = (name: string, change: Partial<Config>) => {
    const config = { ...baseline, ...change }
    if (!list.some((c) => sameJson(c.config, config))) list.push({ name, config })
  }
  add('resultAware', { resultAware: true })
  const prose = evidenceArguments(baseline)
  add('ignoreArguments: the prose fields', { ignoreArguments: prose })
  if (progress.length > 0) {
    add(`exclude ${progress.join(', ')}`, { exclude: [...new Set([...baseline.exclude, ...progress])] })
    // Scoped: the other tools keep comparing calls alone, as the baseline does.
    if (baseline.resultAware !== true)
      add(`resultAware for ${progress.join(', ')} only`, {
        resultAware: [...new Set([...(baseline.resultAware || []), ...progress])],
      })
  }
  const later = baseline.thresholds.map((t) => t + 2)
  add(thresholdsLabel(later), {
    thresholds: later,
    blockAt: baseline.blockAt === 0 ? 0 : Math.max(baseline.blockAt, later.at(-1)!),
  })
  // Most real loops are short: the second identical call is often already the pointless one.
  const shift = baseline.thresholds[0]! - 2
  if (shift > 0) {
    const earlier = baseline.thresholds.map((t) => t - shift)
    // Each step adds to the one before it, and is named by all it adds.
    let name = thresholdsLabel(earlier)
    let change: Partial<Config> = { thresholds: earlier }
    add(name, change)
    for (const [added, more] of [
      ['resultAware', { resultAware: true }],
      ['cycles, the prose fields', { cycles: true, ignoreArguments: prose }],
      ['rereads', { rereads: true }],
      ['reruns', { reruns: true }],
    ] as const) {
      name = `${name}, ${added}`
      change = { ...change, ...more }
      add(name, change)
    }
  }
  // Every opt-in rule alone, in the registry's order, named by what it turns on.
  for (const { candidate } of RULES)
    if (candidate !== undefined) add(Object.keys(candidate).join(', '), candidate as Partial<Config>)
  add('resultAware, maskNoise', { resultAware: true, maskNoise: true })
  // The evidence is said once, in the escalation line of the report and in the JSON's escalation, not in every name.
  if (evidence.escalate) {
    const last = baseline.thresholds.at(-1)!
    if (baseline.blockAt === 0) add(`blockAt ${last + 2}`, { blockAt: last + 2 })
    if (baseline.remindEvery === 0) add(`remindEvery ${REMIND_EVERY}`, { remindEvery: REMIND_EVERY })
  }
  return list
}

/** How many thresholds a candidate's name lists before it says how many there are in all. */
const NAMED = 8

/** A candidate's thresholds as its name says them: `thresholds 2, 4, 7`, a long list cut short. */
function thresholdsLabel(values: readonly number[]): string {
  const rest = values.length > NAMED ? `, … (${grouped(values.length)} in all)` : ''
  return `thresholds ${values.slice(0, NAMED).join(', ')}${rest}`
}

/**
 * The `remindEvery` an escalation proposes: the detailed reminder again every few calls of a loop
 * that outlasted the thresholds.
 */
const REMIND_EVERY = 3
