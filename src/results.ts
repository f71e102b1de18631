/**
 * A tool result as the model reads it: the outcome `resultAware` compares, with
 * every locator that dsh's own tools write fresh into each result (a spill
 * file's path, a background job's id) masked out, so that two runs of the same
 * command with the same output compare equal; and a read of a background job
 * (`job_output`), whose outcome is the job's status while it runs, not the
 * output each read happens to bring, and the job such a read names. The one
 * place in the package that knows these formats. Linear in the result's size: fixed texts found with
 * `indexOf`, no regular expressions; a text without a locator is kept as is.
 */
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import { argumentsPreview, preview, sameJson } from './arguments.ts'
import { isRecord } from './values.ts'
import { maskNoise } from './noise.ts'
import { asksTheClock } from './shell/waits.ts'

/** What a result is made of, as the tool pipeline and a log both carry it. */
export interface Result {
  isError: boolean
  content: readonly ContentBlock[]
}

/**
 * What a result-aware call compares besides its arguments: the error flag and
 * the content, locators masked; for a read of a job still running, its status
 * instead of the content; for a read that waited on its job, nothing another
 * outcome can equal.
 */
export interface Outcome {
  isError: boolean
  content: unknown
  /**
   * A non-blocking read of a job that is still running: its status (`running`, `stopping`), which
   * alone is the outcome.
   */
  running?: string
  /** A read that blocked on its job (`wait: true`): what dsh asks a model to do, never a repeat. */
  waited?: true
}

/** `dsh-tool-jobs`' tool that reads a background job; every result it returns ends with a `[status: …]` line. */
export const JOB_READ = 'job_output'

/** The start of `job_output`'s last line: `[status: running]`, or `[status: failed, exit code 1]` with a detail. */
const STATUS = '[status: '

/** The statuses of a job that has not finished: reading it again shows only that it goes on. */
const UNFINISHED = new Set<string | undefined>(['running', 'stopping'])

/** Whether a job's `status` says it has not finished. */
function unfinished(status: string | undefined): status is string {
  return UNFINISHED.has(status)
}

/** What stands in for a masked locator: nothing, so a masked text is never longer than the text. */
const MASK = ''

/**
 * Locators that end a line: `dsh-tool-bash` appends `[output truncated; full
 * output: <path>]` to a stream it cut, and `[some output was dropped from
 * memory; full output: <paths>]` to a background read it cut.
 */
const LINE_MARKERS = ['[output truncated; full output: ', '[some output was dropped from memory; full output: ']

/**
 * The notice that ends a spilled result: `dsh-spill-policy` writes `(Omitted N
 * bytes. Full formatted result stored at: <locator>. <hint>)`, `dsh-tool-fs-search`
 * `(… Full sorted result stored at: …)` for `glob` and `(Full grep result stored
 * at: …)` for `grep`.
 */
const NOTICE = ' result stored at: '

/** `dsh-tool-bash`'s whole result for a command started in the background: `started background job <id>`. */
const BACKGROUND = 'started background job '

/**
 * The outcome of a call to `tool` with `args` as `resultAware` compares it; with `noise`, its noise
 * masked too (`maskNoise`).
 */
export function outcome(
  tool: string,
  args: unknown,
  isError: boolean,
  content: readonly ContentBlock[],
  noise = false,
): Outcome {
  if (tool === JOB_READ && !isError) {
    if (isRecord(args) && args.wait === true) return { isError, content: undefined, waited: true }
    const status = jobStatus(content)
    if (unfinished(status)) return { isError, content: undefined, running: status }
  }
  // A clock's answer is its times and dates: masked, two readings a minute apart would be the same.
  return masked(isError, content, noise && !asksTheClock(tool, args))
}

/**
 * A block's text when it is a text block whose text is a string; undefined for any other block or
 * value (a buggy tool, a hostile log).
 */
export function textOf(block: unknown): string | undefined {
  return isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : undefined
}

/**
 * Whether a call reads, with `wait: true`, the job that an earlier non-blocking read of
 * `job_output` read: a poll turned into a wait.
 */
export function waitsOn(tool: string, args: unknown, nextTool: string, nextArgs: unknown): boolean {
  return (
    tool === JOB_READ &&
    nextTool === JOB_READ &&
    isRecord(args) &&
    isRecord(nextArgs) &&
    args.wait !== true &&
    nextArgs.wait === true &&
    nextArgs.job_id === args.job_id
  )
}

/**
 * Whether two outcomes are the same: equal as JSON values, a read that waited never equal to
 * anything (only another read that waited could equal it as JSON).
 */
export function sameOutcome(a: Outcome | undefined, b: Outcome | undefined): boolean {
  return a?.waited === undefined && sameJson(a, b)
}

/**
 * The status a `job_output` result ends with: its one text block's last line,
 * `[status: <status>]` or `[status: <status>, <detail>]`, or the last line
 * before the notice of a spilled result. Only that line counts: a status line
 * that a job printed inside its output is not the tool's.
 */
export function jobStatus(content: readonly ContentBlock[]): string | undefined {
  const only = content.length === 1 ? textOf(content[0]) : undefined
  if (only === undefined) return undefined
  const text = beforeSpillNotice(only)
  const line = text.slice(text.lastIndexOf('\n') + 1)
  if (!line.startsWith(STATUS) || !line.endsWith(']')) return undefined
  const body = line.slice(STATUS.length, -1)
  const comma = body.indexOf(', ')
  return comma < 0 ? body : body.slice(0, comma)
}

/**
 * The text a spill notice was appended to: a spilled result is the head and
 * tail of the original, a blank line, then the notice on the last line, so a
 * job's status line stays last before it. The text itself when it has none.
 */
export function beforeSpillNotice(text: string): string {
  const start = text.lastIndexOf('\n') + 1
  const line = text.slice(start)
  const spilled =
    line.startsWith('(') && line.endsWith(')') && line.includes(NOTICE) && text.startsWith('\n\n', start - 2)
  return spilled ? text.slice(0, start - 2) : text
}

/** The content with dsh's locators masked, and with `noise` its noise too. */
function masked(isError: boolean, content: readonly ContentBlock[], noise: boolean): Outcome {
  let masked: ContentBlock[] | undefined
  for (const [i, block] of content.entries()) {
    const original = textOf(block)
    // A block that is not text, or not even an object, or text that is not a string (a buggy tool,
    // a hostile log), is compared as it is.
    if (original === undefined) continue
    const text = noise ? maskNoise(maskLocators(original)) : maskLocators(original)
    if (text === original) continue
    masked ??= [...content]
    masked[i] = { ...block, text } as ContentBlock
  }
  return { isError, content: masked ?? content }
}

/** `text` with every dsh locator in it replaced by {@link MASK}; the same text when it has none. */
export function maskLocators(text: string): string {
  if (text.startsWith(BACKGROUND) && !text.includes('\n')) return BACKGROUND + MASK
  let out = text
  for (const marker of LINE_MARKERS) out = maskLines(out, marker)
  return maskNotice(out)
}

/** Mask the path of every `marker … ]` that runs to the end of its line. */
function maskLines(text: string, marker: string): string {
  let out = ''
  let from = 0
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, from)) {
    const start = at + marker.length
    const newline = text.indexOf('\n', start)
    const end = newline === -1 ? text.length : newline
    // The marker itself ends with a space, so a ']' that closes the line is past its start.
    if (text[end - 1] !== ']') {
      // Not a marker line after all: keep it and look past it.
      out += text.slice(from, start)
      from = start
      continue
    }
    out += text.slice(from, start) + MASK
    from = end - 1
  }
  // Without a marker `out` is empty and this is the text itself.
  return out + text.slice(from)
}

/** Mask the locator and hint of a spill notice that closes the text. */
function maskNotice(text: string): string {
  const at = text.lastIndexOf(NOTICE)
  if (at < 0 || !text.endsWith(')') || text.indexOf('\n', at) >= 0) return text
  return `${text.slice(0, at + NOTICE.length)}${MASK})`
}

/**
 * The job a read names, within `cap` code units: its `job_id`, or, for arguments without a text
 * one, the arguments themselves.
 */
export function jobOf(args: unknown, cap: number): string {
  return isRecord(args) && typeof args.job_id === 'string' ? preview(args.job_id, cap) : argumentsPreview(args, cap, [])
}
