/**
 * `npm run mutate`: StrykerJS over `src/` (vitest runner, per-test coverage,
 * incremental), then the score per file with the excused mutants left out,
 * each survivor no excuse covers, and excuses that excuse nothing. Excuses live
 * in the ledger `excused-mutants.yml` (`scripts/excuses.ts`). Exits 1 when a
 * file kills less than 95% of the mutants left to score, or when an excuse is
 * malformed or stale. A developer command: CI does not run it. Extra arguments
 * go to Stryker (`npm run mutate -- --mutate src/patterns.ts`);
 * `MUTATE_REPORT=1` only reads the last report.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { applyExcuses, KINDS, type Mutant, ran, readLedger, type Stale, survived } from './excuses.ts'

const ROOT = join(import.meta.dirname, '..')
const REPORT = join(ROOT, 'reports', 'mutation', 'mutation.json')
const TARGET = 0.95
const LEDGER = join(ROOT, 'excused-mutants.yml')

// A malformed ledger stops the run before Stryker starts.
const excuses = readLedger(readFileSync(LEDGER, 'utf8'))

if (process.env.MUTATE_REPORT !== '1') {
  const stryker = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'stryker'),
    ['run', '--incremental', ...process.argv.slice(2)],
    { cwd: ROOT, stdio: 'inherit' },
  )
  if (stryker.status !== 0) process.exit(stryker.status ?? 1)
}

const report = JSON.parse(readFileSync(REPORT, 'utf8')) as { files: Record<string, { mutants: Mutant[] }> }
const rows: string[] = []
const survivors: string[] = []
const stale: Stale[] = excuses
  .filter((e) => !existsSync(join(ROOT, e.file)))
  .map((excuse) => ({ excuse, why: 'its file does not exist' }))
const used: typeof excuses = []
let unjudged = 0
let below = false
for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const mine = excuses.filter((e) => e.file === file)
  const result = applyExcuses(readFileSync(join(ROOT, file), 'utf8'), mutants, mine)
  stale.push(...result.stale)
  used.push(...mine.filter((e) => !result.stale.some((s) => s.excuse === e) && !result.unjudged.includes(e)))
  unjudged += result.unjudged.length
  const counted = result.scored.filter(ran)
  const lived = counted.filter(survived)
  for (const m of lived) {
    const at = `${file}:${m.location.start.line}:${m.location.start.column}`
    survivors.push(`${at} ${m.mutatorName} ${JSON.stringify(m.replacement ?? '')} (${m.status})`)
  }
  const killed = counted.length - lived.length
  const score = counted.length === 0 ? 1 : killed / counted.length
  below ||= score < TARGET
  const percent = (score * 100).toFixed(1)
  rows.push(`| ${file} | ${mutants.length} | ${result.excused} | ${killed}/${counted.length} | ${percent}% |`)
}

console.log('\n| file | mutants | excused | killed | score |\n| --- | ---: | ---: | ---: | ---: |')
console.log(rows.join('\n'))
console.log(
  survivors.length === 0
    ? '\nNo survivor without an excuse.'
    : `\nSurvivors (a missing test, or an entry for excused-mutants.yml):\n${survivors.join('\n')}`,
)
if (stale.length > 0) {
  const lines = stale.map(
    ({ excuse: e, why }) => `${e.file} ${e.mutator} ${JSON.stringify(e.replacement)} on "${e.code}": ${why}`,
  )
  console.log(`\nStale entries in excused-mutants.yml (mend or remove them):\n${lines.join('\n')}`)
}
for (const kind of KINDS) {
  const list = used.filter((e) => e.kind === kind)
  const lines = list.map((e) => `${e.file} ${e.mutator} ${JSON.stringify(e.replacement)}: ${e.reason}`)
  console.log(`\n${kind} (${list.length}):\n${lines.join('\n')}`)
}
if (unjudged > 0) console.log(`\n${unjudged} entries not judged: this run mutated none of their lines.`)
process.exitCode = below || stale.length > 0 ? 1 : 0
