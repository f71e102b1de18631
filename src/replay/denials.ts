/**
 * Which calls of a session were denied before they ran, as its log tells: this
 * plugin's withheld feedback says so in its text; a call refused approval is
 * read from the audit events
 * `@deepseek-ai/dsh-user-approval` logs: an `approval/asked` about a call, then
 * its `approval/decided`. Anything but a grant (`rejected`, `cancelled`,
 * `unavailable`) denies the call before its tool runs. A question about no
 * call, or an outcome of a question never asked, is left out.
 */
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import { textOf } from '../results.ts'
import { deniedBeforeRunning } from '../texts.ts'

/** Which calls were refused approval. */
export class Approvals {
  /** Per question asked about a call, that call's id. */
  private readonly asks = new Map<unknown, string>()
  /** The calls refused approval; an outcome of a question never asked adds nothing a call is. */
  private readonly refused = new Set<string | undefined>()

  /** Take one event in; events of other types are left out. */
  read(type: string, { id, callId, outcome }: Record<string, unknown>): void {
    if (type === 'approval/asked' && typeof id === 'string' && typeof callId === 'string') this.asks.set(id, callId)
    if (type === 'approval/decided' && outcome !== 'allowed-once') this.refused.add(this.asks.get(id))
  }

  /** Whether the call's tool ran, as far as approvals tell: false for a call refused approval. */
  ran(callId: string): boolean {
    return !this.refused.has(callId)
  }
}

/**
 * Whether a result is this plugin's withheld feedback: true for a call denied before it could run,
 * false for one that ran; undefined when it is not.
 */
export function deniedOf(content: readonly ContentBlock[]): boolean | undefined {
  const only = content.length === 1 ? textOf(content[0]) : undefined
  return only === undefined ? undefined : deniedBeforeRunning(only)
}
