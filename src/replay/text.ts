/**
 * How replay writes text: escaping what a log could use to fake a line, and
 * numbers as a person reads them (the width of a line and how a longer one
 * wraps are `wrap.ts`'s). Pure.
 */

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
