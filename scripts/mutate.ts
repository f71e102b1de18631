/**
 * `npm run mutate`: StrykerJS over `src/` (vitest runner, per-test coverage,
 * incremental), then the score per file with the ledger's mutants left out,
 * each survivor the ledger does not excuse, and ledger entries that excuse no
 * mutant any more. Exits 1 when a file kills less than 95% of the mutants the
 * ledger does not excuse, or when the ledger has a malformed or stale entry.
 * A developer command: CI does not run it. Extra arguments go to Stryker
 * (`npm run mutate -- --mutate src/patterns.ts`); `MUTATE_REPORT=1` only reads
 * the last report.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dirname, '..')
const REPORT = join(ROOT, 'reports', 'mutation', 'mutation.json')
const LEDGER = join(ROOT, 'tests', 'equivalent-mutants.txt')
const TARGET = 0.95
/** The ledger's sections: why a mutant that survives is excused. */
const SECTIONS = ['equivalent', 'environment', 'speed'] as const

interface Mutant {
  mutatorName: string
  replacement?: string
  status: string
  location: { start: { line: number, column: number }, end: { line: number, column: number } }
}

/** One mutant exactly: where it starts and ends, which mutator, and what it put there. */
function key(file: string, m: Mutant): string {
  const { start, end } = m.location
  return `${file}:${start.line}:${start.column}-${end.line}:${end.column} ${m.mutatorName} ${JSON.stringify(m.replacement ?? '')}`
}

/**
 * Read the ledger: `## equivalent`, `## environment` and `## speed` sections of
 * lines `<file>:<line>:<column>-<line>:<column> <mutator> <replacement as JSON>: <reason>`.
 * Throws on a line that is none of these, naming it.
 */
export function readLedger(text: string): Map<string, { section: string, reason: string }> {
  const entries = new Map<string, { section: string, reason: string }>()
  let section: string | undefined
  for (const [i, line] of text.split('\n').entries()) {
    if (line === '' || line.startsWith('#') && !line.startsWith('## ')) continue
    if (line.startsWith('## ')) {
      section = line.slice(3)
      if (!(SECTIONS as readonly string[]).includes(section)) throw new Error(`${LEDGER}:${i + 1}: unknown section "${section}" (use ${SECTIONS.join(', ')})`)
      continue
    }
    const entry = /^(src\/\S+:\d+:\d+-\d+:\d+ \w+ "(?:[^"\\]|\\.)*"): (.+)$/.exec(line)
    if (entry === null || section === undefined) throw new Error(`${LEDGER}:${i + 1}: not "<file>:<line>:<column>-<line>:<column> <mutator> <replacement as JSON>: <reason>" under a section`)
    entries.set(entry[1]!, { section, reason: entry[2]! })
  }
  return entries
}

if (process.env.MUTATE_REPORT !== '1') {
  const stryker = spawnSync(join(ROOT, 'node_modules', '.bin', 'stryker'), ['run', '--incremental', ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit' })
  if (stryker.status !== 0) process.exit(stryker.status ?? 1)
}

const ledger = readLedger(readFileSync(LEDGER, 'utf8'))
const report = JSON.parse(readFileSync(REPORT, 'utf8')) as { files: Record<string, { mutants: Mutant[] }> }
const used = new Set<string>()
const rows: string[] = []
const survivors: string[] = []
let below = false
for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  let killed = 0
  let excused = 0
  let counted = 0
  for (const m of mutants) {
    if (['CompileError', 'RuntimeError', 'Ignored'].includes(m.status)) continue
    const k = key(file, m)
    const survived = m.status !== 'Killed' && m.status !== 'Timeout'
    if (ledger.has(k) && survived) {
      used.add(k)
      excused++
      continue
    }
    counted++
    if (survived) survivors.push(`${k} (${m.status})`)
    else killed++
  }
  const score = counted === 0 ? 1 : killed / counted
  below ||= score < TARGET
  rows.push(`| ${file} | ${mutants.length} | ${excused} | ${killed}/${counted} | ${(score * 100).toFixed(1)}% |`)
}
// An entry for a file the run mutated that excused nothing is stale: the code moved, or a test now kills it.
const mutated = new Set(Object.keys(report.files))
const stale = [...ledger.keys()].filter((k) => !used.has(k) && mutated.has(k.slice(0, k.indexOf(':'))))

console.log('\n| file | mutants | excused by the ledger | killed | score |\n| --- | ---: | ---: | ---: | ---: |')
console.log(rows.join('\n'))
console.log(survivors.length === 0 ? '\nNo survivor outside the ledger.' : `\nSurvivors (a missing test, or an entry to write down):\n${survivors.join('\n')}`)
if (stale.length > 0) console.log(`\nLedger entries that excuse no surviving mutant (remove or re-key them):\n${stale.join('\n')}`)
for (const section of SECTIONS) {
  const list = [...ledger].filter(([, e]) => e.section === section)
  console.log(`\n${section} (${list.length}):\n${list.map(([k, e]) => `${k}: ${e.reason}`).join('\n')}`)
}
process.exitCode = below || stale.length > 0 ? 1 : 0
