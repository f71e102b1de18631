/**
 * `npm run mutate`: StrykerJS over `src/` (vitest runner, per-test coverage,
 * incremental), then the score per file with the mutants written down as
 * equivalent left out, each survivor that is not, and the equivalents file
 * itself. Exits 1 when a file kills less than 95% of its non-equivalent
 * mutants. A developer command: CI does not run it. Extra arguments go to
 * Stryker (`npm run mutate -- --mutate src/patterns.ts`).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dirname, '..')
const REPORT = join(ROOT, 'reports', 'mutation', 'mutation.json')
const EQUIVALENTS = join(ROOT, 'tests', 'equivalent-mutants.txt')
const TARGET = 0.95

interface Mutant {
  mutatorName: string
  replacement?: string
  status: string
  location: { start: { line: number, column: number } }
}

const stryker = spawnSync(join(ROOT, 'node_modules', '.bin', 'stryker'), ['run', '--incremental', ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit' })
if (stryker.status !== 0) process.exit(stryker.status ?? 1)

/** `src/guard.ts:88:17 EqualityOperator: reason` → the key before the colon and reason. */
const equivalents = readFileSync(EQUIVALENTS, 'utf8')
const listed = new Set(equivalents.split('\n').filter((line) => /^src\//.test(line)).map((line) => line.slice(0, line.indexOf(': '))))
const report = JSON.parse(readFileSync(REPORT, 'utf8')) as { files: Record<string, { mutants: Mutant[] }> }

const rows: string[] = []
const survivors: string[] = []
let below = false
for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  let killed = 0
  let equivalent = 0
  let counted = 0
  for (const m of mutants) {
    if (['CompileError', 'RuntimeError', 'Ignored'].includes(m.status)) continue
    const key = `${file}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName}`
    if (listed.has(key)) {
      equivalent++
      continue
    }
    counted++
    if (m.status === 'Killed' || m.status === 'Timeout') killed++
    else survivors.push(`${key} → ${JSON.stringify(m.replacement ?? '')} (${m.status})`)
  }
  const score = counted === 0 ? 1 : killed / counted
  below ||= score < TARGET
  rows.push(`| ${file} | ${mutants.length} | ${equivalent} | ${killed}/${counted} | ${(score * 100).toFixed(1)}% |`)
}

console.log('\n| file | mutants | equivalent | killed | score |\n| --- | ---: | ---: | ---: | ---: |')
console.log(rows.join('\n'))
console.log(survivors.length === 0 ? '\nNo survivor outside the equivalents.' : `\nSurvivors (a missing test, or an equivalent to write down):\n${survivors.join('\n')}`)
console.log(`\nEquivalent mutants (${EQUIVALENTS}):\n${equivalents}`)
process.exitCode = below ? 1 : 0
