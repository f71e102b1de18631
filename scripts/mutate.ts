/**
 * `npm run mutate`: StrykerJS over `src/` (vitest runner, per-test coverage,
 * incremental), then the score per file with the excused mutants left out,
 * each survivor no excuse covers, and excuses that match no surviving mutant
 * any more. Excuses are comments beside the code (`scripts/excuses.ts`). Exits
 * 1 when a file kills less than 95% of the mutants left to score, or when an
 * excuse is malformed or stale. A developer command: CI does not run it. Extra
 * arguments go to Stryker (`npm run mutate -- --mutate src/patterns.ts`);
 * `MUTATE_REPORT=1` only reads the last report.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { applyExcuses, ran, readExcuses, SECTIONS, survived, type Excuse, type Mutant } from './excuses.ts'

const ROOT = join(import.meta.dirname, '..')
const REPORT = join(ROOT, 'reports', 'mutation', 'mutation.json')
const TARGET = 0.95

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
const stale: Excuse[] = []
const used: Excuse[] = []
let below = false
for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const excuses = readExcuses(file, readFileSync(join(ROOT, file), 'utf8'))
  const result = applyExcuses(mutants, excuses)
  stale.push(...result.stale)
  used.push(...excuses.filter((e) => !result.stale.includes(e)))
  const counted = result.scored.filter(ran)
  const lived = counted.filter(survived)
  for (const m of lived)
    survivors.push(
      `${file}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName} ${JSON.stringify(m.replacement ?? '')} (${m.status})`,
    )
  const killed = counted.length - lived.length
  const score = counted.length === 0 ? 1 : killed / counted.length
  below ||= score < TARGET
  rows.push(
    `| ${file} | ${mutants.length} | ${result.excused} | ${killed}/${counted.length} | ${(score * 100).toFixed(1)}% |`,
  )
}

console.log('\n| file | mutants | excused | killed | score |\n| --- | ---: | ---: | ---: | ---: |')
console.log(rows.join('\n'))
console.log(
  survivors.length === 0
    ? '\nNo survivor without an excuse.'
    : `\nSurvivors (a missing test, or an excuse to write beside the code):\n${survivors.join('\n')}`,
)
if (stale.length > 0)
  console.log(
    `\nExcuses that match no surviving mutant (remove them, or fix the mutator or replacement):\n${stale.map((e) => `${e.file}:${e.at} ${e.mutator} ${JSON.stringify(e.replacement)}`).join('\n')}`,
  )
for (const section of SECTIONS) {
  const list = used.filter((e) => e.section === section)
  console.log(
    `\n${section} (${list.length}):\n${list.map((e) => `${e.file}:${e.line} ${e.mutator} ${JSON.stringify(e.replacement)}: ${e.reason}`).join('\n')}`,
  )
}
process.exitCode = below || stale.length > 0 ? 1 : 0
