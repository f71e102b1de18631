/**
 * `npm run lint`'s width check: every line of the code and its tests within 120 characters (Biome
 * formats code to that width but leaves long texts and comments alone). Prints each line over the
 * width as `file:line (n characters)` and exits 1 when there is one.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const ROOT = join(import.meta.dirname, '..')
const WIDTH = 120
const FOLDERS = ['src', 'support', 'tests', 'bench', 'demo', 'scripts', 'bin']

const files = [
  ...readdirSync(ROOT).filter((name) => name.endsWith('.ts')),
  ...FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.(ts|js|mjs)$/.test(name) && !name.startsWith('fixtures'))
      .map((name) => join(folder, name)),
  ),
]
const long = files.flatMap((file) =>
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .flatMap((line, i) =>
      [...line].length > WIDTH ? [`${relative(ROOT, join(ROOT, file))}:${i + 1} (${[...line].length} characters)`] : [],
    ),
)
if (long.length > 0) {
  console.error(`Lines over ${WIDTH} characters:\n${long.join('\n')}`)
  process.exitCode = 1
}
