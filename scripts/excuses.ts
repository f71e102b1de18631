/**
 * Excused mutants, written next to the code they excuse: a comment line
 *
 *     // mutant (equivalent) EqualityOperator "i <= x.length": one step past the end ...
 *
 * excuses exactly one surviving mutant on the next line that is not a comment:
 * the one with that mutator and that replacement. The section says why it is
 * excused: `equivalent` (no test can tell), `environment` (a test outside
 * Stryker covers it; say which) or `speed` (it changes only how fast). A
 * reason may go on over the comment lines after it. Keyed by the code, not by a
 * line number, an excuse moves with its line; one that matches no surviving
 * mutant any more is stale. Pure: `scripts/mutate.ts` reads the files.
 */

/** Why a surviving mutant may be left out of a file's score. */
export const SECTIONS = ['equivalent', 'environment', 'speed'] as const

/** One excuse: where it is written, the line it excuses, and the mutant it names. */
export interface Excuse {
  file: string
  /** The 1-based line of the comment. */
  at: number
  /** The 1-based line of the code it excuses. */
  line: number
  section: (typeof SECTIONS)[number]
  mutator: string
  replacement: string
  reason: string
}

/** A mutant as StrykerJS's JSON report gives it. */
export interface Mutant {
  mutatorName: string
  replacement?: string
  status: string
  location: { start: { line: number; column: number }; end: { line: number; column: number } }
}

const EXCUSE = /^\s*\/\/ mutant \((\w+)\) (\w+) ("(?:[^"\\]|\\.)*"): (.+)$/
const COMMENT = /^\s*\/\/ ?(.*)$/

/** The excuses in one source file's text; throws on a malformed one, naming the file and line. */
export function readExcuses(file: string, text: string): Excuse[] {
  const lines = text.split('\n')
  const excuses: Excuse[] = []
  for (const [i, line] of lines.entries()) {
    if (!/^\s*\/\/ mutant\b/.test(line)) continue
    const where = `${file}:${i + 1}`
    const match = EXCUSE.exec(line)
    if (match === null)
      throw new Error(`${where}: an excuse reads // mutant (<section>) <mutator> <replacement as JSON>: <reason>`)
    const section = match[1] as Excuse['section']
    if (!SECTIONS.includes(section))
      throw new Error(`${where}: unknown section "${section}" (use ${SECTIONS.join(', ')})`)
    let reason = match[4]!
    let j = i + 1
    for (; j < lines.length && COMMENT.test(lines[j]!); j++) {
      if (!/^\s*\/\/ mutant\b/.test(lines[j]!)) reason += ` ${COMMENT.exec(lines[j]!)![1]!.trim()}`
    }
    if (j === lines.length || lines[j]!.trim() === '')
      throw new Error(`${where}: an excuse must stand right above the code it excuses`)
    excuses.push({
      file,
      at: i + 1,
      line: j + 1,
      section,
      mutator: match[2]!,
      replacement: JSON.parse(match[3]!) as string,
      reason,
    })
  }
  return excuses
}

/**
 * Match excuses to one file's mutants: each excuse takes one surviving mutant
 * on its line with its mutator and replacement. Returns the mutants left to
 * score and the excuses that matched none (stale: the code changed, or a test
 * now kills the mutant).
 */
export function applyExcuses(
  mutants: readonly Mutant[],
  excuses: readonly Excuse[],
): { scored: Mutant[]; excused: number; stale: Excuse[] } {
  const scored = [...mutants]
  const stale: Excuse[] = []
  for (const excuse of excuses) {
    const i = scored.findIndex(
      (m) =>
        m.location.start.line === excuse.line &&
        m.mutatorName === excuse.mutator &&
        (m.replacement ?? '') === excuse.replacement &&
        survived(m),
    )
    if (i < 0) stale.push(excuse)
    else scored.splice(i, 1)
  }
  return { scored, excused: excuses.length - stale.length, stale }
}

/** Whether the tests ran against a mutant at all: it compiled, started, and was not ignored. */
export function ran(m: Mutant): boolean {
  return !['CompileError', 'RuntimeError', 'Ignored'].includes(m.status)
}

/** Whether a mutant lived through the tests: it ran, and was neither killed nor timed out. */
export function survived(m: Mutant): boolean {
  return ran(m) && m.status !== 'Killed' && m.status !== 'Timeout'
}
