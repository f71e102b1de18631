/**
 * One process of the parsing benchmark (`npm run bench` spawns three): a guard
 * with `rereads` on (`parse`), off (`none`), or the README's config (`readme`:
 * every call also judged for waits and quick polls) judges 1,000 `bash` calls, each a
 * command no call before it wrote, with one result for all, so that with
 * `rereads` every call is compared with the window's and its command read; one
 * call in ten is a hostile 16 kB command (nested substitutions, parentheses,
 * quotes, pipes). Prints the process's peak resident memory in bytes.
 */
import { Config } from '../src/config.ts'
import { createGuard } from '../src/guard.ts'
import { readmeConfig } from './readme.ts'

const CALLS = 1_000
const mode = process.argv[2]
if (mode !== 'parse' && mode !== 'none' && mode !== 'readme')
  throw new Error('usage: node bench/parsing.ts parse|none|readme')
const guard = createGuard(mode === 'readme' ? readmeConfig() : Config({ rereads: mode === 'parse' }))
const agent = {} as never
const result = { isError: false, content: [{ type: 'text' as const, text: 'the same answer' }] }
const hostile = (i: number) =>
  [
    `${'cat $('.repeat(2_700)}f${')'.repeat(2_700)} # ${i}`,
    `${')'.repeat(16_380)}${i}`,
    `grep "${'"'.repeat(16_370)}${i}`,
    `cat f${' | cat'.repeat(2_700)} # ${i}`,
  ][i % 4]!
for (let i = 0; i < CALLS; i++) {
  const command = i % 10 === 9 ? hostile(i) : `grep -n pattern${i} src/file${i % 7}.py | head -${(i % 40) + 1}`
  guard.observe({ agent, name: 'bash', arguments: { command } }, result)
}
console.log(process.resourceUsage().maxRSS * 1024)
