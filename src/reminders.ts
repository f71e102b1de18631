/**
 * Everything the model reads from the guard: the reminder texts, the notice
 * they travel in (its source and summary), and the feedback that replaces a
 * withheld result; and, beside the writers, how replay reads a notice back
 * from a log (which tools its summary names, which text it was). Texts only:
 * when one is due is the guard's business.
 */
import { boundContextSummary, createUserMessage, type ContentBlock, type UserMessage } from '@deepseek-ai/dsh-llm'
import { argumentsPreview, ignoredKeys } from './arguments.ts'
import { name } from './config.ts'
import type { Verdict } from './rules/rule.ts'

/**
 * How a text words a loop beyond its tools and length: arguments left out of the comparison, a run
 * resumed after other calls, results that repeated too, and whether the call ran.
 */
export interface Wording {
  /** The arguments of the call that were not compared, named in the text. */
  omitted?: readonly string[]
  /** The run went on after other calls. */
  resumed?: boolean
  /** The results repeated too (`resultAware`). */
  sameResults?: boolean
  /** For a withheld result: whether the call ran (false: denied before it could). Yes by default. */
  ran?: boolean
}

function identical({ omitted = [] }: Wording): string {
  if (omitted.length === 0) return 'identical arguments'
  return `identical arguments (not counting ${omitted.map((key) => `\`${key}\``).join(', ')})`
}

function inARow({ resumed = false }: Wording): string {
  return resumed ? ', coming back to it after other calls,' : ' in a row'
}

/** The short reminder at the first threshold. */
export function shortReminder(wording: Wording = {}): string {
  const { sameResults = false } = wording
  return (
    `Reminder: you are repeating the exact same tool call with ${identical(wording)}` +
    `${wording.resumed ? ', coming back to it after other calls' : ''}` +
    `${sameResults ? ', and it keeps returning the same result' : ''}. ` +
    'Study its last result. If the task is not done, change your approach or your arguments ' +
    'instead of making the same call again.'
  )
}

/** The detailed reminder at every later threshold. */
export function detailedReminder(
  tool: string,
  length: number,
  argumentsPreview: string,
  wording: Wording = {},
): string {
  const { sameResults = false } = wording
  return (
    `Reminder: you have called \`${tool}\` ${length} times${inARow(wording)} ` +
    `with ${identical(wording)}${sameResults ? ' and got the same result each time' : ''}:\n` +
    `${argumentsPreview}\n` +
    'These repeats are making no progress. Do not call this tool with these exact arguments again. ' +
    'Inspect the latest result and choose a different action or different arguments, ' +
    'or finish if you already have enough evidence.'
  )
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

/** The reminder for calls to one tool that failed the same way, whatever their arguments (`sameFailure`). */
export function failureReminder(tool: string, length: number, error: string): string {
  return (
    `Reminder: ${failedAlike(tool, length, error)}\n` +
    'Another call like them will fail the same way. Read the error and deal with its cause, ' +
    'or take a different approach.'
  )
}

/**
 * The reminder for a call that returned what an earlier call returned, with nothing between them
 * changing anything (`rereads`) 2 to 6 calls back; `earlier` is that call, quoted, when it asked in
 * other words.
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

/** The short reminder for a busy poll, at the first threshold. */
export function shortPollReminder(job: string, wording: Wording = {}): string {
  return (
    `Reminder: background job \`${job}\` is still running, and you keep ` +
    `reading it without waiting${wording.resumed ? ', coming back to it after other calls' : ''}: ` +
    `each read only shows that it has not finished. ` +
    'dsh tells you in this session when it finishes. Until then, work on steps that do not need it, ' +
    'or, if you are blocked on it, read it once with `wait: true`.'
  )
}

/**
 * The detailed reminder for a busy poll, at every later threshold, quoting the read's arguments on
 * a line of their own as every detailed text does.
 */
export function detailedPollReminder(
  job: string,
  length: number,
  argumentsPreview: string,
  wording: Wording = {},
): string {
  return (
    `Reminder: you have read background job \`${job}\` ${length} times${inARow(wording)} ` +
    `while it is still running, and no read has shown it finished:\n` +
    `${argumentsPreview}\n` +
    "Stop polling it: dsh announces the job's completion in this session, and wakes you for it if you are idle. " +
    'Work on steps that do not depend on it; if you cannot go on without ' +
    'its result, call `job_output` with `wait: true` ' +
    '(and `timeout_ms` for a bound) instead of reading it again. Use `job_kill` if it no longer matters.'
  )
}

/** How every withheld result's feedback begins: what replay recognises one in a log by. */
const WITHHELD_PREFIX = `Result withheld by ${name}: `

/**
 * What the model gets instead of a result that `blockAt` withholds: of a call that ran, or (`ran`
 * false) of one denied before it could.
 */
export function withheldFeedback(tools: string[], length: number, wording: Wording = {}): string {
  const { sameResults = false, ran = true } = wording
  const same = sameResults ? ' and identical results' : ''
  const what =
    tools.length === 1
      ? `you have made this exact call to \`${tools[0]}\` ${length} times${inARow(wording)} ` +
        `with ${identical(wording)}${same}`
      : `you have repeated the same sequence of calls (${tools.join(' → ')}) ` +
        `${length} times in a row with ${identical(wording)}${same}`
  return (
    `${WITHHELD_PREFIX}${what}, and the repeats are making no progress. ` +
    (ran ? RAN : NOT_RUN) +
    ' Do not repeat it with the same arguments: ' +
    'use the results you already have, take a different action or different arguments, or finish.'
  )
}

/** What the withheld feedback of a call that ran says of it. */
const RAN = 'The call did run, but its result is not shown again.'

/** What the withheld feedback of a call denied before it ran says of it. */
const NOT_RUN = 'This time the call was not run, so whatever it does has not happened again.'

/**
 * Whether a withheld feedback text is that of a call denied before it ran; undefined when the text
 * is no withheld feedback.
 */
export function deniedBeforeRunning(text: string): boolean | undefined {
  if (!text.startsWith(WITHHELD_PREFIX)) return undefined
  return text.includes(NOT_RUN)
}

/** What a reminder and a withheld result about the same failure say of it: the calls, and the error quoted. */
function failedAlike(tool: string, length: number, error: string): string {
  return `your last ${length} calls to \`${tool}\` failed with the same error, whatever their arguments:\n${error}`
}

/**
 * What the feedback for a withheld result of a call that failed as the calls before it did, whatever
 * their arguments (`sameFailure`), says instead: the calls were not identical, and it does not say so.
 */
export function withheldFailureFeedback(
  tool: string,
  length: number,
  error: string,
  { ran = true }: Wording = {},
): string {
  return (
    `${WITHHELD_PREFIX}${failedAlike(tool, length, error)}\n` +
    (ran ? 'This call failed the same way; its result is not shown again.' : NOT_RUN) +
    ' Deal with the cause of the error, or take a different approach, before calling it again.'
  )
}

/** What the feedback for a withheld read of a job still running says instead. */
export function withheldPollFeedback(job: string, length: number, wording: Wording = {}): string {
  return (
    `${WITHHELD_PREFIX}you have read background job \`${job}\` ${length} ` +
    `times${inARow(wording)} while it is still running. ` +
    'The read did run, but its output is not shown: the job has not finished. ' +
    'dsh announces its completion in this session; ' +
    'work on other steps until then, or read it once with `wait: true` if you are blocked on it.'
  )
}

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
  return { omitted, resumed: loop.resumed, sameResults: loop.sameResults }
}
