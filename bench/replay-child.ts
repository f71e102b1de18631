/**
 * One replay run for `npm run bench:replay`, in a process of its own so that
 * its peak memory is its own: runs the command over the given paths, discards
 * the report, and prints `{"maxRSS": <bytes>}` on stderr.
 */
import { main } from '../src/replay/cli.ts'

const status = await main(['replay', ...process.argv.slice(2), '--json'], {
  out: () => {},
  err: () => {},
  progress: false,
})
process.stderr.write(`${JSON.stringify({ status, maxRSS: process.resourceUsage().maxRSS * 1024 })}\n`)
