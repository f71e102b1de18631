/**
 * `rejectedCalls`: a call sent again unchanged (after `ignoreArguments`) after
 * a `tools/pre-execute` listener denied it, since the user's last message. A
 * denial is final for that call: the user said no, a policy said no, or this
 * plugin withheld the call as a repeat; the same call asked again gets the
 * same answer, or does what was refused. It is reminded at once, whatever the
 * thresholds, and its reminder names the denial; it is never withheld for
 * this. A call was denied when its tool never ran (the plugin then watches
 * `tools/execute`).
 */
import Schema from '@deepseek-ai/schemastery'
import { preview } from '../arguments.ts'
import { option } from '../checks.ts'
import { type Call, comparison } from '../compare.ts'
import { TRUE_OR_FALSE } from '../options.ts'
import { textOf } from '../results.ts'
import { deniedBeforeRunning } from '../texts.ts'
import { adviceOn, type Entry, type Found, type Seen } from './rule.ts'

/**
 * How many denied calls each agent remembers until the user's next message: the latest ones. A
 * model that is refused more often than this in one stretch is told about the latest.
 */
export const DENIALS_KEPT = 16

/** How a denial's reason starts when the user said no through dsh's approval seam. */
const USER_REJECTED = 'the user rejected tool '

/** The most characters of a denial's reason a reminder quotes. */
const REASON_CHARS = 200

/** Who denied a call, as its reason says: the user, this plugin (`blockAt`), or any other listener. */
type Denier = 'user' | 'guard' | 'policy'

/** A call sent again after it was denied, ending with `call`. */
export interface RejectedVerdict extends Found {
  readonly kind: 'rejected'
  readonly call: Call
  /** How many tracked calls back the latest denial of the same call is. */
  readonly back: number
  readonly by: Denier
  /** The denial's reason as the model read it, without dsh's `Error: `. */
  readonly reason: string
}

/** One denied call as this rule remembers it: where it stood, who denied it and why. */
interface Denial {
  readonly call: Call
  readonly at: number
  readonly by: Denier
  readonly reason: string
}

interface Denials {
  /** The agent's tracked calls since its state started, this one included. */
  count: number
  /** The latest denied calls, oldest first, at most {@link DENIALS_KEPT}; a call is in it at most once. */
  denials: Denial[]
}

/** What a reminder says of who denied the call. */
function deniedBy(by: Denier, reason: string): string {
  if (by === 'user') return 'the user rejected it'
  if (by === 'guard') return 'this plugin withheld it as a repeat'
  return reason === '' ? 'it was denied' : `it was denied (${JSON.stringify(reason)})`
}

/** The reminder for a call sent again unchanged after it was denied `back` calls ago. */
export function rejectedText(tool: string, back: number, by: Denier, reason: string): string {
  return (
    `Reminder: this \`${tool}\` call is the one denied ${back === 1 ? 'just before' : `${back} calls ago`}, ` +
    `before it could run: ${deniedBy(by, reason)}. Sending it again unchanged does not change the answer. ` +
    'Ask the user how they want to go on, or take a different approach.'
  )
}

/** A denial as the model read it: its reason, and who gave it. */
function denialOf({ call, result }: Pick<Seen, 'call' | 'result'>, at: number): Denial {
  // dsh writes a denial as one text block: `Error: ` and the reason.
  const text = (textOf(result.content[0]) ?? '').replace(/^Error: /, '')
  const by = text.startsWith(USER_REJECTED) ? 'user' : deniedBeforeRunning(text) === undefined ? 'policy' : 'guard'
  return { call, at, by, reason: preview(text, REASON_CHARS) }
}

const options = {
  rejectedCalls: option(
    Schema.boolean(),
    false,
    "Opt-in: remind at once a denied call sent again unchanged, until the user's next message.",
    TRUE_OR_FALSE,
  ),
}

/** The rejected-call rule's entry: advice that outranks a loop's reminder, since it says why the loop goes nowhere. */
export const rejected: Entry<typeof options, RejectedVerdict, 'advice'> = {
  phase: 'advice',
  options,
  kind: 'rejected',
  texts: {
    mark: ' (rejected)',
    notice: ({ call, back, by, reason }) => rejectedText(call.tool, back, by, reason),
  },
  candidate: { rejectedCalls: true },
  make(config) {
    if (!config.rejectedCalls) return undefined
    const compared = comparison(config)
    /** Remember `seen` when it was denied: in place of any earlier denial of the same call. */
    const remember = (state: Denials, seen: Pick<Seen, 'call' | 'result' | 'ran'>, earlier: Denial | undefined) => {
      if (seen.ran) return
      if (earlier !== undefined) state.denials.splice(state.denials.indexOf(earlier), 1)
      state.denials.push(denialOf(seen, state.count))
      if (state.denials.length > DENIALS_KEPT) state.denials.shift()
    }
    return {
      phase: 'advice',
      watchesDispatch: true,
      outranks: true,
      start(first): Denials {
        const state = { count: 1, denials: [] }
        remember(state, first, undefined)
        return state
      },
      copy: (state: Denials) => ({ count: state.count, denials: [...state.denials] }),
      step(state: Denials, seen, found) {
        state.count++
        const { call } = seen
        const earlier = state.denials.findLast((d) => compared.sameCall(d.call, call))
        remember(state, seen, earlier)
        if (earlier === undefined) return undefined
        const { by, reason } = earlier
        const back = state.count - earlier.at
        return { kind: 'rejected', ...adviceOn(call, found, 2), back, by, reason }
      },
    }
  },
}
