/**
 * `sameFailure`: calls to one tool that fail with the same error, whatever
 * their arguments. Such a call goes on with the run, and once a call with other
 * arguments has, the run goes on only through calls that fail that way: a call
 * that succeeds ends it. Two tries are fair, so the run is measured one call
 * late: with thresholds 2, 4, 7 it is reminded at its 3rd, 5th and 8th call.
 */
import Schema from '@deepseek-ai/schemastery'
import { option } from '../checks.ts'
import { type Call, comparison } from '../compare.ts'
import { failed, failureText } from '../failures.ts'
import { TRUE_OR_FALSE } from '../options.ts'
import { type Outcome, type Result, sameOutcome } from '../results.ts'
import { NOT_RUN, WITHHELD_PREFIX } from '../texts.ts'
import type { Entry, Found, Seen } from './rule.ts'

/**
 * The result `deny` hands this rule for a call that may fail as the latest call did (`unsure`): read
 * as that failure, whose text only the rule's state keeps.
 */
const LIKE_LATEST: Result = { isError: true, content: [] }

/** How many calls to one tool that fail the same way with other arguments are fair. */
const FAIR_FAILURES = 2

/** A run of calls to one tool that failed with the same error, ending with `call`. */
export interface FailureVerdict extends Found {
  readonly kind: 'failure'
  readonly call: Call
  /** The error, quoted short. */
  readonly error: string
}

/** What a call was, as this rule compares it with the next: its tool, its outcome, and whether it failed. */
interface Tried {
  tool: string
  outcome: Outcome
  failed: boolean
}

interface Failures {
  /** The agent's latest tracked call, as this rule compares it. */
  latest: Tried
  /**
   * How many calls in a row, the latest last, failed as the latest did; read only once the latest
   * failed, and 1 for a call that goes on no run of failures.
   */
  failures: number
  /** Whether the run went on through a call with other arguments that failed the same way. */
  failing: boolean
}

/** What a reminder and a withheld result about the same failure say of it: the calls, and the error quoted. */
function failedAlike(tool: string, length: number, error: string): string {
  return `your last ${length} calls to \`${tool}\` failed with the same error, whatever their arguments:\n${error}`
}

/** The reminder for calls to one tool that failed the same way, whatever their arguments. */
export function failureReminder(tool: string, length: number, error: string): string {
  return (
    `Reminder: ${failedAlike(tool, length, error)}\n` +
    'Another call like them will fail the same way. Read the error and deal with its cause, ' +
    'or take a different approach.'
  )
}

/**
 * What the feedback for a withheld result of a call that failed as the calls before it did, whatever
 * their arguments, says instead: the calls were not identical, and it does not say so.
 */
export function withheldFailureFeedback(
  tool: string,
  length: number,
  error: string,
  { ran = true }: { ran?: boolean } = {},
): string {
  return (
    `${WITHHELD_PREFIX}${failedAlike(tool, length, error)}\n` +
    (ran ? 'This call failed the same way; its result is not shown again.' : NOT_RUN) +
    ' Deal with the cause of the error, or take a different approach, before calling it again.'
  )
}

const options = {
  sameFailure: option(
    Schema.boolean(),
    false,
    'Opt-in: calls to one tool failing in a row with the same error are a run, whatever their arguments.',
    TRUE_OR_FALSE,
  ),
}

/** The same-failure rule's entry. */
export const failure: Entry<typeof options, FailureVerdict> = {
  phase: 'loop',
  options,
  kind: 'failure',
  texts: {
    mark: ' (same failure)',
    notice: (loop) => failureReminder(loop.call.tool, loop.length, loop.error),
    withheld: (loop, ran) => withheldFailureFeedback(loop.call.tool, loop.length, loop.error, { ran }),
  },
  candidate: { sameFailure: true },
  make(config) {
    if (!config.sameFailure) return undefined
    const compared = comparison(config)
    const tried = ({ call, result }: Pick<Seen, 'call' | 'result'>): Tried => ({
      tool: call.tool,
      outcome: compared.outcome(call, result),
      failed: failed(result.isError, result.content),
    })
    return {
      phase: 'loop',
      start: (first): Failures => ({ latest: tried(first), failures: 1, failing: false }),
      copy: (state: Failures) => ({ ...state }),
      link(state: Failures, seen) {
        const now = seen.result === LIKE_LATEST ? state.latest : tried(seen)
        const alike = failsAlike(state.latest, now)
        state.latest = now
        state.failures = alike ? state.failures + 1 : 1
        seen.continues = state.failing ? alike : seen.continues || alike
        if (!seen.continues) state.failing = false
        else if (!seen.repeats && !state.failing) {
          // A run of failures starts inside a run of identical calls: it counts only the calls that failed this way.
          state.failing = true
          seen.from = state.failures
        }
      },
      step(state: Failures, { call }, found) {
        if (!state.failing) return undefined
        const { run, length, resumed } = found
        const error = failureText(state.latest.outcome)
        const measured = length - FAIR_FAILURES + 1
        return { kind: 'failure', call, calls: [call], run, length, measured, complete: true, resumed, error }
      },
      // A call to the latest call's tool may fail as that one did (if it did), going on with a run of failures.
      unsure: ({ latest }: Failures, call) => (latest.tool === call.tool ? LIKE_LATEST : undefined),
    }
  },
}

/** Whether `b` fails as `a` did: a call to the same tool with the same error text, whatever the arguments. */
function failsAlike(a: Tried, b: Tried): boolean {
  return a.tool === b.tool && b.failed && sameOutcome(a.outcome, b.outcome)
}
