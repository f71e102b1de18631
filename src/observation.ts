/** What the guard finds at one tracked call, as the listeners and replay read it. */
import type { ContentBlock, UserMessage } from '@deepseek-ai/dsh-llm'
import type { Cycle } from './rules/cycle.ts'
import type { Verdict } from './rules/index.ts'

/** One tracked call's effect: the loop it extends, and what the live listener attaches to it. */
export interface Observation {
  /** How many identical calls in a row this call makes, itself included. */
  inARow: number
  /** The repeating cycle of distinct calls this call is part of, if the cycle rule is on and finds one. */
  cycle: Cycle | undefined
  /** The loop the reminder due at this call is about, as data; undefined when none is due. */
  reminded: Verdict | undefined
  /** The reminder due at this call, if any: written from {@link reminded}. */
  reminder: UserMessage | undefined
  /** With `blockAt`: the feedback that replaces this call's result, if it is withheld. */
  withheld: ContentBlock[] | undefined
  /**
   * Whether a withheld call is one `deny` turns away before it runs (its tool compares no
   * outcomes), calls taken one at a time.
   */
  deniable: boolean
}

/** What an agent's first tracked call is: the first of a run, in no cycle, with nothing due. */
export const FIRST: Readonly<Observation> = {
  inARow: 1,
  cycle: undefined,
  reminded: undefined,
  reminder: undefined,
  withheld: undefined,
  deniable: false,
}
