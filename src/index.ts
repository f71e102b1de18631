/**
 * repeat-tool-reminder: counts, per agent, consecutive tool calls with the same
 * tool name and the same canonical arguments, and at configured run lengths
 * attaches an advisory reminder to the call as plugin-sourced model context.
 *
 * It never delays, blocks or rewrites a call, never changes a tool result, and
 * never throws into the tool pipeline: the model decides what to do next.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { scopeOf } from '@deepseek-ai/dsh-scope'
import { boundContextSummary, createUserMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import type {} from '@deepseek-ai/dsh-tools'
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
}

/** The schema of {@link Config}; a bad value throws at load with a message naming the field and the value. */
export const Config: Schema<Partial<Config>, Config> = Schema.object({
  thresholds: field(thresholds, [3, 5, 8],
    'Run lengths (integers >= 2, no repeats) at which a reminder is due. The first gets a short reminder, later ones a detailed one; past the last the guard is silent.'),
  argumentsPreviewChars: field(previewChars, 500,
    'Most characters of canonical arguments quoted in a detailed reminder; the rest is summarised as "… (N more chars)". Detection always compares the full arguments.'),
  include: field(patterns('include'), [],
    'Tools to track, as whole-name patterns where * matches any run of characters. Empty tracks every tool.'),
  exclude: field(patterns('exclude'), [],
    'Tools never to track, as whole-name patterns where * matches any run of characters. An untracked call neither counts nor resets a run.'),
}) as Schema<Partial<Config>, Config>

/** One agent's current run: the last tracked call and how many times in a row it was made. */
interface Chain {
  tool: string
  args: unknown
  count: number
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

function previewChars(value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 1) fail('argumentsPreviewChars must be a positive integer', value)
  return value as number
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

/** Mount the guard: one `tools/post-execute` listener that counts and reminds, one `agent/pre-step` listener that resets. */
export function apply(ctx: Context, config: Config): void {
  const include = config.include.map(compile)
  const exclude = config.exclude.map(compile)
  const chains = new WeakMap<Agent, Chain>()

  const tracked = (tool: string) => (include.length === 0 || include.some((p) => matches(p, tool)))
    && !exclude.some((p) => matches(p, tool))

  /** Advance the agent's chain with one tracked call; return the run length it reaches. */
  const advance = (agent: Agent, tool: string, args: unknown): number => {
    const chain = chains.get(agent)
    if (chain === undefined) {
      chains.set(agent, { tool, args, count: 1 })
      return 1
    }
    chain.count = chain.tool === tool && sameJson(chain.args, args) ? chain.count + 1 : 1
    chain.tool = tool
    // Keep the newest arguments even on a repeat: their large key lists are the cached ones.
    chain.args = args
    return chain.count
  }

  const reminderFor = (tool: string, args: unknown, count: number): UserMessage | undefined => {
    const step = config.thresholds.indexOf(count)
    if (step < 0) return undefined
    const text = step === 0
      ? gentleReminder()
      : detailedReminder(tool, count, preview(canonical(args), config.argumentsPreviewChars))
    return createUserMessage({
      content: [{ type: 'text', text }],
      source: { kind: 'plugin', plugin: name, form: 'notice', summary: boundContextSummary(`${tool} × ${count}`) },
    })
  }

  // Mounted outside any agent scope, the guard sees every agent's calls anyway;
  // `global` then only skips the per-listener scope check on the hot path.
  const options = { global: scopeOf(ctx) === undefined }

  ctx.on('tools/post-execute', (exec, _result, next) => {
    const { agent, name: tool, arguments: args } = exec
    if (agent === undefined || exec.parent !== undefined || !tracked(tool)) return next()
    const reminder = reminderFor(tool, args, advance(agent, tool, args))
    if (reminder === undefined) return next()
    return next().then((decision) => ({ ...decision, additionalContexts: [reminder, ...decision.additionalContexts ?? []] }))
  }, options)

  ctx.on('agent/pre-step', (payload, next) => {
    if (payload.messages.some((message) => message.source.kind === 'user')) chains.delete(payload.agent)
    return next()
  }, options)
}
