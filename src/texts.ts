/**
 * The words the model reads from the guard, each a plain function of what it
 * says: the reminders of each loop, and the feedback that replaces a withheld
 * result. Which text a loop gets is `reminders.ts`'s business.
 */
import { name } from './config.ts'

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
