/**
 * What looping cost in one session: the repeated calls, the characters of
 * their arguments and results, and the tokens of the model responses that made
 * them, each response counted once. Pure.
 */
import { canonical } from '../arguments.ts'
import type { LoggedCall, Transcript } from './transcript.ts'

/**
 * The waste: calls made inside runs past their first call (or cycle
 * repetition), the characters of their raw arguments and logged result content
 * (JSON), and the tokens of the model responses that made them, each response
 * once. Tokens are null when a response that made such a call has no usage in the log.
 */
export interface LoopCost {
  calls: number
  argumentChars: number
  resultChars: number
  /** The model responses that made those calls. */
  responses: number
  inputTokens: number | null
  outputTokens: number | null
}

/** The cost of looping as calls are added: each call once, each model response's tokens once. */
export class Cost {
  private readonly responses = new Set<number>()
  private readonly sum = { calls: 0, argumentChars: 0, resultChars: 0 }
  private readonly transcript: Transcript

  constructor(transcript: Transcript) {
    this.transcript = transcript
  }

  /** Count a repeated call, and the response that made it. */
  add(call: LoggedCall): void {
    this.sum.calls++
    this.sum.argumentChars += call.raw.length
    this.sum.resultChars += written(call.logged)
    this.responses.add(call.response)
  }

  /** What the calls added so far cost. */
  total(): LoopCost {
    let inputTokens = 0
    let outputTokens = 0
    for (const response of this.responses) {
      const usage = this.transcript.usage[response]
      // A response whose usage the log does not have leaves the session's tokens unknown.
      if (usage === undefined)
        return { ...this.sum, responses: this.responses.size, inputTokens: null, outputTokens: null }
      inputTokens += usage.inputTokens
      outputTokens += usage.outputTokens
    }
    return { ...this.sum, responses: this.responses.size, inputTokens, outputTokens }
  }
}

/**
 * How many characters a logged result takes as JSON: as `JSON.stringify` writes it, or, for one
 * nested deeper than it goes, in canonical form (the same characters, keys in another order).
 */
function written(content: readonly unknown[]): number {
  try {
    return JSON.stringify(content).length
  } catch {
    return canonical(content, []).length
  }
}
