/**
 * A result the model already has (`rereads`): a read of files or folders that
 * returns what the same read, or a `bash` read asking the same in other words,
 * returned 2 to 6 calls back, with no call between them that could have
 * changed what it reads. Only a read of the workspace asks a question twice: a
 * `readOnlyTools` tool or a `bash` command the allowlist proves only reads;
 * never a job's output, a writer, a state setter, nor a read of what changes by
 * itself. Which calls change nothing: those reads, the `navigationTools`, and,
 * before a `bash` read, commands that only write files it cannot read, paths
 * compared as paths (`paths.ts`). Two
 * other commands that both came back empty are never one question. Two kinds
 * of repeat are left alone, as the labeled loops show them to be navigation:
 * any call to a navigation tool (its result depends on where the view is), and
 * a view of a file (`cat`, `sed -n`, `read`) coming back to it after viewing
 * another file.
 */
import Schema from '@deepseek-ai/schemastery'
import { argumentsPreview } from '../arguments.ts'
import { option } from '../checks.ts'
import { type Call, type Comparison, comparison } from '../compare.ts'
import { isEmpty } from '../failures.ts'
import { TRUE_OR_FALSE } from '../options.ts'
import { type Reads, readsUnder, sameQuestion, untouched, viewsOther } from '../reads.ts'
import { JOB_READ, type Outcome, sameOutcome } from '../results.ts'
import { adviceOn, type Entry, type Found, type Seen } from './rule.ts'

/** How far back a reread is looked for: a call that returns what one of the 6 calls before it returned. */
const REREAD_WINDOW = 6

/** A call that returned what a call 2 to 6 calls back returned, ending with `call`. */
export interface RereadVerdict extends Found {
  readonly kind: 'reread'
  readonly call: Call
  /** How many calls back the call it repeats is. */
  readonly back: number
  /** The earlier call, when it asked in other words (a `bash` read asking the same question). */
  readonly otherWords: Call | undefined
}

/**
 * The reminder for a call that returned what an earlier call returned, with nothing between them
 * changing anything, 2 to 6 calls back; `earlier` is that call, quoted, when it asked in other words.
 */
export function rereadText(back: number, earlier?: string): string {
  const asked =
    earlier === undefined
      ? `this call returned exactly what the same call returned ${back} calls ago`
      : `this call asked, in other words, what the call ${back} calls ` +
        `ago asked (${earlier}), and returned exactly the same`
  return (
    `Reminder: ${asked}, and no call between them changed anything. ` +
    'You already had this result: work from it instead of asking again, or ask something new.'
  )
}

/** A call as this rule remembers it: its outcome, what it reads, and whether it was a reread. */
interface Read {
  readonly call: Call
  readonly outcome: Outcome
  readonly reads: Reads
  reread?: true
}

/** A reread found: how many calls back the call it repeats is, and that call when it asked in other words. */
interface Reread {
  back: number
  /**
   * The earlier call, when it differs from this one (a `bash` read asking the same question);
   * undefined for the same call.
   */
  otherWords: Call | undefined
  /** The earlier call it repeats. */
  earlier: Read
}

const options = {
  rereads: option(
    Schema.boolean(),
    false,
    'Opt-in: remind a read returning what the same read (or a `bash` read in other words) ' +
      'returned 2 to 6 calls back, only reads between.',
    TRUE_OR_FALSE,
  ),
}

/**
 * The reread rule's entry: it speaks at a call that starts no run, when no reminder is due for it,
 * and once per answer: a call that repeats a reread of itself is left to the run and cycle rules.
 */
export const reread: Entry<typeof options, RereadVerdict, 'advice'> = {
  phase: 'advice',
  options,
  kind: 'reread',
  texts: {
    mark: ' (reread)',
    notice({ back, otherWords: earlier }, { cap }) {
      const quoted = earlier && `\`${earlier.tool} ${argumentsPreview(earlier.args, cap, earlier.ignored)}\``
      return rereadText(back, quoted)
    },
  },
  candidate: { rereads: true },
  make(config) {
    if (!config.rereads) return undefined
    const compared = comparison(config)
    const readsOf = readsUnder(config)
    // What a call reads is worked out at the call, so that no later call pays for the calls before it.
    const remembered = ({ call, result }: { call: Call; result: Seen['result'] }): Read => ({
      call,
      outcome: compared.outcome(call, result),
      reads: readsOf(call),
    })
    return {
      phase: 'advice',
      start: (first): Read[] => [remembered(first)],
      copy: (history: Read[]) => [...history],
      step(history: Read[], seen, found, reminded) {
        const read = remembered(seen)
        const hit = !reminded && found.run === 1 ? findReread(history, read, compared) : undefined
        if (hit !== undefined) read.reread = true
        history.push(read)
        if (history.length > REREAD_WINDOW) history.shift()
        if (hit === undefined || (hit.earlier.reread === true && hit.otherWords === undefined)) return undefined
        const { back, otherWords } = hit
        const { call } = seen
        return { kind: 'reread', ...adviceOn(call, found, 2), back, otherWords }
      },
    }
  },
}

/**
 * The latest of the calls in `history` (oldest first, at most
 * {@link REREAD_WINDOW}) that `read` asks again with the same outcome, when no
 * call between them could have changed anything; undefined for none. Each
 * call's `bash` command was read at that call, once.
 */
function findReread(history: readonly Read[], read: Read, compared: Comparison): Reread | undefined {
  // The call one back is the run rules' to judge: a reread repeats one 2 to 6 calls back.
  for (let i = history.length - 2; i >= 0; i--) {
    const earlier = history[i] as Read
    // Another tool's call is neither the same call nor a bash read of the same question: left to sameQuestion.
    if (!sameOutcome(earlier.outcome, read.outcome)) continue
    const identical = compared.sameCall(earlier.call, read.call)
    // Two other commands that both came back empty are weak evidence of one question: some sources lose output.
    if (!identical && (isEmpty(read.outcome) || !sameQuestion(earlier.reads, read.reads))) continue
    // Only a read of the workspace asks a question twice: a job's output, a writer's result or a view moved by a
    // navigation tool can change with nothing between.
    const question = read.reads
    if (!question.readOnly || question.navigation || read.call.tool === JOB_READ) return undefined
    // The latest such call decides: whatever lies between it and this one also lies between any earlier one and this.
    const between = history.slice(i + 1)
    if (!between.every((c) => c.reads.readOnly || untouched(question, c.reads))) return undefined
    // A view coming back to a file after viewing another file is navigation.
    if (question.view && between.some((c) => viewsOther(c.reads, question))) return undefined
    return { back: history.length - i, otherWords: identical ? undefined : earlier.call, earlier }
  }
  return undefined
}
