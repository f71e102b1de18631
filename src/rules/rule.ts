/**
 * What every rule is: its own state per agent, a step that sees one call and
 * its outcome, a verdict of its own kind as data, and that kind's texts. The
 * guard runs the rules a config switches on (`rules/index.ts`), in order, for
 * each tracked call; it owns only what all of them share: the call before, the
 * thresholds and withholding. A rule never edits another rule's verdict: it
 * returns one of its own, or leaves the one before it standing.
 */
import type { Option, Values } from '../checks.ts'
import type { Call } from '../compare.ts'
import type { Shared } from '../options.ts'
import type { Result } from '../results.ts'

/** How far a loop has gone, as every verdict says it: all the guard reads of one. */
export interface Measure {
  /** The loop's calls: the call in hand for a run, a cycle's calls in the order it opened. */
  readonly calls: readonly Call[]
  /** How many identical calls in a row end with the call in hand, itself included. */
  readonly run: number
  /** How long the loop is as its text says: calls in a run, a cycle's complete repetitions. */
  readonly length: number
  /** Its length as the thresholds and `blockAt` measure it: a busy poll and a failure run one call late. */
  readonly measured: number
  /** Whether a reminder can be due at this call: a cycle's only when a repetition completes. */
  readonly complete: boolean
  /** Whether the run went on after other calls: it resumed where it stopped. */
  readonly resumed: boolean
}

/** A verdict: a loop of one kind, measured. Each rule's verdict extends it with what its texts need. */
export interface Found extends Measure {
  readonly kind: string
}

/**
 * The measure of an advice verdict about `call` alone, `length` calls as its text counts them. What
 * only a loop's verdict is read for is fixed: a reminder can be due (`complete`), and it did not
 * resume; the guard reads neither on advice, whose texts are its own.
 */
export function adviceOn(call: Call, { run }: Found, length: number) {
  return { call, calls: [call], run, length, measured: length, complete: true, resumed: false }
}

/** One call as the rules see it, in the order they step. */
export interface Seen {
  readonly call: Call
  /** What the call returned: the rules that judge results read it (`Comparison.outcome`). */
  readonly result: Result
  /** The agent's tracked call before it. */
  readonly latest: Call
  /** Whether `b` repeats `a`: the same call, with the same outcome where outcomes are compared. */
  readonly same: (a: Call, b: Call) => boolean
  /** Whether the call's tool ran: false for a call a `tools/pre-execute` listener denied. */
  readonly ran: boolean
  /** Whether the model made the call in the same step (one response) as `latest`. */
  readonly sameStep: boolean
  /** Whether the call is the same call as `latest`, whatever their outcomes. */
  readonly sameCall: boolean
  /** Whether the call repeats `latest`. */
  readonly repeats: boolean
  /** Whether the call goes on with the run `latest` ends: it repeats it, unless a rule's link says otherwise. */
  continues: boolean
  /** When a link restarts the run at this call: its length, this call included. */
  from: number | undefined
}

/** How a notice is written: whether at the first threshold (the short text), and the arguments' cap. */
export interface NoticeOptions {
  readonly first: boolean
  readonly cap: number
}

/** The words the model reads of a verdict of one kind that is only advice: it is never withheld. */
export interface AdviceTexts<V extends Found> {
  /**
   * What a notice's summary ends with after `<tools> × <length>`, the same for every notice of the
   * kind, so that replay reads a recorded notice back as its kind; '' for the identical run (the
   * stock plugin's summary) and for a cycle (its arrows mark it).
   */
  readonly mark: string
  /** The reminder's text. */
  notice(verdict: V, options: NoticeOptions): string
}

/** The words the model reads of a loop's verdict: its reminder, and what replaces a withheld result. */
export interface Texts<V extends Found> extends AdviceTexts<V> {
  /**
   * The feedback that replaces a withheld result (`blockAt`); `ran` is false for a call denied
   * before it could run.
   */
  withheld(verdict: V, ran: boolean): string
}

/** What every rule has, whatever its phase. */
interface Common<State> {
  /** Its state for an agent once its first tracked call is made: no loop yet. */
  start(first: Pick<Seen, 'call' | 'result' | 'ran'>): State
  /** A copy that a dry run may move without moving the live state. */
  copy(state: State): State
  /** Whether it needs to know if a call ran (`Seen.ran`): the plugin then watches `tools/execute`. */
  readonly watchesDispatch?: true
  /** Before any rule steps: say whether the call goes on with the run (`continues`, `from`). */
  link?(state: State, seen: Seen): void /**
   * For `deny`, which judges a call before it runs as if it succeeded: another result of `call` that
   * could change this rule's verdict; undefined when none could.
   */
  unsure?(state: State, call: Call): Result | undefined
}

/**
 * A loop rule: it measures the loop a call extends, and may replace the verdict the rules before
 * it found (`found`) with one of its own, or leave it (undefined).
 */
export interface LoopRule<State, V extends Found> extends Common<State> {
  readonly phase: 'loop'
  step(state: State, seen: Seen, found: Found): V | undefined
}

/**
 * An advice rule: it speaks only when no reminder is due for the loop (`reminded` false), unless it
 * `outranks` the loop's reminder; it never withholds.
 */
export interface AdviceRule<State, V extends Found> extends Common<State> {
  readonly phase: 'advice'
  /** Whether its verdict is the reminder even where a loop's is due: it says why the loop goes nowhere. */
  readonly outranks?: true
  step(state: State, seen: Seen, found: Found, reminded: boolean): V | undefined
}

/** Whether a rule measures loops or only gives advice. */
type Phase = 'loop' | 'advice'

/** A rule of either phase. */
export type Rule<State, V extends Found> = LoopRule<State, V> | AdviceRule<State, V>

/**
 * A rule as the registry lists it (`rules/index.ts`): the options it adds to the config, how a
 * config makes it, its verdicts' kind and that kind's texts, and the change `--suggest` tries.
 */
export interface Entry<O extends Record<string, Option>, V extends Found, P extends Phase = 'loop'> {
  /** Whether it measures loops (and so may withhold) or only gives advice. */
  readonly phase: P
  /**
   * The options it adds, in the order `--help` and the docs list them: the first switches it on.
   * None for a rule that is always on.
   */
  readonly options: O
  /** The kind of its verdicts. */
  readonly kind: V['kind']
  /** What the model reads of its verdicts: a rule without its texts does not compile. */
  readonly texts: P extends 'loop' ? Texts<V> : AdviceTexts<V>
  /** Its rule under `config`, or undefined where the config leaves it off. */
  make(
    config: Shared & Values<O>,
    // biome-ignore lint/suspicious/noExplicitAny: each rule knows its own state; the guard only passes it back.
  ): (P extends 'loop' ? LoopRule<any, V> : AdviceRule<any, V>) | undefined
  /** What `--suggest` changes in a config to try this rule; none for a rule that is always on. */
  readonly candidate?: Partial<Values<O>>
}

/** The options of a rule that is always on: none. */
export type NoOptions = Record<never, Option>
