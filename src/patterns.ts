/**
 * Whole-name tool patterns, where `*` matches any run of characters and every
 * other character is literal, and the filters built from them: which tools are
 * tracked, and which arguments a tool's calls are compared without.
 * Matching is linear in the name and the pattern for any pattern; nothing here
 * uses regular expressions.
 */

/** A compiled pattern: the literal pieces between its stars, with a KMP failure table each. */
export interface Pattern {
  /** The text before the first `*`; the whole pattern when it has none. */
  head: string
  /** The text after the last `*`; undefined for a pattern without one. */
  tail: string | undefined
  /** Each non-empty piece between the first and the last `*`, with its failure table. */
  middle: { word: string; table: number[] }[]
}

/**
 * Compile `a*b*c` into its head `a`, its tail `c` and the pieces between (`b`):
 * head and tail are compared in place, and each non-empty middle piece is found
 * left to right with KMP, so no character of a name is scanned twice.
 */
export function compile(pattern: string): Pattern {
  const first = pattern.indexOf('*')
  if (first < 0) return { head: pattern, tail: undefined, middle: [] }
  const last = pattern.lastIndexOf('*')
  const middle = pattern
    .slice(first + 1, last)
    .split('*')
    .filter((word) => word !== '')
    .map((word) => ({ word, table: failureTable(word) }))
  return { head: pattern.slice(0, first), tail: pattern.slice(last + 1), middle }
}

/** Whether `tool` matches the whole pattern. */
export function matches({ head, tail, middle }: Pattern, tool: string): boolean {
  if (tail === undefined) return tool === head
  const end = tool.length - tail.length
  if (end < head.length || !tool.startsWith(head) || !tool.endsWith(tail)) return false
  let at = head.length
  for (const { word, table } of middle) {
    at = find(tool, at, end, word, table)
    if (at < 0) return false
  }
  return true
}

/** Whether some pattern of `patterns` matches a tool; none does when the list is empty. */
export function anyOf(patterns: readonly string[]): (tool: string) => boolean {
  const compiled = patterns.map(compile)
  return (tool) => compiled.some((p) => matches(p, tool))
}

/** Whether a tool is tracked: matched by some `include` pattern (or `include` is empty) and by no `exclude` pattern. */
export function toolFilter(include: readonly string[], exclude: readonly string[]): (tool: string) => boolean {
  const wanted = anyOf(include)
  const unwanted = anyOf(exclude)
  return (tool) => (include.length === 0 || wanted(tool)) && !unwanted(tool)
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

/** The index just past the first occurrence of `word` in `text[from, to)`, or -1. */
function find(text: string, from: number, to: number, word: string, table: number[]): number {
  for (let i = from, k = 0; i < to; i++) {
    while (k > 0 && text[i] !== word[k]) k = table[k - 1]!
    if (text[i] === word[k]) k++
    if (k === word.length) return i + 1
  }
  return -1
}

/**
 * How many tools' lists {@link argumentFilter} keeps: every call to a tool
 * then shares one list, however many entries match it, and a stream of
 * distinct tool names keeps no more than this many.
 */
export const KEPT_TOOLS = 64

/**
 * Per tool, the top-level arguments its calls are compared without: every `ignoreArguments` entry
 * (`<tool pattern>.<argument>`) whose pattern matches the tool.
 */
export function argumentFilter(entries: readonly string[]): (tool: string) => readonly string[] {
  const split = entries.map(ignoredArgument)
  const compiled = split.map((entry) => ({ pattern: compile(entry.tool), argument: entry.argument }))
  const none: readonly string[] = []
  const kept = new Map<string, readonly string[]>()
  return (tool) => {
    let list = kept.get(tool)
    if (list === undefined) {
      const ignored = compiled.filter((entry) => matches(entry.pattern, tool)).map((entry) => entry.argument)
      list = ignored.length === 0 ? none : ignored
      // The tool kept longest goes first.
      if (kept.size === KEPT_TOOLS) kept.delete(kept.keys().next().value!)
      kept.set(tool, list)
    }
    return list
  }
}

/** Split an `ignoreArguments` entry at its last dot: the tool pattern, and the argument it leaves out. */
export function ignoredArgument(entry: string): { tool: string; argument: string } {
  const dot = entry.lastIndexOf('.')
  return { tool: entry.slice(0, dot), argument: entry.slice(dot + 1) }
}
