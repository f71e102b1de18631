/**
 * repeat-tool-reminder: counts, per agent, consecutive tool calls with the same
 * tool name and the same canonical arguments, and at configured run lengths
 * attaches an advisory reminder to the call as plugin-sourced model context.
 *
 * By default it never delays, blocks or rewrites a call and never changes a tool
 * result: the model decides what to do next. Opt-in options compare outcomes,
 * recognise cycles of calls, remind past the last threshold, and block. It never
 * throws into the tool pipeline.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { scopeOf } from '@deepseek-ai/dsh-scope'
import { boundContextSummary, createUserMessage, type ContentBlock, type UserMessage } from '@deepseek-ai/dsh-llm'
import type { PostToolDecision, ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import Schema from '@deepseek-ai/schemastery'

/** The plugin name: the `cordis.yml` id, the reminders' source and the error prefix. */
export const name = 'repeat-tool-reminder'

/** What an operator can set; every field has a default. */
export interface Config {
  /** Run lengths at which a reminder is due, ascending after load. */
  thresholds: number[]
  /** Cap, in UTF-16 code units, on the canonical arguments quoted by a detailed reminder. */
  argumentsPreviewChars: number
  /** Whole-name patterns of tracked tools (`*` = any run of characters); empty tracks every tool. */
  include: string[]
  /** Whole-name patterns of tools that are never tracked; wins over `include`. */
  exclude: string[]
  /** Opt-in: a repeat extends a run only when its outcome (error flag and content) repeats too. */
  resultAware: boolean
  /** Opt-in: also recognise an exact repeating cycle of 2 to `maxCyclePeriod` distinct calls. */
  cycles: boolean
  /** The longest cycle, in distinct calls, that `cycles` looks for (2 to 8). */
  maxCyclePeriod: number
  /** Opt-in: past the last threshold, a detailed reminder again every this many repeats; 0 stays silent. */
  remindEvery: number
  /** Opt-in: from this run length on, every further call of the run is blocked; 0 never blocks. */
  blockAt: number
}

/** The schema of {@link Config}; a bad value throws at load with a message naming the field and the value. */
export const Config: Schema<Partial<Config>, Config> = Schema.object({
  thresholds: field(thresholds, [3, 5, 8],
    'Run lengths (integers >= 2, no repeats) at which a reminder is due. The first gets a short reminder, later ones a detailed one; past the last the guard is silent.'),
  argumentsPreviewChars: field(integer('argumentsPreviewChars must be a positive integer', 1), 500,
    'Most characters of canonical arguments quoted in a detailed reminder; the rest is summarised as "… (N more chars)". Detection always compares the full arguments.'),
  include: field(patterns('include'), [],
    'Tools to track, as whole-name patterns where * matches any run of characters. Empty tracks every tool.'),
  exclude: field(patterns('exclude'), [],
    'Tools never to track, as whole-name patterns where * matches any run of characters. An untracked call neither counts nor resets a run.'),
  resultAware: field(flag('resultAware'), false,
    'Extend a run only when the tool\'s outcome (error flag and result content) also equals the previous one: a poll that sees new output is not a loop.'),
  cycles: field(flag('cycles'), false,
    'Also recognise an exact repeating cycle of 2 to maxCyclePeriod distinct calls (grep, read, grep, read, ...); its run length is the number of complete repetitions.'),
  maxCyclePeriod: field(integer('maxCyclePeriod must be an integer from 2 to 8', 2, 8), 4,
    'The longest cycle, in distinct calls, that cycles looks for: an integer from 2 to 8. Each agent remembers this many recent calls.'),
  remindEvery: field(integer('remindEvery must be an integer >= 0 (0 = silent after the last threshold)', 0), 0,
    'Past the last threshold, repeat the detailed reminder every this many further repeats. 0 keeps the guard silent after the last threshold.'),
  blockAt: field(integer('blockAt must be an integer at or above the last threshold, or 0 (never)', 0), 0,
    'From this run length on (an integer at or above the last threshold), block every further call of the run: the model gets feedback instead of the result. The call has already run. 0 never blocks.'),
}) as Schema<Partial<Config>, Config>

/** One tracked call as the guard remembers it. */
export interface Call {
  tool: string
  args: unknown
  /** With `resultAware`, the error flag and content the tool returned; otherwise undefined. */
  outcome: { isError: boolean, content: unknown } | undefined
}

/** One agent's state: its last tracked call, the identical run it is in, and (with `cycles`) recent calls. */
interface Chain {
  last: Call
  count: number
  /** The latest tracked calls, oldest first, at most `maxCyclePeriod` of them (only with `cycles`). */
  recent: Call[]
  /** `streaks[p]`: how many calls in a row equalled the call `p` places before them (only with `cycles`). */
  streaks: number[]
  /** The period of the cycle last confirmed to be of distinct calls while its streak lasts; 0 for none. */
  period: number
}

/** The run a call extends: one call repeated, or a cycle of distinct calls, and its length so far. */
export interface Run {
  calls: Call[]
  count: number
  /** Whether this call completes a repetition, the only moment a reminder can be due. */
  complete: boolean
}

/** A whole-name pattern cut at its stars, with a KMP failure table per middle piece. */
interface Pattern {
  pieces: string[]
  failures: number[][]
}

function field<T>(check: (value: unknown) => T, fallback: T, description: string) {
  return Schema.transform(Schema.any(), check).default(fallback).description(description)
}

function fail(rule: string, value: unknown): never {
  throw new Error(`${name}: ${rule} (got ${show(value)})`)
}

function show(value: unknown): string {
  try {
    return typeof value === 'string' || typeof value === 'object' ? JSON.stringify(value) : String(value)
  } catch {
    return String(value)
  }
}

function thresholds(value: unknown): number[] {
  if (!Array.isArray(value) || value.length === 0) fail('thresholds must be a non-empty list of integers >= 2', value)
  for (const threshold of value) {
    if (!Number.isInteger(threshold) || threshold < 2) fail('thresholds must be integers >= 2', threshold)
  }
  const sorted = [...value as number[]].sort((a, b) => a - b)
  sorted.forEach((threshold, i) => {
    if (threshold === sorted[i - 1]) fail('thresholds must not repeat a value', threshold)
  })
  return sorted
}

function integer(rule: string, min: number, max = Infinity) {
  return (value: unknown): number => Number.isInteger(value) && (value as number) >= min && (value as number) <= max
    ? value as number
    : fail(rule, value)
}

function flag(key: 'resultAware' | 'cycles') {
  return (value: unknown): boolean => typeof value === 'boolean' ? value : fail(`${key} must be true or false`, value)
}





function patterns(key: 'include' | 'exclude') {
  return (value: unknown): string[] => {
    if (!Array.isArray(value) || !value.every((pattern) => typeof pattern === 'string')) {
      fail(`${key} must be a list of tool-name patterns (strings)`, value)
    }
    return [...value as string[]]
  }
}

/**
 * Compile `a*b*c` into pieces ['a', 'b', 'c']. Matching is linear in name and
 * pattern length for any pattern: prefix and suffix are compared in place, and
 * each middle piece is found left to right with KMP, so no text is scanned twice.
 */
function compile(pattern: string): Pattern {
  const pieces = pattern.split('*')
  const middle = pieces.slice(1, -1).filter((piece) => piece !== '')
  const kept = pieces.length === 1 ? pieces : [pieces[0]!, ...middle, pieces.at(-1)!]
  return { pieces: kept, failures: kept.map(failureTable) }
}

function failureTable(word: string): number[] {
  const table = [0]
  for (let i = 1, k = 0; i < word.length; i++) {
    while (k > 0 && word[i] !== word[k]) k = table[k - 1]!
    if (word[i] === word[k]) k++
    table.push(k)
  }
  return table
}

function find(text: string, from: number, to: number, word: string, table: number[]): number {
  for (let i = from, k = 0; i < to; i++) {
    while (k > 0 && text[i] !== word[k]) k = table[k - 1]!
    if (text[i] === word[k]) k++
    if (k === word.length) return i + 1
  }
  return -1
}

function matches(pattern: Pattern, tool: string): boolean {
  const { pieces, failures } = pattern
  const head = pieces[0]!
  if (pieces.length === 1) return tool === head
  const tail = pieces.at(-1)!
  const end = tool.length - tail.length
  if (end < head.length || !tool.startsWith(head) || !tool.endsWith(tail)) return false
  let at = head.length
  for (let i = 1; i < pieces.length - 1 && at >= 0; i++) at = find(tool, at, end, pieces[i]!, failures[i]!)
  return at >= 0
}

/** Objects with at least this many keys have their key list kept by {@link largeKeys}. */
const LARGE = 32

/**
 * Key lists of the large objects in recently compared arguments. Listing the
 * keys of an object with many properties dominates the cost of comparing it,
 * so the list made while a call was the newer side is reused when the next call
 * is compared against it. Arguments are frozen by the harness, so a list never
 * goes stale; entries vanish with their objects. Small objects are listed
 * afresh, which is cheaper than a lookup.
 */
const largeKeys = new WeakMap<object, string[]>()

/**
 * Whether two argument values are equal as JSON values, object keys in any
 * order. Iterative, so depth is bounded by memory, not the call stack; it stops
 * at the first difference, never copies a string, and walks keys in the order
 * the model wrote them, looking a key up only when the two orders differ.
 */
function sameJson(a: unknown, b: unknown): boolean {
  const pending: object[] = []
  if (!sameOrPending(a, b, pending)) return false
  while (pending.length > 0) {
    const y = pending.pop() as Record<string, unknown>
    const x = pending.pop() as Record<string, unknown>
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false
      for (let i = 0; i < x.length; i++) if (!sameOrPending(x[i], y[i], pending)) return false
      continue
    }
    if (Array.isArray(y)) return false
    const yKeys = Object.keys(y)
    const xKeys = yKeys.length < LARGE ? Object.keys(x) : largeKeys.get(x) ?? Object.keys(x)
    if (yKeys.length >= LARGE) largeKeys.set(y, yKeys)
    if (xKeys.length !== yKeys.length) return false
    for (let i = 0; i < xKeys.length; i++) {
      const key = xKeys[i]!
      if (key !== yKeys[i] && !Object.hasOwn(y, key)) return false
      if (!sameOrPending(x[key], y[key], pending)) return false
    }
  }
  return true
}

/** Compare two values now when they are not both containers; otherwise queue the pair. */
function sameOrPending(x: unknown, y: unknown, pending: object[]): boolean {
  if (x === y) return true
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false
  pending.push(x, y)
  return true
}

/** A piece of already-serialized output waiting on the work stack of {@link canonical}. */
class Text {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

const COMMA = new Text(',')
const EMPTY = new Text('')

/**
 * The canonical form of an argument value: object keys sorted deeply in
 * code-unit order, arrays in order, compact JSON. Iterative for any depth.
 */
function canonical(value: unknown): string {
  let out = ''
  const work: unknown[] = [value]
  while (work.length > 0) {
    const item = work.pop()
    if (item instanceof Text) {
      out += item.text
    } else if (typeof item !== 'object' || item === null) {
      out += JSON.stringify(item)
    } else if (Array.isArray(item)) {
      out += '['
      work.push(new Text(']'))
      for (let i = item.length - 1; i >= 0; i--) work.push(item[i], i > 0 ? COMMA : EMPTY)
    } else {
      out += '{'
      work.push(new Text('}'))
      const keys = Object.keys(item).sort()
      for (let i = keys.length - 1; i >= 0; i--) {
        work.push((item as Record<string, unknown>)[keys[i]!], new Text(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`))
      }
    }
  }
  return out
}

/** The head of `text` within `cap` code units, never splitting a surrogate pair. */
function preview(text: string, cap: number): string {
  if (text.length <= cap) return text
  const cut = /[\uD800-\uDBFF]/.test(text[cap - 1]!) ? cap - 1 : cap
  return `${text.slice(0, cut)}… (${text.length - cut} more chars)`
}

/** The canonical form of `args`, head-truncated to `cap` code units as reminders quote it. */
export function argumentsPreview(args: unknown, cap: number): string {
  return preview(canonical(args), cap)
}

/** The short reminder at the first threshold. */
export function gentleReminder(): string {
  return 'Reminder: you are repeating the exact same tool call with identical arguments. '
    + 'Study its last result. If the task is not done, change your approach or your arguments '
    + 'instead of making the same call again.'
}

/** The detailed reminder at every later threshold. */
export function detailedReminder(tool: string, count: number, argumentsPreview: string): string {
  return `Reminder: you have called \`${tool}\` ${count} times in a row with identical arguments:\n`
    + `${argumentsPreview}\n`
    + 'These repeats are making no progress. Do not call this tool with these exact arguments again. '
    + 'Inspect the latest result and choose a different action or different arguments, '
    + 'or finish if you already have enough evidence.'
}

/** The reminder for a repeating cycle; `calls` are the tools in order with their argument previews. */
export function cycleReminder(calls: { tool: string, preview: string }[], count: number): string {
  return `Reminder: you are repeating the same sequence of ${calls.length} tool calls with identical arguments; it has now run ${count} times in a row:\n`
    + calls.map((call, i) => `${i + 1}. ${call.tool} ${call.preview}\n`).join('')
    + 'This sequence is making no progress. Do not run it again with the same arguments. '
    + 'Inspect the latest results and choose a different action or different arguments, '
    + 'or finish if you already have enough evidence.'
}

/** What the model gets instead of a result that `blockAt` withholds. */
export function withheldFeedback(tools: string[], count: number): string {
  const what = tools.length === 1
    ? `you have made this exact call to \`${tools[0]}\` ${count} times in a row with identical arguments`
    : `you have repeated the same sequence of calls (${tools.join(' → ')}) ${count} times in a row with identical arguments`
  return `Result withheld by repeat-tool-reminder: ${what}, and the repeats are making no progress. `
    + 'The call did run, but its result is not shown again. Do not repeat it with the same arguments: '
    + 'use the results you already have, take a different action or different arguments, or finish.'
}

/**
 * Put the reminder in front of the downstream decision's contexts, and turn a
 * plain accept into a block when the call is to be withheld. A downstream block
 * or replacement keeps its kind and payload: it was decided first.
 */
function decide(decision: PostToolDecision, reminder: UserMessage | undefined, feedback: ContentBlock[] | undefined): PostToolDecision {
  const contexts = decision.additionalContexts ?? []
  const additionalContexts = reminder === undefined ? contexts : [reminder, ...contexts]
  if (feedback !== undefined && decision.kind === 'accept' && decision.content === undefined && decision.value === undefined) {
    return { kind: 'block', feedback, additionalContexts }
  }
  return { ...decision, additionalContexts }
}

/** One tracked call's effect: the runs it extends and what the live listener attaches to it. */
export interface Observation {
  /** How many identical calls in a row this call makes, itself included. */
  repeats: number
  /** With `cycles`: the repeating cycle of distinct calls this call is part of, if any. */
  cycle: Run | undefined
  /** The reminder due at this call, if any. */
  reminder: UserMessage | undefined
  /** With `blockAt`: the feedback that replaces this call's result, if it is withheld. */
  feedback: ContentBlock[] | undefined
}

/** The guard without the harness wiring: what the plugin's two listeners call, and what `replay` drives. */
export interface Guard {
  /** One `tools/post-execute` pass; undefined when the call is ignored (no agent, dispatched by a tool, or untracked). */
  observe(exec: Pick<ToolExecution, 'agent' | 'parent' | 'name' | 'arguments'>, result: Pick<ToolExecutionResult, 'isError' | 'content'>): Observation | undefined
  /** One `agent/pre-step` pass: a message from the user entering the step clears the agent's runs. */
  step(agent: Agent, messages: readonly UserMessage[]): void
}

/** Build the guard for a validated config; throws like plugin load when `blockAt` is below the last threshold. */
export function createGuard(config: Config): Guard {
  const { thresholds, argumentsPreviewChars: cap, remindEvery, blockAt, maxCyclePeriod } = config
  const last = thresholds.at(-1)!
  if (blockAt > 0 && blockAt < last) fail(`blockAt must be an integer at or above the last threshold (${last})`, blockAt)
  const include = config.include.map(compile)
  const exclude = config.exclude.map(compile)
  const chains = new WeakMap<Agent, Chain>()

  const tracked = (tool: string) => (include.length === 0 || include.some((p) => matches(p, tool)))
    && !exclude.some((p) => matches(p, tool))

  const same = (a: Call, b: Call) => a.tool === b.tool && sameJson(a.args, b.args) && sameJson(a.outcome, b.outcome)

  /** Advance the agent's state with one tracked call; return its identical run and its cycle, if any. */
  const advance = (agent: Agent, call: Call): [repeats: number, cycle: Run | undefined] => {
    const chain = chains.get(agent)
    if (chain === undefined) {
      chains.set(agent, { last: call, count: 1, recent: [call], streaks: [], period: 0 })
      return [1, undefined]
    }
    const identical = same(chain.last, call)
    chain.count = identical ? chain.count + 1 : 1
    // Keep the newest call even on a repeat: its large key lists are the cached ones.
    chain.last = call
    return [chain.count, config.cycles ? cycle(chain, call, identical) : undefined]
  }

  /** Track every period's streak; return the shortest cycle of distinct calls that has repeated, if any. */
  const cycle = (chain: Chain, call: Call, identical: boolean): Run | undefined => {
    const { recent, streaks } = chain
    for (let p = 2; p <= maxCyclePeriod; p++) {
      const before = recent[recent.length - p]
      // Set on every call after the first, so a period with a call `p` back already has a streak.
      streaks[p] = !identical && before !== undefined && same(before, call) ? streaks[p]! + 1 : 0
    }
    recent.push(call)
    if (recent.length > maxCyclePeriod) recent.shift()
    if (chain.period > 0 && streaks[chain.period]! < chain.period) chain.period = 0
    for (let p = 2; p <= maxCyclePeriod; p++) {
      const streak = streaks[p]!
      if (streak < p) continue
      const calls = recent.slice(-p)
      // While a confirmed cycle's streak lasts its calls are the same ones, so distinct still.
      if (p === chain.period || calls.every((a, i) => calls.every((b, j) => j <= i || !same(a, b)))) {
        chain.period = p
        return { calls, count: Math.floor(streak / p) + 1, complete: streak % p === 0 }
      }
    }
    return undefined
  }

  const due = ({ count, complete }: Run) => complete
    && (thresholds.includes(count) || (remindEvery > 0 && count > last && (count - last) % remindEvery === 0))

  const reminderFor = (run: Run): UserMessage => {
    const [call] = run.calls
    const text = run.calls.length > 1
      ? cycleReminder(run.calls.map((c) => ({ tool: c.tool, preview: argumentsPreview(c.args, cap) })), run.count)
      : run.count === thresholds[0]
        ? gentleReminder()
        : detailedReminder(call!.tool, run.count, argumentsPreview(call!.args, cap))
    const summary = `${run.calls.map((c) => c.tool).join(' → ')} × ${run.count}`
    return createUserMessage({
      content: [{ type: 'text', text }],
      source: { kind: 'plugin', plugin: name, form: 'notice', summary: boundContextSummary(summary) },
    })
  }

  return {
    observe(exec, result) {
      const { agent, name: tool, arguments: args } = exec
      if (agent === undefined || exec.parent !== undefined || !tracked(tool)) return undefined
      const call = { tool, args, outcome: config.resultAware ? { isError: result.isError, content: result.content } : undefined }
      const [repeats, cycle] = advance(agent, call)
      const run = cycle ?? { calls: [call], count: repeats, complete: true }
      const feedback = blockAt > 0 && run.count >= blockAt
        ? [{ type: 'text', text: withheldFeedback(run.calls.map((c) => c.tool), run.count) }] satisfies ContentBlock[]
        : undefined
      return { repeats, cycle, reminder: due(run) ? reminderFor(run) : undefined, feedback }
    },
    step(agent, messages) {
      if (messages.some((message) => message.source.kind === 'user')) chains.delete(agent)
    },
  }
}

/** Mount the guard: one `tools/post-execute` listener that counts and reminds, one `agent/pre-step` listener that resets. */
export function apply(ctx: Context, config: Config): void {
  const guard = createGuard(config)
  // Mounted outside any agent scope, the guard sees every agent's calls anyway;
  // `global` then only skips the per-listener scope check on the hot path.
  const options = { global: scopeOf(ctx) === undefined }

  ctx.on('tools/post-execute', (exec, result, next) => {
    const seen = guard.observe(exec, result)
    if (seen?.reminder === undefined && seen?.feedback === undefined) return next()
    return next().then((decision) => decide(decision, seen.reminder, seen.feedback))
  }, options)

  ctx.on('agent/pre-step', (payload, next) => {
    guard.step(payload.agent, payload.messages)
    return next()
  }, options)
}
