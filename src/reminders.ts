/**
 * What the model gets from a verdict: the notice a reminder travels in (its
 * text, source and summary) and the feedback that replaces a withheld result,
 * each written from the loop's data with the words of `texts.ts`; and, beside
 * the writers, how replay reads a notice back from a log (which tools its
 * summary names, which text it was). When one is due is the guard's business.
 */
import { boundContextSummary, createUserMessage, type ContentBlock, type UserMessage } from '@deepseek-ai/dsh-llm'
import { argumentsPreview, ignoredKeys } from './arguments.ts'
import { name } from './config.ts'
import type { Verdict } from './rules/rule.ts'
import {
  cycleReminder,
  detailedPollReminder,
  detailedReminder,
  failureReminder,
  rereadText,
  shortPollReminder,
  shortReminder,
  withheldFailureFeedback,
  withheldFeedback,
  withheldPollFeedback,
  type Wording,
} from './texts.ts'

/** What a summary marks a busy poll's notice with. */
const POLL_MARK = ' (busy poll)'

/** What a summary marks a reread's notice with. */
const REREAD_MARK = ' (reread)'

/** What a summary marks the notice of a run of the same failure with. */
const FAILURE_MARK = ' (same failure)'

/**
 * Which text a notice in a log was: the short one (the first threshold's), the detailed one (a
 * later threshold's), or a cycle's.
 */
export type NoticeKind = 'short' | 'detailed' | 'cycle'

/**
 * A notice as replay reads it back from a log: the tools its summary names, in order, whether it
 * was about a busy poll, and which text it was.
 */
export interface ReadNotice {
  tools: string[]
  poll: boolean
  kind: NoticeKind
}

/**
 * Read back a notice {@link reminder} wrote, or the stock plugin's: the tools
 * before the last ` × ` of its summary (` → ` between a cycle's), the poll mark,
 * and the kind: a cycle's summary has arrows, a later threshold's text quotes
 * the arguments on a line of their own, the first threshold's is one line.
 */
export function readNotice(summary: string, content: readonly ContentBlock[]): ReadNotice {
  const times = summary.lastIndexOf(' × ')
  const tools = (times < 0 ? summary : summary.slice(0, times)).split(' → ')
  const kind =
    tools.length > 1
      ? 'cycle'
      : content.some((block) => block.type === 'text' && typeof block.text === 'string' && block.text.includes('\n'))
        ? 'detailed'
        : 'short'
  return { tools, poll: summary.endsWith(POLL_MARK), kind }
}

/**
 * The summary a notice carries, as a host shows it: `grep × 3`, `grep → read_file × 2`, `job_output
 * × 3 (busy poll)`, `grep × 2 (reread)`.
 */
export function summary(loop: Verdict): string {
  const mark =
    loop.kind === 'reread'
      ? REREAD_MARK
      : loop.job !== undefined
        ? POLL_MARK
        : loop.failure !== undefined
          ? FAILURE_MARK
          : ''
  return boundContextSummary(`${loop.calls.map((c) => c.tool).join(' → ')} × ${loop.length}${mark}`)
}

/** How a notice is written: whether at the first threshold (the short text), and the arguments' cap. */
interface NoticeOptions {
  first: boolean
  cap: number
}

/**
 * The notice due for `loop`: a user-role message sourced to this plugin, its text written from the
 * loop's data, arguments quoted within `cap` code units.
 */
export function notice(loop: Verdict, options: NoticeOptions): UserMessage {
  return createUserMessage({
    content: [{ type: 'text', text: noticeText(loop, options) }],
    source: { kind: 'plugin', plugin: name, form: 'notice', summary: summary(loop) },
  })
}

/**
 * A notice's text: a reread's, a busy poll's, a failure run's, a cycle's; for a run, the short
 * text at the first threshold and the detailed one later.
 */
function noticeText(loop: Verdict, { first, cap }: NoticeOptions): string {
  const { calls, length } = loop
  const call = calls[0]!
  const preview = (c = call) => argumentsPreview(c.args, cap, c.ignored)
  if (loop.kind === 'reread') {
    const earlier = loop.otherWords
    return rereadText(loop.back!, earlier === undefined ? undefined : `\`${earlier.tool} ${preview(earlier)}\``)
  }
  const how = wording(loop)
  if (loop.job !== undefined)
    return first ? shortPollReminder(loop.job, how) : detailedPollReminder(loop.job, length, preview(), how)
  if (loop.failure !== undefined) return failureReminder(call.tool, length, loop.failure)
  if (calls.length > 1)
    return cycleReminder(
      calls.map((c) => ({ tool: c.tool, preview: preview(c) })),
      length,
      how,
    )
  return first ? shortReminder(how) : detailedReminder(call.tool, length, preview(), how)
}

/**
 * The text of the feedback that replaces a withheld result of `loop`: of a failure run, of a busy
 * poll (whose read always ran), of a run or cycle.
 */
export function withheldText(loop: Verdict, { ran }: { ran: boolean }): string {
  const tool = loop.calls[0]!.tool
  if (loop.failure !== undefined) return withheldFailureFeedback(tool, loop.length, loop.failure, { ran })
  if (loop.job !== undefined) return withheldPollFeedback(loop.job, loop.length, wording(loop))
  return withheldFeedback(
    loop.calls.map((c) => c.tool),
    loop.length,
    { ...wording(loop), ran },
  )
}

/**
 * The wording a loop needs: the arguments its calls carry but were not compared, whether it
 * resumed, whether the results repeated too.
 */
function wording(loop: Verdict): Wording {
  const omitted = [...new Set(loop.calls.flatMap((c) => ignoredKeys(c.args, c.ignored)))].sort()
  return { omitted, resumed: loop.resumed, sameResults: loop.calls.every((c) => c.outcome !== undefined) }
}
