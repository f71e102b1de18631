#!/usr/bin/env node
// The `repeat-tool-reminder` command: `repeat-tool-reminder replay <path>...` (see --help).
// The Node check comes first and the command is imported only after it: the log
// reader needs Node >= 22.19 and would otherwise fail with a syntax error.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`repeat-tool-reminder: needs Node >= 22.19 (this is ${process.version})\n`)
  process.exit(1)
}

// A reader that stops early (`replay … | head -1`) closes the pipe: the output ends there, quietly, as git's does.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error
  process.exit(0)
})

const { main } = await import('../lib/replay/cli.js')
process.exitCode = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  progress: process.stderr.isTTY === true,
})
