/**
 * `cycles`: from one agent's latest calls and the streak of each period,
 * whether a call continues an exact repeating cycle of 2 to `maxCyclePeriod`
 * distinct calls, and how far it has gone. A cycle's loop replaces the run's.
 */
import type { Call } from '../compare.ts'
import type { Rule } from './rule.ts'

/** The cycle rule, for cycles of at most `maxCyclePeriod` calls. */
export function cycle(maxCyclePeriod: number): Rule<CycleState> {
  return {
    phase: 'loop',
    start: (call) => ({ recent: [call], streaks: [], period: 0 }),
    copy: (state) => ({ recent: [...state.recent], streaks: [...state.streaks], period: state.period }),
    step(state, { call, continues, same, found }) {
      const cycle = nextCycle(state, call, continues, maxCyclePeriod, same)
      if (cycle === undefined) return undefined
      const loop = found!
      loop.kind = 'cycle'
      loop.calls = cycle.calls
      loop.length = loop.measured = cycle.length
      loop.complete = cycle.complete
      loop.job = undefined
      return loop
    },
  }
}

/**
 * A repeating cycle of distinct calls a call is part of: its calls in the order it opened, and its
 * length: its complete repetitions so far.
 */
export interface Cycle {
  calls: readonly Call[]
  /** The cycle's complete repetitions. */
  length: number
  /** Whether this call completes a repetition, the only moment a reminder can be due. */
  complete: boolean
}

/** What cycle detection remembers of an agent: its latest calls, each period's streak, and the cycle last confirmed. */
interface CycleState {
  /** The latest tracked calls, oldest first, at most `maxCyclePeriod` of them. */
  recent: Call[]
  /** `streaks[p]`: how many calls in a row equalled the call `p` places before them. */
  streaks: number[]
  /** The period of the cycle last confirmed to be of distinct calls while its streak lasts; 0 for none. */
  period: number
}

/**
 * Advance `state` with `call` (`identical` when it repeats the call right
 * before it, which no cycle continues): track every period's streak, and
 * return the shortest cycle of distinct calls that has repeated, if any.
 */
function nextCycle(
  state: CycleState,
  call: Call,
  identical: boolean,
  maxCyclePeriod: number,
  same: (a: Call, b: Call) => boolean,
): Cycle | undefined {
  const { recent, streaks } = state
  for (let p = 2; p <= maxCyclePeriod; p++) {
    const before = recent[recent.length - p]
    // Set on every call after the first, so a period with a call `p` back already has a streak.
    streaks[p] = !identical && before !== undefined && same(before, call) ? streaks[p]! + 1 : 0
  }
  recent.push(call)
  if (recent.length > maxCyclePeriod) recent.shift()
  if (state.period > 0 && streaks[state.period]! < state.period) state.period = 0
  for (let p = 2; p <= maxCyclePeriod; p++) {
    const streak = streaks[p]!
    if (streak < p) continue
    const window = recent.slice(-p)
    // While a confirmed cycle's streak lasts its calls are the same ones, so distinct still.
    if (p === state.period || window.every((a, i) => window.every((b, j) => j <= i || !same(a, b)))) {
      state.period = p
      // The window ends at this call; turn it so the cycle's opening call comes first.
      const opening = (p - (streak % p)) % p
      return {
        calls: [...window.slice(opening), ...window.slice(0, opening)],
        length: Math.floor(streak / p) + 1,
        complete: streak % p === 0,
      }
    }
  }
  return undefined
}
