/**
 * `relapse`: a run that comes back after other calls goes on counting where
 * it stopped. Remembers the latest runs that other calls interrupted.
 */
import type { Call } from '../compare.ts'
import type { Rule } from './rule.ts'

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

/** The relapse rule. */
export const relapse: Rule<Relapse> = {
  phase: 'loop',
  start: () => ({ runLength: 1, resumed: false, interrupted: [] }),
  copy: (state) => ({ ...state, interrupted: [...state.interrupted] }),
  step(state, { call, latest, continues, from, same, found }) {
    if (continues) state.runLength = from ?? state.runLength + 1
    else {
      const back = resume(state, latest, call, same)
      state.runLength = (back ?? 0) + 1
      state.resumed = back !== undefined
    }
    const loop = found!
    loop.length = loop.measured = state.runLength
    loop.resumed = state.resumed
    return loop
  },
}

/**
 * Remember the run `latest` ends, which `call` interrupts, and take back the one `call` resumes;
 * resolve to its run length.
 */
function resume(state: Relapse, latest: Call, call: Call, same: (a: Call, b: Call) => boolean): number | undefined {
  const { interrupted } = state
  const at = interrupted.findIndex((earlier) => same(earlier.call, call))
  const back = at < 0 ? undefined : interrupted.splice(at, 1)[0]!.runLength
  interrupted.push({ call: latest, runLength: state.runLength })
  if (interrupted.length > RELAPSE_MEMORY) interrupted.shift()
  return back
}
