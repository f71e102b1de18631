import { RULES } from '../../src/rules/index.ts'

/** The opt-in rules these suites were written with, each a `--suggest` candidate of its own. */
const KNOWN = new Set(['relapse', 'sameFailure', 'cycles', 'rereads'])

/**
 * The candidates of rules added to the registry later: each brings a `--suggest` row of its own,
 * which the suites that pin a whole table leave out of their comparisons (its own test covers it).
 */
const LATER = new Set(
  RULES.flatMap(({ candidate }) => (candidate === undefined ? [] : [Object.keys(candidate).join(', ')])).filter(
    (name) => !KNOWN.has(name),
  ),
)

/**
 * The rows a suite pins: all but those of rules added later, alone or as the last step of the
 * thresholds' chain (`…, rereads, reruns`).
 */
export function known<T>(rows: readonly T[], name: (row: T) => string): T[] {
  return rows.filter((row) => !LATER.has(name(row).split(', ').at(-1) as string))
}

/** A text report's lines but the `--suggest` rows of rules added later. */
export function knownLines(text: string): string {
  return known(text.split('\n'), (line) => /^ {2}[ *] (\S+) {2,}/.exec(line)?.[1] ?? '').join('\n')
}
