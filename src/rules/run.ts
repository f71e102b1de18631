/**
 * The identical run, always on: how many calls in a row repeat the call
 * before them. Its texts are the stock plugin's: the short reminder at the
 * first threshold, the detailed one later.
 */
import { argumentsPreview } from '../arguments.ts'
import type { Call } from '../compare.ts'
import { identical, inARow, type Wording, withheldLoop, wording } from '../texts.ts'
import type { Entry, Found, NoOptions } from './rule.ts'

/** A run of identical calls, ending with `call`. */
export interface RunVerdict extends Found {
  readonly kind: 'run'
  readonly call: Call
}

/** The short reminder at the first threshold. */
export function shortReminder(wording: Wording = {}): string {
  const { sameResults = false } = wording
  return (
    `Reminder: you are repeating the exact same tool call with ${identical(wording)}` +
    `${wording.resumed ? ', coming back to it after other calls' : ''}` +
    `${sameResults ? ', and it keeps returning the same result' : ''}. ` +
    'Study its last result. If the task is not done, change your approach or your arguments ' +
    'instead of making the same call again.'
  )
}

/** The detailed reminder at every later threshold. */
export function detailedReminder(
  tool: string,
  length: number,
  argumentsPreview: string,
  wording: Wording = {},
): string {
  const { sameResults = false } = wording
  return (
    `Reminder: you have called \`${tool}\` ${length} times${inARow(wording)} ` +
    `with ${identical(wording)}${sameResults ? ' and got the same result each time' : ''}:\n` +
    `${argumentsPreview}\n` +
    'These repeats are making no progress. Do not call this tool with these exact arguments again. ' +
    'Inspect the latest result and choose a different action or different arguments, ' +
    'or finish if you already have enough evidence.'
  )
}

/** What the model reads of an identical run. */
export const runTexts: Entry<NoOptions, RunVerdict>['texts'] = {
  mark: '',
  notice(loop, { first, cap }) {
    const { call } = loop
    const how = wording(loop)
    return first
      ? shortReminder(how)
      : detailedReminder(call.tool, loop.length, argumentsPreview(call.args, cap, call.ignored), how)
  },
  withheld: withheldLoop,
}

/** The identical run's rule. */
export const run: Entry<NoOptions, RunVerdict> = {
  phase: 'loop',
  options: {},
  kind: 'run',
  texts: runTexts,
  make: () => ({
    phase: 'loop',
    start: () => ({ inARow: 1 }),
    copy: (state: { inARow: number }) => ({ ...state }),
    step(state: { inARow: number }, { call, continues, from }) {
      state.inARow = continues ? (from ?? state.inARow + 1) : 1
      const { inARow } = state
      return {
        kind: 'run',
        call,
        calls: [call],
        run: inARow,
        length: inARow,
        measured: inARow,
        complete: true,
        resumed: false,
      }
    },
  }),
}
