/**
 * How replay writes text: the width of a line and how a longer one wraps,
 * escaping what a log could use to fake a line, and numbers as a person reads
 * them. Pure.
 */

/** The widest line of the report, in characters: a longer one is wrapped, its continuation indented. */
export const WIDTH = 100

/**
 * A line cut into lines of at most `width` characters: at the last space that
 * fits, or in the middle of a word longer than a line; each continuation is
 * indented four more than the line it continues.
 */
export function wrap(line: string, width: number): string[] {
  if (line.length <= width) return [line]
  const indent = ' '.repeat(line.length - line.trimStart().length + 4)
  const out: string[] = []
  let rest = line
  let lead = ''
  while (lead.length + rest.length > width) {
    const room = width - lead.length
    const space = rest.lastIndexOf(' ', room)
    // A break inside the leading indentation would leave an empty line: cut the word instead.
    const cut = space > rest.length - rest.trimStart().length ? space : room
    out.push(lead + rest.slice(0, cut))
    rest = rest.slice(cut).trimStart()
    lead = indent
  }
  out.push(lead + rest)
  return out
}

/**
 * Escape what a log could use to fake output or hide what it says: control
 * characters (C0, DEL, C1), line separators, and the bidirectional formatting
 * characters that reorder how a line reads (U+061C, U+200E, U+200F,
 * U+202A–U+202E, U+2066–U+2069). Anything that is not a string prints as its
 * JSON form, escaped the same way.
 */
export function printable(text: unknown): string {
  const shown = typeof text === 'string' ? text : String(JSON.stringify(text))
  return shown.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters made visible.
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/** A ratio to two decimals; – when it is unknown. */
export function ratio(value: number | null): string {
  return value === null ? '–' : value.toFixed(2)
}

/** A count with its noun, plural unless it is one: 1 call, 2,000 calls. */
export function count(n: number, noun: string): string {
  return `${grouped(n)} ${noun}${n === 1 ? '' : 's'}`
}

/** A number with its thousands grouped: 2,492,860. */
export function grouped(n: number): string {
  return n.toLocaleString('en-US')
}
