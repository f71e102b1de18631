/**
 * The pieces of shell syntax the lexer reads besides words: redirection
 * operators, here-document bodies and double-quoted strings.
 */

/** What a double-quoted string's reading stops at: its end, an escape, an expansion. */
const SPECIAL_QUOTED = /["\\$`]/g

/** The same inside double quotes, where `$"` is a dollar sign and the closing quote. */
const QUOTED_EXPANSION = /[A-Za-z0-9_{(@*#?$![-]/

/** What a backslash escapes inside double quotes; before anything else it stands for itself. */
const ESCAPED = /[$`"\\\n]/

/**
 * Where a word goes: a command's words, or a redirection's operand: a file it writes or reads, a
 * descriptor (or, when not a number, a file it writes), a here-string.
 */
export type Target = 'word' | 'write' | 'read' | 'descriptor' | 'string' | 'document' | 'tabbed document'

/** A here-document to read: its delimiter, whether it was quoted (its body is then literal), and `<<-`'s tabs. */
export interface HereDocument {
  delimiter: string
  literal: boolean
  tabbed: boolean
}

/**
 * Past the body of a here-document that starts at `from`: where the line after its delimiter
 * starts; undefined when no line ends it, or when a body that is not literal may expand something.
 */
export function body(source: string, from: number, { delimiter, literal, tabbed }: HereDocument): number | undefined {
  for (let at = from; ; ) {
    const newline = source.indexOf('\n', at)
    const end = newline === -1 ? source.length : newline
    const line = tabbed ? source.slice(at, end).replace(/^\t+/, '') : source.slice(at, end)
    if (line === delimiter) return end + 1
    if ((!literal && /[$`\\]/.test(line)) || newline === -1) return undefined
    at = newline + 1
  }
}

/**
 * The redirection operator at `at`: where its operand goes, and where the operator ends. An operator
 * right after it (`<>`) or a paren (`>(`, `<(`) is syntax the lexer does not read, and it gives up there.
 */
export function redirect(source: string, at: number): { target: Target; end: number } {
  const next = source[at + 1]
  if (source[at] === '>') {
    if (next === '>' || next === '|') return { target: 'write', end: at + 2 }
    if (next === '&') return { target: 'descriptor', end: at + 2 }
    return { target: 'write', end: at + 1 }
  }
  // `<`: a file read; `<<<` a string; `<<` and `<<-` a here-document; `<&` a descriptor.
  if (next === '<') {
    const third = source[at + 2]
    if (third === '<') return { target: 'string', end: at + 3 }
    return third === '-' ? { target: 'tabbed document', end: at + 3 } : { target: 'document', end: at + 2 }
  }
  if (next === '&') return { target: 'descriptor', end: at + 2 }
  return { target: 'read', end: at + 1 }
}

/**
 * A double-quoted string from `from` (after its opening quote): its text, escapes resolved, and
 * where it ends; undefined when it is not closed or expands anything.
 */
export function doubleQuoted(source: string, from: number): { text: string; end: number } | undefined {
  // Most strings hold no escape and no dollar sign: their text is what stands between the quotes.
  const closing = source.indexOf('"', from)
  if (closing === -1) return undefined
  const plain = source.slice(from, closing)
  if (!/[\\$`]/.test(plain)) return { text: plain, end: closing + 1 }
  let text = ''
  let i = from
  for (;;) {
    SPECIAL_QUOTED.lastIndex = i
    const found = SPECIAL_QUOTED.exec(source)
    if (found === null) return undefined
    text += source.slice(i, found.index)
    i = found.index
    const c = found[0]
    if (c === '"') return { text, end: i + 1 }
    const next = source.charAt(i + 1)
    if (c === '`' || (c === '$' && QUOTED_EXPANSION.test(next))) return undefined
    if (c === '\\' && ESCAPED.test(next)) {
      if (next !== '\n') text += next
      i += 2
    } else {
      text += c
      i++
    }
  }
}
