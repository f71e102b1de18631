/**
 * The busy poll, wherever outcomes are compared (`resultAware`): a run of
 * non-blocking reads of a background job that is still running. Two quick checks are fair, so the run is measured one
 * read late: with the default thresholds it is reminded at its 4th, 6th and
 * 9th read.
 */
import { jobOf } from '../results.ts'
import type { Rule } from './rule.ts'

/** How many reads of a job still running are fair before a busy poll counts as a repeat. */
const FAIR_POLLS = 2

/** The busy poll's rule; it quotes the job within `cap` code units. */
export function poll(cap: number): Rule<undefined> {
  return {
    phase: 'loop',
    start: () => undefined,
    copy: () => undefined,
    step(_, { call, found }) {
      if (call.outcome?.running === undefined) return undefined
      const loop = found!
      loop.kind = 'poll'
      loop.measured = loop.length - FAIR_POLLS + 1
      loop.job = jobOf(call.args, cap)
      return loop
    },
  }
}
