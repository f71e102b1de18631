/** The arithmetic the scores are made of: halving search, ratios, means and medians. */

/** The index of the first of the ascending `values` at or past `n`, found by halving; their length when none is. */
export function firstAtOrAfter(values: readonly number[], n: number): number {
  let low = 0
  let high = values.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (values[middle]! < n) low = middle + 1
    else high = middle
  }
  return low
}

/** The harmonic mean of two ratios; 0 when both are. */
export function harmonic(a: number, b: number): number {
  return a + b === 0 ? 0 : (2 * a * b) / (a + b)
}

/** A part of a whole; null when the whole is none. */
export function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole
}

/** The middle of some values (the mean of the two middle ones for an even count); null for none. */
export function median(values: number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  // One middle value for an odd count, two for an even one.
  const middle = sorted.slice((sorted.length - 1) >> 1, (sorted.length >> 1) + 1)
  return middle.reduce((sum, v) => sum + v, 0) / middle.length
}
