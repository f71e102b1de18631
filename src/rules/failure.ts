/**
 * `sameFailure`: calls to one tool that fail with the same error, whatever
 * their arguments. Such a call goes on with the run, and once a call with other
 * arguments has, the run goes on only through calls that fail that way: a call
 * that succeeds ends it. Two tries are fair, so the run is measured one call
 * late: with thresholds 2, 4, 7 it is reminded at its 3rd, 5th and 8th call.
 */
import type { Call } from '../compare.ts'
import { failureText } from '../failures.ts'
import { sameOutcome } from '../results.ts'
import type { Rule } from './rule.ts'

/** How many calls to one tool that fail the same way with other arguments are fair. */
const FAIR_FAILURES = 2

interface Failures {
  /**
   * How many calls in a row, the latest last, failed as the latest did; read only once the latest
   * failed, and 1 for a call that goes on no run of failures.
   */
  failures: number
  /** Whether the run went on through a call with other arguments that failed the same way. */
  failing: boolean
}

/** The same-failure rule. */
export const failure: Rule<Failures> = {
  phase: 'loop',
  start: () => ({ failures: 1, failing: false }),
  copy: (state) => ({ ...state }),
  link(state, seen) {
    const { call, latest, repeats } = seen
    const alike = failsAlike(latest, call)
    state.failures = alike ? state.failures + 1 : 1
    seen.continues = state.failing ? alike : seen.continues || alike
    if (!seen.continues) state.failing = false
    else if (!repeats && !state.failing) {
      // A run of failures starts inside a run of identical calls: it counts only the calls that failed this way.
      state.failing = true
      seen.from = state.failures
    }
  },
  step(state, { call, found }) {
    if (!state.failing) return undefined
    const loop = found!
    loop.kind = 'failure'
    loop.measured = loop.length - FAIR_FAILURES + 1
    loop.failure = failureText(call.seen)
    return loop
  },
}

/** Whether `b` fails as `a` did: a call to the same tool with the same error text, whatever the arguments. */
function failsAlike(a: Call, b: Call): boolean {
  return a.tool === b.tool && b.failed === true && sameOutcome(a.seen, b.seen)
}
