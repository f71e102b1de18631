/**
 * `npm start`: runs the demo against the built package, the way a deployment
 * loads it (the package's own entry points, mounted from cordis.yml).
 */
import { main } from './demo.ts'

// A reader that stops early (`npm start | head -1`) closes the pipe: the output ends there, quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error
  process.exit(0)
})

const pkg = '@deepseek-ai/dsh-repeat-tool-reminder'
const [reminder, invariant] = (await Promise.all([import(pkg), import(`${pkg}/invariant`)])) as [object, object]
const color = process.stdout.isTTY === true && !process.env.NO_COLOR
process.exitCode = await main(
  process.argv.slice(2),
  {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    color,
  },
  { reminder, invariant },
)
