/**
 * How a config error speaks of what it got: a value quoted short whatever its
 * size or shape, and the known name that a misspelt one most likely meant.
 */
import { Written } from './values.ts'

/**
 * The known name a misspelled one most likely meant: same letters in another case, or at most a
 * third of its letters off; a config's keys, or a command line's options.
 */
export function closest<K extends string>(key: string, names: readonly K[]): K | undefined {
  let best: K | undefined
  let bestDistance = Math.max(1, Math.floor(key.length / 3)) + 1
  for (const known of names) {
    // Texts whose lengths differ by more than the best distance so far are farther apart than it.
    if (Math.abs(key.length - known.length) >= bestDistance) continue
    const distance = editDistance(key.toLowerCase(), known.toLowerCase())
    if (distance < bestDistance) {
      best = known
      bestDistance = distance
    }
  }
  return best
}

/** Levenshtein distance between two texts, in code units: one row of the table at a time. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  let last = b.length
  for (const [i, x] of a.split('').entries()) {
    // Left of, above and diagonally above the cell being filled.
    let left = i + 1
    let diagonal = i
    const next = [left]
    for (const [j, above] of row.slice(1).entries()) {
      left = Math.min(above + 1, left + 1, diagonal + (x === b[j] ? 0 : 1))
      diagonal = above
      next.push(left)
    }
    row = next
    last = left
  }
  return last
}

/** The most characters of a value an error message quotes. */
const SHOWN = 80

/**
 * A value as an error quotes it: its JSON form (numbers and bigints as
 * JavaScript writes them), cut after {@link SHOWN} characters with an
 * ellipsis, and built only that far, so that a huge value, a YAML alias bomb
 * or a value that contains itself costs what a small one does.
 */
export function show(value: unknown): string {
  let out = ''
  const work: unknown[] = [value]
  while (work.length > 0 && out.length <= SHOWN) {
    const item = work.pop()
    if (item instanceof Written) out += item.text
    else if (typeof item === 'string') out += JSON.stringify(item.slice(0, SHOWN + 1))
    else if (typeof item !== 'object' || item === null) out += String(item)
    else {
      const array = Array.isArray(item)
      const keys = array ? [] : Object.keys(item)
      const entries = array ? item.length : keys.length
      out += array ? '[' : '{'
      work.push(new Written(array ? ']' : '}'))
      // Pushed last first, and no more of them than the text can show.
      for (let i = Math.min(entries, SHOWN) - 1; i >= 0; i--) {
        // An array has no keys: its entries are named by their place.
        const name = keys[i]
        const key = name === undefined ? '' : `${JSON.stringify(name.slice(0, SHOWN + 1))}:`
        work.push(
          name === undefined ? (item as unknown[])[i] : (item as Record<string, unknown>)[name],
          new Written(`${i > 0 ? ',' : ''}${key}`),
        )
      }
    }
  }
  return out.length > SHOWN ? `${out.slice(0, SHOWN)}…` : out
}
