/**
 * `npm run docs:options`: writes the config table of both READMEs from the
 * options themselves (`src/config.ts`, made from the registry of rules): each
 * field in the schema's order, its default, its description and what is
 * rejected, said from its error's words. The Chinese README keeps its own
 * words for a field it already has; a new field gets the English until someone
 * translates it. `--check` writes nothing and fails when a table is not what it
 * would write: the test suite runs it.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { defaultOf, KEYS, meaning, optionOf } from '../src/config.ts'

/** A row of the table: field, default, meaning, what is rejected. */
type Row = [string, string, string, string]

/** A default as the table writes it. */
function written(value: unknown): string {
  return Array.isArray(value) ? `[${value.join(', ')}]` : String(value)
}

/** The rows the options make, in the schema's order. */
export function rows(): Row[] {
  return KEYS.map((key) => [
    `\`${key}\``,
    `\`${written(defaultOf(key))}\``,
    meaning(key),
    optionOf(key).must.value.replace(/^must be /, 'not '),
  ])
}

/** The cells of a table row. */
const cells = (line: string): string[] => line.slice(2, -2).split(' | ')

/** `text` with its config table's rows made from the options; a row it already has keeps its own words if `keep`. */
export function withTable(text: string, keep: boolean): string {
  const lines = text.split('\n')
  const first = lines.findIndex((line) => /^\| `[a-zA-Z]+` \| `/.test(line))
  let end = first
  while (end < lines.length && /^\| `[a-zA-Z]+` \| `/.test(lines[end] ?? '')) end++
  const had = new Map(lines.slice(first, end).map((line) => [cells(line)[0], cells(line)]))
  const made = rows().map(([field, fallback, what, rejected]) => {
    const own = keep ? had.get(field) : undefined
    return `| ${[field, fallback, own?.[2] ?? what, own?.[3] ?? rejected].join(' | ')} |`
  })
  return [...lines.slice(0, first), ...made, ...lines.slice(end)].join('\n')
}

const ROOT = join(import.meta.dirname, '..')

if (process.argv[1] === import.meta.filename) {
  const check = process.argv.includes('--check')
  let stale = false
  for (const [file, keep] of [
    ['README.md', false],
    ['README.zh.md', true],
  ] as const) {
    const path = join(ROOT, file)
    const text = readFileSync(path, 'utf8')
    const table = withTable(text, keep)
    if (table === text) continue
    stale = true
    if (!check) writeFileSync(path, table)
  }
  if (check && stale) {
    console.error("the READMEs' config tables are not what the options make: run npm run docs:options")
    process.exit(1)
  }
}
