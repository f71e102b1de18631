#!/usr/bin/env node
// The `repeat-tool-reminder` command: `repeat-tool-reminder replay <path>...` (see --help).
// The Node check comes first and the command is imported only after it: the log
// reader needs what the package's engines say (^22.19 || >=24) and would otherwise
// fail with a syntax error.
const [major, minor] = process.versions.node.split('.').map(Number)
if (!((major === 22 && minor >= 19) || major >= 24)) {
  process.stderr.write(`repeat-tool-reminder: needs Node ^22.19 or >= 24 (this is ${process.version})\n`)
  process.exit(1)
}

// A reader that stops early (`replay … | head -1`) closes the pipe: the output ends there, quietly, as git's does.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error
  process.exit(0)
})

// A clone that was never built (`npm run replay` before `npm run build`) has no lib/: say so, not Node's trace.
const { main } = await import('../lib/replay/cli.js').catch((error) => {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/lib/replay/cli.js')) throw error
  process.stderr.write('repeat-tool-reminder: the package is not built (no lib/): run npm run build first\n')
  process.exit(1)
})
process.exitCode = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  progress: process.stderr.isTTY === true,
  columns: process.stdout.isTTY === true ? process.stdout.columns : undefined,
})
