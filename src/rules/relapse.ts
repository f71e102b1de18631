/**
 * `relapse`: a run that comes back after other calls goes on counting where
 * it stopped. Remembers the latest runs that other calls interrupted. A
 * resumed run is still an identical run: its verdict and texts are the run's,
 * worded as coming back to it.
 */
import Schema from '@deepseek-ai/schemastery'
import { option } from '../checks.ts'
import type { Call } from '../compare.ts'
import { TRUE_OR_FALSE } from '../options.ts'
import type { Entry, Seen } from './rule.ts'
import { type RunVerdict, runTexts } from './run.ts'

/**
 * How many interrupted runs each agent remembers: enough to come back after a detour of several
 * distinct calls, few enough that each call compares against a handful.
 */
export const RELAPSE_MEMORY = 8

interface Relapse {
  /** The run's length as reminders count it: its calls in a row, plus the stretches it resumed. */
  runLength: number
  /** Whether the run resumed after other calls. */
  resumed: boolean
  /** The latest interrupted runs, oldest first, at most {@link RELAPSE_MEMORY}; a call is in it at most once. */
  interrupted: { call: Call; runLength: number }[]
}

const options = {
  relapse: option(
    Schema.boolean(),
    false,
    'Opt-in: a run interrupted by other calls goes on when the call comes back.',
    TRUE_OR_FALSE,
  ),
}

/** The relapse rule's entry. */
export const relapse: Entry<typeof options, RunVerdict> = {
  phase: 'loop',
  options,
  kind: 'run',
  texts: runTexts,
  candidate: { relapse: true },
  make: (config) =>
    config.relapse
      ? {
          phase: 'loop',
          start: (): Relapse => ({ runLength: 1, resumed: false, interrupted: [] }),
          copy: (state: Relapse) => ({ ...state, interrupted: [...state.interrupted] }),
          step: (state: Relapse, seen: Seen, found) => {
            const { call, latest, continues, from, same } = seen
            if (continues) state.runLength = from ?? state.runLength + 1
            else {
              const back = resume(state, latest, call, same)
              state.runLength = (back ?? 0) + 1
              state.resumed = back !== undefined
            }
            // Until a run resumes it counts as the identical run does: that verdict stands.
            if (!state.resumed) return undefined
            const length = state.runLength
            return { ...found, kind: 'run', call, length, measured: length, resumed: true }
          },
        }
      : undefined,
}

/**
 * Remember the run `latest` ends, which `call` interrupts, and take back the one `call` resumes;
 * resolve to its run length.
 */
function resume(state: Relapse, latest: Call, call: Call, same: (a: Call, b: Call) => boolean): number | undefined {
  const { interrupted } = state
  const resumed = interrupted.find((earlier) => same(earlier.call, call))
  if (resumed !== undefined) interrupted.splice(interrupted.indexOf(resumed), 1)
  interrupted.push({ call: latest, runLength: state.runLength })
  if (interrupted.length > RELAPSE_MEMORY) interrupted.shift()
  return resumed?.runLength
}
