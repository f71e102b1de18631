/**
 * The identical run, always on: how many calls in a row repeat the call
 * before them. Every other rule refines the verdict it gives.
 */
import type { Rule } from './rule.ts'

/** The identical run's rule. */
export const run: Rule<{ inARow: number }> = {
  phase: 'loop',
  start: () => ({ inARow: 1 }),
  copy: (state) => ({ ...state }),
  step(state, { call, continues, from }) {
    state.inARow = continues ? (from ?? state.inARow + 1) : 1
    const { inARow } = state
    return {
      kind: 'run',
      calls: [call],
      run: inARow,
      length: inARow,
      measured: inARow,
      complete: true,
      resumed: false,
    }
  },
}
