/**
 * What the model gets from a verdict: the notice a reminder travels in (its
 * text, source and summary) and the feedback that replaces a withheld result,
 * each written by the texts of the verdict's kind (`rules/index.ts`); and how
 * replay reads a notice back from a log: its kind by its summary's mark, and
 * whether it was a detailed text. When one is due is the guard's business.
 */
import { boundContextSummary, createUserMessage, type ContentBlock, type UserMessage } from '@deepseek-ai/dsh-llm'
import { name } from './name.ts'
import { type Kind, type LoopVerdict, MARKS, textsOf, type Verdict } from './rules/index.ts'
import type { NoticeOptions } from './rules/rule.ts'

/**
 * A notice as replay reads it back from a log: the tools its summary names, in order, the kind of
 * loop it was about (by its summary's mark), and whether it was a detailed text.
 */
export interface ReadNotice {
  tools: string[]
  kind: Kind
  /** Whether it quoted the arguments on a line of their own: a later threshold's text. */
  detailed: boolean
}

/**
 * How replay files a recorded notice: an identical run's by its text (the short one or a detailed
 * one), any other by its kind.
 */
export type NoticeKind = 'short' | 'detailed' | Exclude<Kind, 'run'>

/** Every way replay files a notice, in the order its report lists them. */
export const NOTICE_KINDS: readonly NoticeKind[] = [
  'short',
  'detailed',
  ...([...MARKS.keys()] as Kind[]).filter((kind): kind is Exclude<Kind, 'run'> => kind !== 'run'),
]

/** How replay files the notice `read` is. */
export function noticeKind({ kind, detailed }: ReadNotice): NoticeKind {
  if (kind !== 'run') return kind
  return detailed ? 'detailed' : 'short'
}

/**
 * Read back a notice {@link notice} wrote, or the stock plugin's: the tools
 * before the last ` × ` of its summary (` → ` between a cycle's), its kind by
 * the mark after the count (none for an identical run, arrows for a cycle), and
 * whether a text block runs over more than one line (a detailed text).
 */
export function readNotice(summary: string, content: readonly ContentBlock[]): ReadNotice {
  const times = summary.lastIndexOf(' × ')
  const tools = (times < 0 ? summary : summary.slice(0, times)).split(' → ')
  const detailed = content.some(
    (block) => block.type === 'text' && typeof block.text === 'string' && block.text.includes('\n'),
  )
  return { tools, kind: kindOf(summary, tools.length > 1), detailed }
}

/** The kind a summary's mark names: the first kind whose non-empty mark ends it; else a cycle or a run. */
function kindOf(summary: string, arrows: boolean): Kind {
  for (const [kind, mark] of MARKS) if (mark !== '' && summary.endsWith(mark)) return kind as Kind
  return arrows ? 'cycle' : 'run'
}

/**
 * The summary a notice carries, as a host shows it: `grep × 3`, `grep → read_file × 2`, `job_output
 * × 3 (busy poll)`, `grep × 2 (reread)`.
 */
export function summary(loop: Verdict): string {
  const tools = loop.calls.map((c) => c.tool).join(' → ')
  return boundContextSummary(`${tools} × ${loop.length}${textsOf(loop).mark}`)
}

/**
 * The notice due for `loop`: a user-role message sourced to this plugin, its text written by its
 * kind's texts, arguments quoted within `options.cap` code units.
 */
export function notice(loop: Verdict, options: NoticeOptions): UserMessage {
  return createUserMessage({
    content: [{ type: 'text', text: textsOf(loop).notice(loop, options) }],
    source: { kind: 'plugin', plugin: name, form: 'notice', summary: summary(loop) },
  })
}

/**
 * The text of the feedback that replaces a withheld result of `loop`; `ran` is false for a call
 * denied before it could run. Only a loop rule's verdict is ever withheld.
 */
export function withheldText(loop: LoopVerdict, ran: boolean): string {
  return textsOf(loop).withheld(loop, ran)
}
