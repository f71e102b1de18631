/**
 * Excused mutants, kept in a ledger beside the code (`excused-mutants.yml`), not in it. The ledger
 * maps each source file to its entries:
 *
 *     src/arguments.ts:
 *       - code: for (let i = 0; i < x.length; i++) g(x[i])
 *         mutator: EqualityOperator
 *         replacement: i <= x.length
 *         kind: equivalent
 *         reason: one step past the end reads undefined, which is skipped.
 *
 * An entry excuses exactly one surviving mutant with that mutator and replacement that starts on a
 * line whose text, trimmed, is `code`. Keyed by the line's text, not its number, an entry moves
 * with its line; it is stale when no line of the file reads `code` any more, or when the run
 * mutated its line and no surviving mutant matches it. An entry whose line the run did not mutate
 * (`npm run mutate -- --mutate <ranges>` over other lines) is not judged. The kind says why it is
 * excused: `equivalent` (no test can tell),
 * `environment` (a test outside Stryker covers it; the reason says which) or `speed` (it changes
 * only how fast). Pure: `scripts/mutate.ts` reads the files.
 */
import yaml from 'js-yaml'

/** Why a surviving mutant may be left out of a file's score. */
export const KINDS = ['equivalent', 'environment', 'speed'] as const

/** One entry of the ledger: the file and line it excuses, the mutant it names, and why. */
export interface Excuse {
  file: string
  /** The trimmed text of the line the mutant starts on. */
  code: string
  mutator: string
  replacement: string
  kind: (typeof KINDS)[number]
  reason: string
}

/** A mutant as StrykerJS's JSON report gives it. */
export interface Mutant {
  mutatorName: string
  replacement?: string
  status: string
  location: { start: { line: number; column: number }; end: { line: number; column: number } }
}

/** Why an excuse excused nothing. */
export interface Stale {
  excuse: Excuse
  why: string
}

const FIELDS = ['code', 'mutator', 'replacement', 'kind', 'reason'] as const

/** The excuses in the ledger's text; throws on a malformed entry, naming it. */
export function readLedger(text: string, name = 'excused-mutants.yml'): Excuse[] {
  const data: unknown = yaml.load(text)
  if (data === undefined || data === null) return []
  if (typeof data !== 'object' || Array.isArray(data)) throw new Error(`${name}: the ledger maps source files to lists`)
  const excuses: Excuse[] = []
  for (const [file, entries] of Object.entries(data)) {
    if (!Array.isArray(entries)) throw new Error(`${name}: ${file} must hold a list of entries`)
    for (const [i, entry] of (entries as unknown[]).entries()) {
      const where = `${name}: ${file} entry ${i + 1}`
      if (typeof entry !== 'object' || entry === null) throw new Error(`${where} is not an object`)
      const fields = entry as Record<string, unknown>
      for (const field of FIELDS) {
        if (typeof fields[field] !== 'string' || fields[field] === '') {
          throw new Error(`${where}: ${field} must be a non-empty text (an entry has ${FIELDS.join(', ')})`)
        }
      }
      const extra = Object.keys(fields).find((key) => !(FIELDS as readonly string[]).includes(key))
      if (extra !== undefined) throw new Error(`${where}: unknown field "${extra}" (an entry has ${FIELDS.join(', ')})`)
      if (!(KINDS as readonly string[]).includes(fields.kind as string)) {
        throw new Error(`${where}: unknown kind "${fields.kind as string}" (use ${KINDS.join(', ')})`)
      }
      excuses.push({ file, ...(fields as Omit<Excuse, 'file'>) })
    }
  }
  return excuses
}

/**
 * Match one file's excuses to its mutants: each excuse takes one surviving mutant with its mutator
 * and replacement that starts on a line reading its `code`. A `speed` excuse takes a timed-out one
 * too: a mutant that only slows the code passes Stryker's time limit on one machine and not on a
 * slower or busier one. Returns the mutants left to score and the excuses that matched none, with why.
 */
export function applyExcuses(
  source: string,
  mutants: readonly Mutant[],
  excuses: readonly Excuse[],
): { scored: Mutant[]; excused: number; stale: Stale[]; unjudged: Excuse[] } {
  const lines = source.split('\n').map((line) => line.trim())
  const scored = [...mutants]
  const stale: Stale[] = []
  const unjudged: Excuse[] = []
  for (const excuse of excuses) {
    if (!lines.includes(excuse.code)) {
      stale.push({ excuse, why: 'no line of the file reads its code any more' })
      continue
    }
    if (!mutants.some((m) => lines[m.location.start.line - 1] === excuse.code)) {
      unjudged.push(excuse)
      continue
    }
    const i = scored.findIndex(
      (m) =>
        lines[m.location.start.line - 1] === excuse.code &&
        m.mutatorName === excuse.mutator &&
        (m.replacement ?? '') === excuse.replacement &&
        (survived(m) || (excuse.kind === 'speed' && m.status === 'Timeout')),
    )
    if (i < 0) stale.push({ excuse, why: 'no surviving mutant on its line has its mutator and replacement' })
    else scored.splice(i, 1)
  }
  return { scored, excused: excuses.length - stale.length - unjudged.length, stale, unjudged }
}

/** Whether the tests ran against a mutant at all: it compiled, started, and was not ignored. */
export function ran(m: Mutant): boolean {
  return !['CompileError', 'RuntimeError', 'Ignored'].includes(m.status)
}

/** Whether a mutant lived through the tests: it ran, and was neither killed nor timed out. */
export function survived(m: Mutant): boolean {
  return ran(m) && m.status !== 'Killed' && m.status !== 'Timeout'
}
