/**
 * The registry of rules: every rule the guard can run, in the order it judges
 * a call. Each entry brings its options (schema, default, the words `--help`
 * and the docs show), how a config makes it, its verdict's kind and texts, and
 * its `--suggest` candidate; the config, the flags, the candidates and the
 * notices are all made from this list. A new rule is its module and one line
 * here.
 */
import type { Values } from '../checks.ts'
import type { Shared } from '../options.ts'
import { cycle } from './cycle.ts'
import { failure } from './failure.ts'
import { poll } from './poll.ts'
import { relapse } from './relapse.ts'
import { quickPoll } from './quick-poll.ts'
import { rejected } from './rejected.ts'
import { reread } from './reread.ts'
import { rerun } from './rerun.ts'
import type { AdviceRule, AdviceTexts, LoopRule, Rule, Texts } from './rule.ts'
import { run } from './run.ts'

/**
 * Every rule, in the order it judges a call: the identical run and the busy poll are always on (the
 * poll judges only calls whose outcomes are compared: a job's status is its outcome), each opt-in's
 * rule where the config turns it on. A loop rule may replace the verdict of the rules before it.
 */
export const RULES = [run, relapse, failure, poll, cycle, reread, rerun, quickPoll, rejected] as const

type Listed = (typeof RULES)[number]

/** A verdict of any rule: a tagged union, one member per kind. */
export type Verdict = VerdictOf<Listed>

/** The verdict a registry entry's rule gives. */
// biome-ignore lint/suspicious/noExplicitAny: a rule's state is its own.
type VerdictOf<E> = E extends { make(config: never): Rule<any, infer V> | undefined } ? V : never

/** A verdict of a loop rule: what the guard measures, and may withhold. */
export type LoopVerdict = VerdictOf<Extract<Listed, { phase: 'loop' }>>

/** Which loop a verdict is about. */
export type Kind = Verdict['kind']

/** The options every rule adds, as one object type. */
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never

/** The values of the options the rules add. */
export type RuleValues = Values<Intersection<Listed['options']>>

/** Each kind's texts, from the rule that gives verdicts of that kind. */
const TEXTS = new Map<string, AdviceTexts<never>>(RULES.map((entry) => [entry.kind, entry.texts as AdviceTexts<never>]))

/** The texts of `verdict`'s kind: a loop's have its withheld feedback too. */
export function textsOf<V extends Verdict>(verdict: V): [V] extends [LoopVerdict] ? Texts<V> : AdviceTexts<V> {
  return TEXTS.get(verdict.kind) as never
}

/** The mark of every kind, for replay to read a recorded notice back by. */
export const MARKS: ReadonlyMap<string, string> = new Map(RULES.map((entry) => [entry.kind, entry.texts.mark]))

/** A rule whose state's type the guard does not know. */
// biome-ignore lint/suspicious/noExplicitAny: each rule knows its own state; the guard only passes it back.
export type AnyRule = LoopRule<any, LoopVerdict> | AdviceRule<any, Verdict>

/** The rules `config` switches on, in the order they judge a call. */
export function rulesOf(config: Shared & RuleValues): AnyRule[] {
  return RULES.map((entry) => entry.make(config)).filter((rule) => rule !== undefined)
}
