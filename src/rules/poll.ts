/**
 * The busy poll, wherever outcomes are compared (`resultAware`): a run of
 * non-blocking reads of a background job that is still running. Two quick
 * checks are fair, so the run is measured one read late: with the default
 * thresholds it is reminded at its 4th, 6th and 9th read.
 */
import { argumentsPreview } from '../arguments.ts'
import type { Call } from '../compare.ts'
import { jobOf } from '../results.ts'
import { inARow, type Wording, WITHHELD_PREFIX, wording } from '../texts.ts'
import type { Entry, Found, NoOptions } from './rule.ts'

/** How many reads of a job still running are fair before a busy poll counts as a repeat. */
const FAIR_POLLS = 2

/** A run of reads of a job still running, ending with `call`. */
export interface PollVerdict extends Found {
  readonly kind: 'poll'
  readonly call: Call
  /** The job's id as the calls name it, quoted short. */
  readonly job: string
}

/** The short reminder for a busy poll, at the first threshold. */
export function shortPollReminder(job: string, wording: Wording = {}): string {
  return (
    `Reminder: background job \`${job}\` is still running, and you keep ` +
    `reading it without waiting${wording.resumed ? ', coming back to it after other calls' : ''}: ` +
    `each read only shows that it has not finished. ` +
    'dsh tells you in this session when it finishes. Until then, work on steps that do not need it, ' +
    'or, if you are blocked on it, read it once with `wait: true`.'
  )
}

/**
 * The detailed reminder for a busy poll, at every later threshold, quoting the read's arguments on
 * a line of their own as every detailed text does.
 */
export function detailedPollReminder(
  job: string,
  length: number,
  argumentsPreview: string,
  wording: Wording = {},
): string {
  return (
    `Reminder: you have read background job \`${job}\` ${length} times${inARow(wording)} ` +
    `while it is still running, and no read has shown it finished:\n` +
    `${argumentsPreview}\n` +
    "Stop polling it: dsh announces the job's completion in this session, and wakes you for it if you are idle. " +
    'Work on steps that do not depend on it; if you cannot go on without ' +
    'its result, call `job_output` with `wait: true` ' +
    '(and `timeout_ms` for a bound) instead of reading it again. Use `job_kill` if it no longer matters.'
  )
}

/** What the feedback for a withheld read of a job still running says instead. */
export function withheldPollFeedback(job: string, length: number, wording: Wording = {}): string {
  return (
    `${WITHHELD_PREFIX}you have read background job \`${job}\` ${length} ` +
    `times${inARow(wording)} while it is still running. ` +
    'The read did run, but its output is not shown: the job has not finished. ' +
    'dsh announces its completion in this session; ' +
    'work on other steps until then, or read it once with `wait: true` if you are blocked on it.'
  )
}

/** The busy poll's entry: always on, it judges only calls whose outcomes are compared. */
export const poll: Entry<NoOptions, PollVerdict> = {
  phase: 'loop',
  options: {},
  kind: 'poll',
  texts: {
    mark: ' (busy poll)',
    notice(loop, { first, cap }) {
      const { call, job, length } = loop
      const how = wording(loop)
      return first
        ? shortPollReminder(job, how)
        : detailedPollReminder(job, length, argumentsPreview(call.args, cap, call.ignored), how)
    },
    // A read always runs: its tool compares outcomes, so it is never denied before it does.
    withheld: (loop) => withheldPollFeedback(loop.job, loop.length, wording(loop)),
  },
  make: ({ argumentsPreviewChars: cap }) => ({
    phase: 'loop',
    start: () => undefined,
    copy: () => undefined,
    step(_, { call }, found) {
      if (call.outcome?.running === undefined) return undefined
      const { run, length, complete, resumed } = found
      const measured = length - FAIR_POLLS + 1
      return { kind: 'poll', call, calls: [call], run, length, measured, complete, resumed, job: jobOf(call.args, cap) }
    },
  }),
}
