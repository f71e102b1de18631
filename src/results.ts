/**
 * A tool result as the model reads it: the outcome `resultAware` compares, with
 * every locator that dsh's own tools write fresh into each result (a spill
 * file's path, a background job's id) masked out, so that two runs of the same
 * command with the same output compare equal. The one place in the package that
 * knows these formats. Linear in the result's size: fixed texts found with
 * `indexOf`, no regular expressions; a text without a locator is kept as is.
 */
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import { isRecord } from './arguments.ts'

/** What a result-aware call compares besides its arguments: the error flag and the content, locators masked. */
export interface Outcome {
  isError: boolean
  content: unknown
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

/** The outcome of a result as `resultAware` compares it. */
export function outcome(isError: boolean, content: readonly ContentBlock[]): Outcome {
  let masked: ContentBlock[] | undefined
  for (let i = 0; i < content.length; i++) {
    const block = content[i]!
    // A block that is not text, or not even an object, or text that is not a string (a buggy tool, a hostile log), is compared as it is.
    if (!isRecord(block) || block.type !== 'text' || typeof block.text !== 'string') continue
    const text = maskLocators(block.text)
    if (text === block.text) continue
    masked ??= [...content]
    masked[i] = { ...block, text }
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
