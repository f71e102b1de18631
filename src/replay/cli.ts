/**
 * `repeat-tool-reminder replay`: the command line. Reads its arguments, finds
 * and decodes the sessions, replays each through the guard the plugin runs, and
 * prints the report; exit 0 when every input was read, 1 when any failed, 2 for
 * bad options. It never creates or changes a file under the paths it is given.
 */
import { parseArgs } from 'node:util'
import { Config, name } from '../config.ts'
import { configFromFlags, configOptions, flagsHelp } from '../flags.ts'
import { render } from './render.ts'
import { combine, replaySession, type SessionReport } from './report.ts'
import { discover, readAll, reason } from './sessions.ts'

/** Where the command writes, and whether stderr is a terminal that can show progress. */
export interface Io {
  out(text: string): void
  err(text: string): void
  progress: boolean
}

const USAGE = `Usage: repeat-tool-reminder replay <session file or sessions root>... [options]

Replays recorded dsh sessions (the JSONL persistence backend's session.jsonl or
session.jsonl.zstd, or a directory searched for them) through the guard, and
reports identical runs, their cost, and the reminders a config would produce.

Options:
${flagsHelp(26)}
  --json                  one JSON document on stdout
  --help                  show this help

Exit status: 0 when every input was read, 1 when any failed, 2 for bad options.`

/** Run the command with `argv` (after the program name); resolves to the exit status. */
export async function main(argv: string[], io: Io): Promise<number> {
  let parsed: { config: Config, paths: string[], json: boolean } | undefined
  try {
    parsed = parse(argv)
  } catch (error) {
    io.err(`${(error as Error).message}\n`)
    return 2
  }
  if (parsed === undefined) {
    io.out(`${USAGE}\n`)
    return 0
  }
  const { config, paths, json } = parsed
  const errors: { path: string, reason: string }[] = []
  const fail = (path: string, reason: string) => {
    errors.push({ path, reason })
    io.err(`${name} replay: ${path}: ${reason}\n`)
  }
  const files: string[] = []
  for (const path of paths) {
    try {
      for (const file of await discover(path)) files.push(file)
    } catch (error) {
      fail(path, reason(error))
    }
  }
  const sessions: SessionReport[] = []
  const show = io.progress && files.length > 5
  for (const [done, found] of (await readAll(files, fail)).entries()) {
    if (show) io.err(`\rreplaying ${done + 1}/${files.length} sessions`)
    sessions.push({ file: found.file, id: found.meta.id, ...found.meta.parentSession ? { parentSession: found.meta.parentSession } : {}, ...replaySession(found.events, config) })
  }
  if (show) io.err('\n')
  const total = combine(sessions)
  io.out(json ? `${JSON.stringify({ config, sessions, total, errors }, null, 2)}\n` : render(sessions, total))
  return errors.length > 0 ? 1 : 0
}

function parse(argv: string[]): { config: Config, paths: string[], json: boolean } | undefined {
  const { values, positionals } = commandLine(() => parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { ...configOptions, json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
  }))
  if (values.help) return undefined
  const [verb, ...paths] = positionals
  if (verb !== 'replay') throw new Error(`${name}: unknown command ${JSON.stringify(verb ?? '')}; try: repeat-tool-reminder replay <path>... (--help for more)`)
  if (paths.length === 0) throw new Error(`${name}: replay needs at least one session file or sessions root`)
  const config = Config(configFromFlags(values) as Partial<Config>)
  return { config, paths, json: values.json }
}


/** Parse a command line, naming the plugin in any error `parseArgs` raises. */
function commandLine<T>(read: () => T): T {
  try {
    return read()
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}`)
  }
}
