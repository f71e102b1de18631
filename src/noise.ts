/**
 * What changes from one run of a command to the next without telling the model
 * anything (`maskNoise`): durations and elapsed times, clock times and dates,
 * process ids, temporary paths and long hexadecimal ids (with a letter among
 * their digits), each replaced by a mark of its kind before two outcomes are
 * compared; a timing in brackets goes whole. Conservative: a count, a
 * line number, an exit code or any number without a unit of time is kept, as
 * a change there is a change the model should see. Each pattern is linear in
 * the text: no nested repetition.
 */

/**
 * Each kind of noise, in the order it is masked, and its mark. Dates and times go before durations,
 * so that `12:30:05` is a clock time and not a number.
 */
const NOISE: readonly [RegExp, string][] = [
  // ` (523ms)`, ` [12.24ms]`, even wrapped as `[12.` and `24ms]`: a timing a runner prints on some lines
  // only (the slow ones) goes whole, so the lines with and without it are the same line
  [/[ \t]*[([]\d+(?:\.\s*\d*)?\s?(?:ns|µs|us|ms|s|secs?|seconds?|mins?|minutes?)[)\]]/g, ''],
  // 2026-12-03, 2026-12-03T16:17:51.123Z, 2026-12-03 16:17:51+01:00
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, '<date>'],
  // 16:17:51, 16:17:51.123, 00:01:23 as an elapsed time
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  // 968ms, 0.52s, 1.2 seconds, 3 min, 250µs
  [/\b\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|s|secs?|seconds?|mins?|minutes?)\b/g, '<duration>'],
  // pid 4242, PID: 4242, pid=4242, Process Group PGID: 4242, PPID 1
  [/\bp[pg]?id\b[=: ]\s*\d+/gi, 'pid <pid>'],
  // /tmp/tmpa1b2c3/x.py → <tmp>/x.py, /private/tmp/…, /var/folders/ab/cd/T/tmpx/…: the one folder a run makes
  // afresh, not what lies below it (a project under /tmp keeps its file names)
  [/(?:\/private)?\/(?:tmp|var\/tmp|var\/folders\/[^\s/]+\/[^\s/]+\/[A-Z])\/[^\s'"`:,;)\]}/]+/g, '<tmp>'],
  // commit and object ids, UUIDs, hashes: 12 hexadecimal digits and more
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<hex>'],
]

/** A run of letters, digits and underscores: a word, as `\b` bounds one. */
const WORD = /\w+/g

/** How many hexadecimal digits make an id: a short commit id is 12. */
const LONG_HEX = 12

/**
 * `text` with its noise masked; the same text when it has none. Long hex ids
 * are found word by word, not by one pattern: a pattern over a word of
 * millions of digits would overflow the regular expression engine's stack.
 */
export function maskNoise(text: string): string {
  let out = text
  for (const [pattern, mark] of NOISE) out = out.replace(pattern, mark)
  return out.replace(WORD, (word) => (isHexId(word) ? '<hex>' : word))
}

/**
 * Whether a word is a long hex id: 12 hexadecimal digits or more, one of them a letter. A number of
 * decimal digits alone is a count, a size or a time, and a change in it is one the model should see.
 */
function isHexId(word: string): boolean {
  return word.length >= LONG_HEX && /^[0-9a-f]+$/i.test(word) && /[a-f]/i.test(word)
}
