/**
 * `quickPolls`: the same call (after `ignoreArguments`), made again at once in
 * step after step with nothing between, never waiting, its answer changing a
 * little each time: a poll with no wait, whatever the tool. `resultAware`
 * starts an identical run over at every changed answer, and the busy-poll
 * rule knows only dsh's jobs, so neither sees it. Calls the model made in one
 * step are one batch and count once; a call that waits (`shell/waits.ts`), a
 * `bash` command that writes files (its changing answer may be its own doing)
 * or starts a job in the background, a `navigationTools` call (paging changes
 * the view, not the world) and a `job_output` read (the busy-poll rule's) are
 * never such a poll. Advice: it
 * never withholds or denies, whatever `blockAt` says, as a poll's next answer
 * is new.
 */
import Schema from '@deepseek-ai/schemastery'
import { option } from '../checks.ts'
import { type Call, comparison } from '../compare.ts'
import { TRUE_OR_FALSE } from '../options.ts'
import { anyOf } from '../patterns.ts'
import { JOB_READ, type Outcome, sameOutcome } from '../results.ts'
import { startsJob } from '../shell/command.ts'
import { waits, writesFiles } from '../shell/waits.ts'
import { adviceOn, type Entry, type Found, type Seen } from './rule.ts'

/** The most calls `quickPollCalls` may ask for. */
const LONGEST_POLL = 100

/** A poll with no wait, ending with `call`: reminded at every `quickPollCalls` calls of it. */
export interface QuickPollVerdict extends Found {
  readonly kind: 'quick-poll'
  readonly call: Call
}

/** The reminder for the same call made `length` times in a row at once, its answer changing. */
export function quickPollText(tool: string, length: number): string {
  return (
    `Reminder: you have made this \`${tool}\` call ${length} times in a row, each right after the last, ` +
    'and its answer keeps changing a little: you are polling without waiting. ' +
    'Each call only shows how things stand at that instant. Wait before asking again ' +
    '(for example `sleep 30 && <the check>` in `bash`), or run the work as a background job ' +
    'and read it with `job_output` and `wait: true`.'
  )
}

/** A poll as this rule follows it: how many calls it has, and the outcome the latest returned. */
interface Poll {
  length: number
  outcome: Outcome
}

const options = {
  quickPolls: option(
    Schema.boolean(),
    false,
    'Opt-in: remind the same call repeated at once, step after step, with no wait and a changing answer.',
    TRUE_OR_FALSE,
  ),
  quickPollCalls: option(
    Schema.natural().min(2).max(LONGEST_POLL),
    3,
    'For `quickPolls`: the calls that make one, reminded at each multiple.',
    { value: `must be an integer from 2 to ${LONGEST_POLL}` },
  ),
}

/** The quick-poll rule's entry. */
export const quickPoll: Entry<typeof options, QuickPollVerdict, 'advice'> = {
  phase: 'advice',
  options,
  kind: 'quick-poll',
  texts: {
    mark: ' (no wait)',
    notice: ({ call, length }) => quickPollText(call.tool, length),
  },
  candidate: { quickPolls: true },
  make(config) {
    if (!config.quickPolls) return undefined
    const compared = comparison(config)
    const navigation = anyOf(config.navigationTools)
    const every = config.quickPollCalls
    /** Whether `call` may be a poll's: no job read, no paging, no call that waits, writes files or starts a job. */
    const polls = ({ tool, args }: Call) =>
      tool !== JOB_READ && !navigation(tool) && !waits(tool, args) && !writesFiles(tool, args) && !startsJob(tool, args)
    const outcomeOf = (seen: Pick<Seen, 'call' | 'result'>) => compared.outcome(seen.call, seen.result)
    return {
      phase: 'advice',
      start: (first): Poll => ({ length: 1, outcome: outcomeOf(first) }),
      copy: (state: Poll) => ({ ...state }),
      step(state: Poll, seen, found) {
        const { call, sameCall, sameStep } = seen
        const outcome = outcomeOf(seen)
        const again = sameCall && polls(call)
        const changed = !sameOutcome(state.outcome, outcome)
        // A call of the same batch neither counts nor breaks the poll; any other call starts over.
        if (!again) state.length = 1
        else if (!sameStep) state.length = changed ? state.length + 1 : 1
        state.outcome = outcome
        // A call that is no poll's, or whose answer did not change, has just started one over at 1.
        if (sameStep || state.length % every !== 0) return undefined
        return { kind: 'quick-poll', ...adviceOn(call, found, state.length) }
      },
    }
  },
}
