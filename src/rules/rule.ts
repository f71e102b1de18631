/**
 * What every rule is: its own state per agent, a step that sees one call and
 * its outcome, and a verdict as data. The guard runs the rules a config
 * switches on, in order, for each tracked call; it owns only what all of them
 * share: the call before, the thresholds and withholding.
 */
import type { Call } from '../compare.ts'

/** Which loop a verdict is about. */
type LoopKind = 'run' | 'cycle' | 'poll' | 'failure' | 'reread'

/**
 * A loop a call is part of, as data: which loop, how far it has gone, and the calls it is made of.
 * The texts are written from it (`reminders.ts`), and replay reads it.
 */
export interface Verdict {
  kind: LoopKind
  /** The loop's calls: the call in hand for a run, a cycle's calls in the order it opened. */
  calls: readonly Call[]
  /** How many identical calls in a row end with the call in hand, itself included. */
  run: number
  /** How long the loop is as its text says: calls in a run, a cycle's complete repetitions. */
  length: number
  /** Its length as the thresholds and `blockAt` measure it: a busy poll and a failure run one call late. */
  measured: number
  /** Whether a reminder can be due at this call: a cycle's only when a repetition completes. */
  complete: boolean
  /** Whether the run went on after other calls (`relapse`). */
  resumed: boolean
  /** For a busy poll: the job's id as the calls name it. */
  job?: string | undefined
  /** For a run of the same failure (`sameFailure`): the error, quoted short. */
  failure?: string | undefined
  /** For a reread: how many calls back the call it repeats is. */
  back?: number
  /** For a reread in other words: the earlier call. */
  otherWords?: Call | undefined
}

/** One call as the rules see it, in the order they step. */
export interface Seen {
  readonly call: Call
  /** The agent's tracked call before it. */
  readonly latest: Call
  /** Whether `b` repeats `a`: the same call, with the same outcome where outcomes are compared. */
  readonly same: (a: Call, b: Call) => boolean
  /** Whether the call repeats `latest`. */
  readonly repeats: boolean
  /** Whether the call goes on with the run `latest` ends: it repeats it, unless a rule's link says otherwise. */
  continues: boolean
  /** When a link restarts the run at this call: its length, this call included. */
  from: number | undefined
  /** The loop the rules before this one found. */
  found: Verdict | undefined
  /** For an advice rule: whether a reminder is due for `found`. */
  reminded: boolean
}

/** A rule: one module, switched on by its config field. */
export interface Rule<State> {
  /**
   * `loop` rules measure the loop a call extends, and each may replace what the rules before found;
   * an `advice` rule speaks only when no reminder is due for the loop, and never withholds.
   */
  readonly phase: 'loop' | 'advice'
  /** Its state for an agent once its first tracked call, `call`, is made: no loop yet. */
  start(call: Call): State
  /** A copy that a dry run may move without moving the live state. */
  copy(state: State): State
  /** Before any rule steps: say whether the call goes on with the run (`continues`, `from`). */
  link?(state: State, seen: Seen): void
  /**
   * Move the state to the call; the verdict that stands after this rule, or undefined to leave
   * `found`. A loop rule refines `found` in place: the run rule makes it anew for each call.
   */
  step(state: State, seen: Seen): Verdict | undefined
}

/** A rule whose state's type the guard does not know. */
// biome-ignore lint/suspicious/noExplicitAny: each rule knows its own state; the guard only passes it back.
export type AnyRule = Rule<any>
