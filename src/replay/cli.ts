/**
 * `repeat-tool-reminder replay`: the command line. Reads its arguments, finds
 * the logs, then reads, replays and reports one session at a time, keeping only
 * totals and the sessions it will detail; prints the report. Exit 0 when every
 * input was read, 1 when any failed, 2 for bad options. It never creates or
 * changes a file.
 */
import { parseArgs } from 'node:util'
import { Config, name } from '../config.ts'
import { configFromFlags, configOptions, flagsHelp } from '../flags.ts'
import { printable, render } from './render.ts'
import { addTally, addToTotals, emptyTotals, looped, record, replay, tally, type Recorded, type SessionReport } from './report.ts'
import { discover, LogReader, reason } from './sessions.ts'
import { addProgress, candidates, progressTools, PROSE_ARGUMENTS, recommend, type ProgressStats, type Suggestion } from './suggest.ts'

/** Where the command writes, and whether stderr is a terminal that can show progress. */
export interface Io {
  out(text: string): void
  err(text: string): void
  progress: boolean
}

const USAGE = `Usage: repeat-tool-reminder replay <session file or sessions root>... [options]

Replays recorded dsh sessions (the JSONL persistence backend's session.jsonl or
session.jsonl.zstd, or a directory searched for them) through the guard, one at
a time, and reports identical runs, their cost, and the reminders and blocks a
config would produce next to the ones recorded.

Options:
${flagsHelp(32)}
  --suggest                     compare a few configs on the same sessions and recommend one
  --top N                       detail the N sessions that looped most (default 10)
  --all                         detail every session
  --json                        one JSON document on stdout, every session in it
  --help                        show this help

Exit status: 0 when every input was read, 1 when any failed, 2 for bad options.`

/** What the command line asks for. */
interface Request {
  config: Config
  paths: string[]
  json: boolean
  suggest: boolean
  /** How many looping sessions the text report details; Infinity with `--all`. */
  top: number
}

/** Run the command with `argv` (after the program name); resolves to the exit status. */
export async function main(argv: string[], io: Io): Promise<number> {
  let request: Request | undefined
  try {
    request = parse(argv)
  } catch (error) {
    io.err(`${(error as Error).message}\n`)
    return 2
  }
  if (request === undefined) {
    io.out(`${USAGE}\n`)
    return 0
  }
  const { config, paths, json, suggest, top } = request
  const errors: { path: string, reason: string }[] = []
  const fail = (path: string, why: string) => {
    errors.push({ path, reason: why })
    io.err(`${name} replay: ${printable(path)}: ${printable(why)}\n`)
  }
  const found = await discover(paths)
  for (const e of found.errors) fail(e.path, e.reason)

  // The evidence compares calls as the tool sees them: without the prose fields, whatever the config given leaves out.
  const evidence = [...new Set([...config.ignoreArguments, ...PROSE_ARGUMENTS])]
  const reader = new LogReader()
  const total = emptyTotals()
  const stats: ProgressStats = new Map()
  const detailed: { report: SessionReport, order: number }[] = []
  const progress = io.progress && found.files.length > 5
  if (json) io.out(`{\n"config": ${JSON.stringify(config)},\n"sessions": [`)
  let first = true
  try {
    for (const [order, file] of found.files.entries()) {
      if (progress) io.err(`\rreplaying ${order + 1}/${found.files.length} sessions`)
      const session = await readSession(reader, file, evidence, fail)
      if (session === undefined) continue
      const report: SessionReport = { file, id: session.id, ...session.parent === undefined ? {} : { parentSession: session.parent }, ...replay(session.recorded, config) }
      addToTotals(total, report)
      for (const step of session.recorded.steps) if ('tool' in step) addProgress(stats, step)
      if (json) {
        io.out(`${first ? '' : ','}\n${JSON.stringify(report)}`)
        first = false
      } else if (top === Infinity || looped(report)) {
        keep(detailed, { report, order }, top)
      }
    }
    if (progress) io.err('\n')
    const suggestions = suggest ? await compare(reader, found.files, config, evidence, stats) : undefined
    if (json) {
      io.out(`\n],\n"total": ${JSON.stringify(total)},\n${suggestions === undefined ? '' : `"suggestions": ${JSON.stringify(suggestions)},\n`}"errors": ${JSON.stringify(errors)}\n}\n`)
    } else {
      const sessions = detailed.map((d) => d.report)
      io.out(render({ total, sessions, hidden: Math.max(0, total.sessionsWithLoops - sessions.length), suggestions }))
    }
  } finally {
    await reader.close()
  }
  return errors.length > 0 ? 1 : 0
}

/** Read and record one log; a file or session that cannot be read is reported and skipped. */
async function readSession(reader: LogReader, file: string, ignoreArguments: readonly string[], fail: (path: string, why: string) => void): Promise<{ id: string, parent: string | undefined, recorded: Recorded } | undefined> {
  try {
    const { meta, events } = await reader.read(file)
    return { id: meta.id, parent: meta.parentSession, recorded: record(events, ignoreArguments) }
  } catch (error) {
    fail(file, reason(error))
    return undefined
  }
}

/** Keep the `top` sessions that cost most in looping, in that order (ties: the order they were read). */
function keep(detailed: { report: SessionReport, order: number }[], entry: { report: SessionReport, order: number }, top: number): void {
  const rank = (a: typeof entry, b: typeof entry) => b.report.cost.calls - a.report.cost.calls
    || (b.report.cost.argumentChars + b.report.cost.resultChars) - (a.report.cost.argumentChars + a.report.cost.resultChars)
    || a.order - b.order
  let at = detailed.length
  while (at > 0 && rank(entry, detailed[at - 1]!) < 0) at--
  if (at >= top) return
  detailed.splice(at, 0, entry)
  if (detailed.length > top) detailed.pop()
}

/** `--suggest`: read the logs again and tally each candidate config on every session. */
async function compare(reader: LogReader, files: readonly string[], config: Config, evidence: readonly string[], stats: ProgressStats): Promise<Suggestion[]> {
  const list: Suggestion[] = candidates(config, progressTools(stats))
    .map((c) => ({ ...c, reminders: 0, blocks: 0, onRepeatedResults: 0, onChangedResults: 0, unremindedLoopCalls: 0 }))
  for (const file of files) {
    // Whatever failed the first time was reported then.
    const session = await readSession(reader, file, evidence, () => {})
    if (session === undefined) continue
    for (const s of list) addTally(s, tally(session.recorded, s.config))
  }
  return recommend(list)
}

function parse(argv: string[]): Request | undefined {
  const { values, positionals } = commandLine(() => parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      ...configOptions,
      suggest: { type: 'boolean', default: false },
      top: { type: 'string' },
      all: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }))
  if (values.help) return undefined
  const [verb, ...paths] = positionals
  if (verb !== 'replay') throw new Error(`${name}: unknown command ${JSON.stringify(verb ?? '')}; try: repeat-tool-reminder replay <path>... (--help for more)`)
  if (paths.length === 0) throw new Error(`${name}: replay needs at least one session file or sessions root`)
  if (values.all && values.top !== undefined) throw new Error(`${name}: --top and --all do not go together`)
  const top = values.all ? Infinity : values.top === undefined ? 10 : Number(values.top)
  if (!values.all && (!/^\d+$/.test(values.top ?? '10') || top < 1)) throw new Error(`${name}: --top must be a positive integer (got ${JSON.stringify(values.top)})`)
  const config = Config(configFromFlags(values) as Partial<Config>)
  return { config, paths, json: values.json, suggest: values.suggest, top }
}

/** Parse a command line, naming the plugin in any error `parseArgs` raises. */
function commandLine<T>(read: () => T): T {
  try {
    return read()
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}`)
  }
}
