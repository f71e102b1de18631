/**
 * `cycles`: from one agent's latest calls and the streak of each period,
 * whether a call continues an exact repeating cycle of 2 to `maxCyclePeriod`
 * distinct calls, and how far it has gone. A cycle's verdict replaces the run's.
 */
import Schema from '@deepseek-ai/schemastery'
import { argumentsPreview } from '../arguments.ts'
import { option } from '../checks.ts'
import type { Call } from '../compare.ts'
import { TRUE_OR_FALSE } from '../options.ts'
import { identical, type Wording, withheldLoop, wording } from '../texts.ts'
import type { Entry, Found } from './rule.ts'

/** The largest `maxCyclePeriod`: the most calls apart that two calls the guard compares can be. */
export const LONGEST_CYCLE = 8

/** A repeating cycle of distinct calls: `calls` in the order it opened, `length` its complete repetitions. */
export interface CycleVerdict extends Found {
  readonly kind: 'cycle'
}

/** The reminder for a repeating cycle; `calls` are the tools in order with their argument previews. */
export function cycleReminder(
  calls: { tool: string; preview: string }[],
  length: number,
  wording: Wording = {},
): string {
  const { sameResults = false } = wording
  return (
    `Reminder: you are repeating the same sequence of ${calls.length} ` +
    `tool calls with ${identical(wording)}${sameResults ? ' and identical results' : ''}; ` +
    `it has now run ${length} times in a row:\n` +
    calls.map((call, i) => `${i + 1}. ${call.tool} ${call.preview}\n`).join('') +
    'This sequence is making no progress. Do not run it again with the same arguments. ' +
    'Inspect the latest results and choose a different action or different arguments, ' +
    'or finish if you already have enough evidence.'
  )
}

/** The shortest cycle: two distinct calls in turn. */
const FIRST_PERIOD = 2

const options = {
  cycles: option(Schema.boolean(), false, 'Opt-in: also recognise repeating cycles of distinct calls.', TRUE_OR_FALSE),
  maxCyclePeriod: option(
    Schema.natural().min(2).max(LONGEST_CYCLE),
    4,
    'The longest cycle, in distinct calls, that `cycles` looks for.',
    { value: `must be an integer from 2 to ${LONGEST_CYCLE}` },
  ),
}

/** The cycle rule's entry. */
export const cycle: Entry<typeof options, CycleVerdict> = {
  phase: 'loop',
  options,
  kind: 'cycle',
  texts: {
    mark: '',
    notice: (loop, { cap }) =>
      cycleReminder(
        loop.calls.map((c) => ({ tool: c.tool, preview: argumentsPreview(c.args, cap, c.ignored) })),
        loop.length,
        wording(loop),
      ),
    withheld: withheldLoop,
  },
  candidate: { cycles: true },
  make: ({ cycles, maxCyclePeriod }) =>
    cycles
      ? {
          phase: 'loop',
          start: (first): CycleState => ({
            recent: [first.call],
            streaks: Array.from({ length: maxCyclePeriod - FIRST_PERIOD + 1 }, () => 0),
            period: 0,
          }),
          copy: (state: CycleState) => ({
            recent: [...state.recent],
            streaks: [...state.streaks],
            period: state.period,
          }),
          step(state: CycleState, { call, continues, same }, found) {
            const cycle = nextCycle(state, call, continues, maxCyclePeriod, same)
            if (cycle === undefined) return undefined
            const { run, resumed } = found
            const { calls, length, complete } = cycle
            return { kind: 'cycle', calls, run, length, measured: length, complete, resumed }
          },
        }
      : undefined,
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
  /** `streaks[p - FIRST_PERIOD]`: how many calls in a row equalled the call `p` places before them. */
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
  const { recent } = state
  // Set on every call after the first, so a period with a call `p` back already has a streak.
  state.streaks = state.streaks.map((streak, i) => {
    const before = recent.at(-i - FIRST_PERIOD)
    return !identical && before !== undefined && same(before, call) ? streak + 1 : 0
  })
  recent.push(call)
  if (recent.length > maxCyclePeriod) recent.shift()
  if (state.streaks.some((streak, i) => i + FIRST_PERIOD === state.period && streak < state.period)) state.period = 0
  for (const [n, streak] of state.streaks.entries()) {
    const p = n + FIRST_PERIOD
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
