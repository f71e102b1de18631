/**
 * Reading one session's events into what replay works on: the tool calls the
 * live guard saw (each at its first result), the user messages between them,
 * the reminders and withheld results the live guard left, and the token usage
 * of the model responses that made the calls. Pure: events in, a transcript
 * out. A log no dsh loop writes gets an error that says what is wrong and where.
 */
import type { ContentBlock, TokenUsage, UserMessage } from '@deepseek-ai/dsh-llm'
import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { deliveredArguments } from '../arguments.ts'
import { isRecord, kept } from '../values.ts'
import { comparison, type Comparison, type ComparedBy } from '../compare.ts'
import { name } from '../config.ts'
import { LONGEST_CYCLE } from '../rules/cycle.ts'
import { type NoticeKind, noticeKind, readNotice } from '../reminders.ts'
import { type Outcome, type Result, sameOutcome } from '../results.ts'
import { Problem } from '../problem.ts'
import { Approvals, deniedOf } from './denials.ts'

/** One tool call as the live guard saw it, read from the log. */
export interface LoggedCall {
  tool: string
  /** The arguments text the model wrote. */
  raw: string
  /** The arguments as the loop delivered them to the tool. */
  args: unknown
  /** The result the live guard saw: the logged one, or for a result it withheld, the one it had seen repeat. */
  result: Result
  /** The logged result content, for the cost of looping. */
  logged: readonly ContentBlock[]
  /** The top-level arguments left out when it is compared with other calls. */
  ignored: readonly string[]
  /** Its outcome, the result as `resultAware` compares it: locators masked, a running job's read by its status. */
  outcome: Outcome
  /** Whether its result, locators masked, equals its latest identical call's among the {@link LONGEST_CYCLE} before. */
  repeatsResult: boolean
  /** Whether it {@link repeatsResult} and every call since that identical call did too: the model saw nothing new. */
  nothingNew: boolean
  /** Whether it repeats the call right before it: same tool, same arguments (the ignored ones left out). */
  repeatsCall: boolean
  /** The model response that made it: an index into {@link Transcript.usage}; -1 when the log names none. */
  response: number
  /** Whether its tool ran: false for a call the log shows was refused approval (rejected, cancelled, unavailable). */
  ran: boolean
}

/** A reminder the live guard attached, where it stood: after the session's `afterCall`-th tool result. */
export interface LoggedReminder {
  afterCall: number
  summary: string
  kind: NoticeKind
  /** Whether it was a detailed text: the arguments quoted on a line of their own. */
  detailed: boolean
  /** The tools its summary names, in order. */
  tools: string[]
}

/**
 * A session as replay needs it: its calls and user messages in log order, and what the live guard
 * and the model recorded.
 */
export interface Transcript {
  steps: (LoggedCall | UserMessage)[]
  calls: number
  reminders: LoggedReminder[]
  /** The calls whose results the live guard withheld, 1-based. */
  withheld: number[]
  /** Of those, the calls it denied before they ran (`blockAt` on a tool whose outcomes are not compared). */
  denied: number[]
  /**
   * Per model response that made tool calls, in log order: its recorded token usage, or undefined
   * when the log has none.
   */
  usage: (TokenUsage | undefined)[]
}

/**
 * Read a session's events once: each call counted at its first result (later
 * results for the same call, such as the compaction pruner's replacements, are
 * not calls), user messages in place, and what the live guard left in the log.
 * Two calls are the same when they are equal without the `ignoreArguments`
 * entries given; two results, when they are equal with dsh's locators masked.
 * Throws, naming what is wrong and the event, on a log no dsh loop writes.
 * The events of a `recovered` log (one with lines lost to corruption) may
 * answer a call whose line was lost, or remind of calls whose results were:
 * such a result or reminder is left out, not an error.
 */
export function transcribe(
  events: readonly SessionEvent[],
  ignoreArguments: readonly string[],
  recovered = false,
): Transcript {
  const reader = new Transcriber(ignoreArguments, recovered)
  for (const event of events) reader.read(event)
  return reader.transcript
}

/** One session's events read in order into its transcript. */
class Transcriber {
  readonly transcript: Transcript = { steps: [], calls: 0, reminders: [], withheld: [], denied: [], usage: [] }
  private readonly compared: Comparison
  /** The calls made so far, by call id. */
  private readonly made = new Map<string, { tool: string; raw: string }>()
  /** Per call id, the model response that made it (an index of `usage`). */
  private readonly responses = new Map<string, number>()
  /** The call ids a result has answered: a later result for one is not a call. */
  private readonly answered = new Set<string>()
  /** The latest calls, as many as the guard ever compares a call with. */
  private readonly recent: LoggedCall[] = []
  /** Which calls were refused approval. */
  private readonly approvals = new Approvals()

  /** Whether lines of the log were lost, so that a result may answer a call the events never made. */
  private readonly recovered: boolean

  constructor(ignoreArguments: readonly string[], recovered: boolean) {
    this.compared = comparison(evidenceOf(ignoreArguments))
    this.recovered = recovered
  }

  /** Take one event into the transcript; throws on one no dsh loop writes. */
  read(event: SessionEvent): void {
    const data = event.data as unknown
    if (!isRecord(data)) throw new Problem(`${event.type} (event ${event.seq}) carries no data`)
    if (event.type === 'assistant/message') this.response(event.seq, data)
    else if (event.type === 'tool/call') this.call(event.seq, data)
    else if (event.type === 'user/message') this.message(event.seq, data as unknown as UserMessage)
    else if (event.type === 'tool/result') this.result(event.seq, data)
    else this.approvals.read(event.type, data)
  }

  /** A model response: the calls it made, and its token usage. */
  private response(seq: number, data: Record<string, unknown>): void {
    const blocks = contentOf(data)
    const ids = blocks.flatMap((block) =>
      isRecord(block) && block.type === 'tool-call' && typeof block.id === 'string' ? [block.id] : [],
    )
    if (ids.length === 0) return
    if (data.usage !== undefined && !isUsage(data.usage))
      throw new Problem(`model response (event ${seq}) has a usage that is not token counts`)
    for (const id of ids) this.responses.set(id, this.transcript.usage.length)
    this.transcript.usage.push(data.usage)
  }

  /** A call the model made, remembered until its result comes. */
  private call(seq: number, data: Record<string, unknown>): void {
    const { callId, name: tool, arguments: raw } = data
    if (typeof callId !== 'string') throw new Problem(`tool call (event ${seq}) has no call id`)
    if (typeof tool !== 'string' || tool === '')
      throw new Problem(`tool call ${JSON.stringify(callId)} (event ${seq}) has no tool name`)
    if (typeof raw !== 'string')
      throw new Problem(`tool call ${JSON.stringify(callId)} (event ${seq}) has no arguments text`)
    this.made.set(callId, { tool, raw })
  }

  /** A user-role message in its place; this plugin's notice is read back as a reminder. */
  private message(seq: number, message: UserMessage): void {
    const { transcript } = this
    if (!isRecord(message.source) || !Array.isArray(message.content))
      throw new Problem(`user message (event ${seq}) has no source or no content list`)
    transcript.steps.push(message)
    const { source } = message
    if (source.kind !== 'plugin' || source.plugin !== name) return
    const { summary } = source as { summary?: unknown }
    if (typeof summary !== 'string') throw new Problem(`reminder (event ${seq}) from ${name} has no summary text`)
    if (transcript.calls === 0) {
      // Its call's result may be on a line that was lost.
      if (this.recovered) return
      throw new Problem(`reminder (event ${seq}) from ${name} comes before any tool result`)
    }
    const read = readNotice(summary, message.content)
    transcript.reminders.push({ ...read, afterCall: transcript.calls, summary, kind: noticeKind(read) })
  }

  /** A call's first result makes it a call of the transcript, compared with the calls before it. */
  private result(seq: number, data: Record<string, unknown>): void {
    const { transcript, compared, recent } = this
    const [block] = contentOf(data)
    if (!isRecord(block) || typeof block.toolCallId !== 'string')
      throw new Problem(`tool result (event ${seq}) names no call it answers`)
    const id = block.toolCallId
    const call = this.made.get(id)
    if (call === undefined) {
      if (this.recovered) return
      throw new Problem(`tool result (event ${seq}) for call ${JSON.stringify(id)}, which the log never made`)
    }
    if (!Array.isArray(block.content))
      throw new Problem(`tool result (event ${seq}) for call ${JSON.stringify(id)} has no content list`)
    if (!block.content.every(isRecord))
      throw new Problem(
        `tool result (event ${seq}) for call ${JSON.stringify(id)} has a content block that is not an object`,
      )
    if (this.answered.has(id)) return
    this.answered.add(id)
    transcript.calls++
    const args = deliveredArguments(call.raw)
    const logged: Result = { isError: block.isError === true, content: block.content as unknown as ContentBlock[] }
    const seen = compared.call(call.tool, args, logged)
    const same = recent.findLast((c) => compared.sameCall(c, seen))
    const denied = logged.isError ? deniedOf(logged.content) : undefined
    const withheld = denied !== undefined
    if (withheld) transcript.withheld.push(transcript.calls)
    if (denied) transcript.denied.push(transcript.calls)
    // The live guard withholds only a result of a run that goes on: what it saw was the outcome before.
    const result = withheld && same !== undefined ? same.result : logged
    const outcome = withheld && same !== undefined ? same.outcome : compared.outcome(seen, logged)
    const repeatsResult = same !== undefined && sameOutcome(same.outcome, outcome)
    const current: LoggedCall = {
      ...call,
      args,
      result,
      logged: logged.content,
      ignored: seen.ignored,
      outcome,
      repeatsResult,
      nothingNew: repeatsResult && recent.slice(recent.lastIndexOf(same) + 1).every((c) => c.repeatsResult),
      repeatsCall: same !== undefined && same === recent.at(-1),
      response: this.responses.get(id) ?? -1,
      ran: this.approvals.ran(id),
    }
    transcript.steps.push(current)
    recent.push(current)
    // The guard compares a call with at most the longest cycle's worth of earlier calls.
    if (recent.length > LONGEST_CYCLE) recent.shift()
  }
}

/**
 * What the evidence compares, one object per list of ignored arguments, so that every session of a
 * replay shares its comparison.
 */
const evidence = new WeakMap<readonly string[], ComparedBy>()

/** How the evidence compares calls: every call tracked, every outcome compared, the given arguments left out. */
function evidenceOf(ignoreArguments: readonly string[]): ComparedBy {
  return kept(evidence, ignoreArguments, () => ({ include: [], exclude: [], ignoreArguments, resultAware: true }))
}

/** The content list of the message an event carries; empty when it carries none. */
function contentOf(data: Record<string, unknown>): unknown[] {
  return isRecord(data.message) && Array.isArray(data.message.content) ? (data.message.content as unknown[]) : []
}

function isUsage(value: unknown): value is TokenUsage {
  return isRecord(value) && Number.isFinite(value.inputTokens) && Number.isFinite(value.outputTokens)
}
