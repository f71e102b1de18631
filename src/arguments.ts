/**
 * What a call's arguments are: the value the loop hands to the tool (parsed and
 * deep-frozen JSON, `{}` for none, the raw text when malformed), when two of them
 * are the same, their canonical JSON form, and the preview a reminder quotes.
 * Nothing here serializes arguments to compare them or copies them.
 */
import { isRecord, kept, Written } from './values.ts'

/**
 * A call as the model made it, without its result: the tool, its arguments, and the top-level
 * arguments left out when it is compared or quoted (`ignoreArguments`).
 */
export interface ToolCall {
  tool: string
  args: unknown
  ignored: readonly string[]
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
 * The arguments as the loop hands them to the tools: parsed and deep-frozen JSON, `{}` for none, or
 * the raw text when malformed.
 */
export function deliveredArguments(raw: string): unknown {
  try {
    return raw ? freeze(JSON.parse(raw)) : {}
  } catch {
    return raw
  }
}

/** Deep-freeze, as the tool registry does before `tools/post-execute`. */
function freeze<T>(value: T): T {
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const item = pending.pop()
    // Primitives and null count as frozen, so only objects and arrays get here.
    if (!Object.isFrozen(item)) {
      Object.freeze(item)
      // One push per value: spreading a large array would overflow the argument limit.
      for (const child of Object.values(item as object)) pending.push(child)
    }
  }
  return value
}

/**
 * Whether two argument values are equal as JSON values, object keys in any
 * order. Iterative, so depth is bounded by memory, not the call stack; it stops
 * at the first difference, never copies a string, and walks keys in the order
 * the model wrote them, looking a key up only when the two orders differ.
 */
export function sameJson(a: unknown, b: unknown): boolean {
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
    const xKeys = yKeys.length < LARGE ? Object.keys(x) : (largeKeys.get(x) ?? Object.keys(x))
    if (yKeys.length >= LARGE) largeKeys.set(y, yKeys)
    if (xKeys.length !== yKeys.length) return false
    for (let i = 0, key = xKeys[0]; key !== undefined; key = xKeys[++i]) {
      if (key !== yKeys[i] && !Object.hasOwn(y, key)) return false
      if (!sameOrPending(x[key], y[key], pending)) return false
    }
  }
  return true
}

/**
 * Whether two calls' arguments are the same once the top-level keys in
 * `ignored` are left out of both (`ignoreArguments`); everything else compares
 * as {@link sameJson} does. Nothing is copied: the kept keys are compared in place.
 */
export function sameArguments(a: unknown, b: unknown, ignored: readonly string[]): boolean {
  if (ignored.length === 0 || !isRecord(a) || !isRecord(b)) return sameJson(a, b)
  const left = setOf(ignored)
  let kept = 0
  for (const key of Object.keys(a)) {
    if (left.has(key)) continue
    kept++
    if (!Object.hasOwn(b, key) || !sameJson(a[key], b[key])) return false
  }
  for (const key of Object.keys(b)) if (!left.has(key)) kept--
  return kept === 0
}

/** The top-level keys of `args` that `ignored` names: the ones a reminder says were not compared. */
export function ignoredKeys(args: unknown, ignored: readonly string[]): string[] {
  if (!isRecord(args)) return []
  const left = setOf(ignored)
  return Object.keys(args)
    .filter((key) => left.has(key))
    .sort()
}

/**
 * Each list of ignored arguments as a set, made once per list: a config may ignore thousands, and
 * every call to a tool shares its list.
 */
const sets = new WeakMap<readonly string[], ReadonlySet<string>>()

/** `list` as a set, the same one every time for the same list. */
function setOf(list: readonly string[]): ReadonlySet<string> {
  return kept(sets, list, () => new Set(list))
}

/** Compare two values now when they are not both containers; otherwise queue the pair. */
function sameOrPending(x: unknown, y: unknown, pending: object[]): boolean {
  if (x === y) return true
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false
  pending.push(x, y)
  return true
}

const COMMA = new Written(',')
const EMPTY = new Written('')

/**
 * The canonical form of an argument value: object keys sorted deeply in
 * code-unit order, arrays in order, compact JSON, the top-level keys in
 * `omitted` left out. Iterative for any depth.
 */
export function canonical(value: unknown, omitted: readonly string[]): string {
  let out = ''
  const left = setOf(omitted)
  const work: unknown[] = [value]
  while (work.length > 0) {
    const item = work.pop()
    if (item instanceof Written) {
      out += item.text
    } else if (typeof item !== 'object' || item === null) {
      out += JSON.stringify(item)
    } else if (Array.isArray(item)) {
      out += '['
      work.push(new Written(']'))
      for (let i = item.length - 1; i >= 0; i--) work.push(item[i], i > 0 ? COMMA : EMPTY)
    } else {
      out += '{'
      work.push(new Written('}'))
      const keys = Object.keys(item)
        .filter((key) => item !== value || !left.has(key))
        .sort()
      for (let i = keys.length - 1, key = keys[i]; key !== undefined; key = keys[--i]) {
        work.push((item as Record<string, unknown>)[key], new Written(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`))
      }
    }
  }
  return out
}

/** The head of `text` within `cap` code units, never splitting a surrogate pair. */
export function preview(text: string, cap: number): string {
  if (text.length <= cap) return text
  const cut = /[\uD800-\uDBFF]/.test(text.charAt(cap - 1)) ? cap - 1 : cap
  return `${text.slice(0, cut)}… (${text.length - cut} more chars)`
}

/**
 * The canonical form of `args` without the `omitted` top-level keys, head-truncated to `cap` code
 * units as reminders quote it.
 */
export function argumentsPreview(args: unknown, cap: number, omitted: readonly string[]): string {
  return preview(canonical(args, omitted), cap)
}
