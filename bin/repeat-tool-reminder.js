#!/usr/bin/env node
// The `repeat-tool-reminder` command: `repeat-tool-reminder replay <path>...` (see --help).
import { main } from '../lib/replay/cli.js'

process.exitCode = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  progress: process.stderr.isTTY === true,
})
