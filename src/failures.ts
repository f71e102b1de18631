/**
 * Whether a result says its call failed, and the error a reminder quotes of
 * it; and whether a result shows nothing at all.
 * Knows dsh's failure markers and mini-swe-agent's return codes.
 */
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import { beforeSpillNotice, type Outcome, textOf } from './results.ts'

/**
 * The last lines by which `dsh-tool-bash` says a command failed: `[exit code: N]`
 * for a nonzero exit, `[killed by signal: …]`, `[timed out after …]`, and
 * `[sandbox: file access denied …]` for a policy denial.
 */
const FAILURE_MARKERS = ['[exit code: ', '[killed by signal: ', '[timed out after ', '[sandbox: ']

/**
 * How mini-swe-agent, whose sessions are replayed as dsh logs too, wraps every command's result:
 * `<returncode>N</returncode>` then the output between `<output>` tags.
 */
const RETURN_CODE = /^<returncode>(\d+)<\/returncode>\s*(?:<output>|<warning>)?/

/** What dsh's bash writes for a command that printed nothing. */
const NO_OUTPUT = '(no output)'

/** What mini-swe-agent writes for a command that printed nothing: its return code, then empty output tags. */
const EMPTY_OUTPUT = /^<returncode>\d+<\/returncode>\s*<output>\s*<\/output>\s*$/

/**
 * Whether an outcome shows nothing: no text, only blanks, dsh's `(no output)`
 * or mini-swe-agent's empty output. Some sources lose a command's output and
 * record it empty, so two empty results say little about two calls.
 */
export function isEmpty({ content }: Outcome): boolean {
  if (!Array.isArray(content)) return false
  return content.every((block: unknown) => {
    const text = textOf(block)?.trim()
    return text === '' || text === NO_OUTPUT || (text !== undefined && EMPTY_OUTPUT.test(text))
  })
}

/**
 * Whether a result says its call failed with an error to show for it: an
 * error result, a text whose last line (before a spill notice) is one of
 * dsh's failure markers, or one that opens with a nonzero `<returncode>`;
 * and, besides those, some output: a search that found nothing fails with
 * no error text, and two of them are not the same failure.
 */
export function failed(isError: boolean, content: readonly ContentBlock[]): boolean {
  const last = textOf(content.at(-1))
  if (last === undefined) return isError && content.length > 0
  const code = RETURN_CODE.exec(last)
  if (code !== null)
    return (isError || code[1] !== '0') && /\w/.test(last.slice(code[0].length).replace(/<\/output>\s*$/, ''))
  const text = beforeSpillNotice(last)
  let body = text
  for (let end = body.lastIndexOf('\n'); end >= 0 && isMarker(body.slice(end + 1)); end = body.lastIndexOf('\n'))
    body = body.slice(0, end)
  const marked = body !== text || isMarker(text)
  return (isError || marked) && !isMarker(body) && body.trim() !== NO_OUTPUT && body.trim() !== ''
}

/** Whether a line is one of dsh's failure markers. */
function isMarker(line: string): boolean {
  return line.endsWith(']') && FAILURE_MARKERS.some((marker) => line.startsWith(marker))
}

/** The most characters of an error a reminder quotes: its end, where a command's error usually is. */
const FAILURE_QUOTED = 200

/**
 * A failed call's error as a reminder quotes it: the end of its result's text, at most {@link
 * FAILURE_QUOTED} characters, from a line's start where one is near.
 */
export function failureText(outcome: Outcome | undefined): string {
  const blocks = Array.isArray(outcome?.content) ? (outcome.content as unknown[]) : []
  const text = blocks
    .map((b) => textOf(b) ?? '')
    .join('\n')
    .trim()
  if (text.length <= FAILURE_QUOTED) return text
  const tail = text.slice(-FAILURE_QUOTED)
  // From the first line start within the tail, or the whole tail when it is one line.
  return `…${tail.slice(tail.indexOf('\n') + 1)}`
}
