/**
 * `repeat-tool-reminder replay`: the command line. Reads its arguments, finds
 * the logs, then reads, replays and reports one session at a time, keeping only
 * totals and the sessions it will detail; prints the report. Exit 0 when every
 * input was read, 1 when any failed, 2 for bad options. It never creates or
 * changes a file.
 */
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { Config, name } from '../config.ts'
import { configFromFlags, configOptions, flagsHelp } from '../flags.ts'
import { readLabels, Scorer, type Labels } from './labels.ts'
import { configFile } from './profile.ts'
import { printable, render } from './render.ts'
import { transcribe, type Transcript } from './transcript.ts'
import { marks, report, type SessionReport } from './report.ts'
import { addToTotals, emptyTotals, looped } from './totals.ts'
import { discover, LogReader, reason, type Torn } from './logs.ts'
import { addProgress, advise, PROSE_ARGUMENTS, type ProgressStats } from './suggest.ts'

/** Where the command writes, and whether stderr is a terminal that can show progress. */
export interface Io {
  out(text: string): void
  err(text: string): void
  progress: boolean
}

const USAGE = `Usage: repeat-tool-reminder replay <session file or sessions root>... [options]

Replays recorded dsh sessions (the JSONL persistence backend's session.jsonl or
session.jsonl.zstd, or a directory searched for them) through the guard, one at
a time, and reports identical runs and cycles, what the model did after each
recorded reminder and withheld result, what the loops cost (in recorded tokens
too), and the reminders and withheld results a config would produce next to
the ones recorded.

Options:
${flagsHelp(32)}
  --config FILE                 the config from a dsh profile's cordis.patch.yml, or a YAML or JSON
                                config object; the flags above override its keys
  --labels FILE                 score the config (and with --suggest each candidate) on labeled loops
  --suggest                     compare a few configs on the same sessions and recommend one
  --top N                       detail the N sessions that looped most (default 10)
  --all                         detail every session
  --json                        one JSON document on stdout, every session in it
  -h, --help                    show this help

Exit status: 0 when every input was read whole, 1 when any failed or was torn (its
calls before the tear are reported) or a label names a call no log has, 2 for bad
options, a bad config file or a bad labels file.`

/** What the command line asks for. */
interface Request {
  config: Config
  /** The config keys the flags set, which override the config file's. */
  flags: Partial<Record<keyof Config, unknown>>
  /** With `--config`: the file the config comes from. */
  configFile: string | undefined
  paths: string[]
  /** The labels file, with `--labels`. */
  labels: string | undefined
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
  const { paths, json, suggest, top } = request
  let { config } = request
  if (request.configFile !== undefined) {
    const loaded = await loadConfig(request.configFile, request.flags)
    if (typeof loaded === 'string') {
      io.err(`${name} replay: ${printable(loaded)}\n`)
      return 2
    }
    config = loaded
  }
  let labels: Labels | undefined
  if (request.labels !== undefined) {
    const loaded = await loadLabels(request.labels)
    if (typeof loaded === 'string') {
      io.err(`${name} replay: ${printable(loaded)}\n`)
      return 2
    }
    labels = loaded
  }
  const errors: { path: string, reason: string }[] = []
  let progressShown = false
  const fail = (path: string, why: string) => {
    errors.push({ path, reason: why })
    // A progress line on the terminal is cleared first, so the error gets a line of its own.
    if (progressShown) io.err('\r\u001b[2K')
    io.err(`${name} replay: ${printable(path)}: ${printable(why)}\n`)
  }
  const found = await discover(paths)
  for (const e of found.errors) fail(e.path, e.reason)

  // The evidence compares calls as the tool sees them: without the prose fields, whatever the config given leaves out.
  const evidence = [...new Set([...config.ignoreArguments, ...PROSE_ARGUMENTS])]
  const reader = new LogReader()
  const read = (file: string, report = fail) => readSession(reader, file, evidence, report)
  const total = emptyTotals()
  const stats: ProgressStats = new Map()
  const detailed: SessionReport[] = []
  const scorer = labels === undefined ? undefined : new Scorer(labels)
  const progress = io.progress && found.files.length > 5
  // The JSON document opens with the first session read: when every input fails, stdout stays empty.
  const head = `${JSON.stringify({ config }).slice(0, -1)},\n"sessions": [`
  let first = true
  try {
    for (const [order, file] of found.files.entries()) {
      if (progress) {
        io.err(`\rreplaying ${order + 1}/${found.files.length} sessions`)
        progressShown = true
      }
      const session = await read(file)
      if (session === undefined) continue
      const one: SessionReport = { file, id: session.id, ...session.parent === undefined ? {} : { parentSession: session.parent }, ...session.torn === undefined ? {} : { torn: session.torn }, ...report(session.transcript, config) }
      // A torn log is reported with what it holds, and said out loud: its numbers are a part of the session's.
      if (session.torn !== undefined) fail(file, tornReason(session.torn, one.toolCalls))
      addToTotals(total, one)
      scorer?.add(one.id, one.toolCalls, marks(one))
      for (const step of session.transcript.steps) if ('tool' in step) addProgress(stats, step)
      if (json) {
        io.out(`${first ? head : ','}\n${JSON.stringify(one)}`)
        first = false
      } else if (top === Infinity || looped(one)) {
        keep(detailed, one, top)
      }
    }
    if (progressShown) io.err('\n')
    progressShown = false
    // Labels that do not fit the logs are reported, and nothing is scored from them.
    const problems = scorer?.problems() ?? []
    for (const problem of problems) fail(labels!.file, problem)
    // No session read: every input failed and said so on stderr; a report of zeros would only mislead.
    if (total.sessions === 0) return 1
    const scored = scorer !== undefined && problems.length === 0 ? { file: labels!.file, score: scorer.score(), episodes: scorer.episodes() } : undefined
    // Whatever failed the first time was reported then.
    let again = 0
    const reread = (file: string) => {
      if (progress) {
        io.err(`\rcomparing configs on ${++again}/${found.files.length} sessions`)
        progressShown = true
      }
      return read(file, () => {})
    }
    const advice = suggest ? await advise(found.files, reread, config, stats, total.detailedOnRepeatedResults, scored && labels) : undefined
    if (progressShown) io.err('\n')
    if (json) {
      const tail = { total, ...scored === undefined ? {} : { labels: scored }, ...advice === undefined ? {} : { suggestions: advice.suggestions, escalation: advice.escalation }, errors }
      io.out(`\n],${JSON.stringify(tail).slice(1)}\n`)
    } else {
      io.out(render({ total, sessions: detailed, hidden: Math.max(0, total.sessionsWithLoops - detailed.length), advice, labels: scored, episodes: top === Infinity }))
    }
  } finally {
    await reader.close()
  }
  return errors.length > 0 ? 1 : 0
}

/** The config `file` gives, with the keys the flags set over it, judged as the plugin judges it; a text saying what is wrong when it cannot be used. */
async function loadConfig(file: string, flags: Request['flags']): Promise<Config | string> {
  // The plugin's own messages start with its name, which the line already carries.
  const why = (error: unknown) => reason(error).replace(`${name}: `, '')
  let raw: Record<string, unknown>
  try {
    raw = await configFile(file)
    Config(raw as Partial<Config>)
  } catch (error) {
    return `${file}: ${why(error)}`
  }
  try {
    return Config({ ...raw, ...flags } as Partial<Config>)
  } catch (error) {
    return `${file}, with the flags given: ${why(error)}`
  }
}

/** Read and check a labels file; a text saying what is wrong when it cannot be used. */
async function loadLabels(file: string): Promise<Labels | string> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    return `${file}: ${reason(error)}`
  }
  try {
    return readLabels(file, text)
  } catch (error) {
    return `${file}: ${(error as Error).message}`
  }
}

/** Read and transcribe one log; a file or session that cannot be read is reported and skipped. */
async function readSession(reader: LogReader, file: string, ignoreArguments: readonly string[], fail: (path: string, why: string) => void): Promise<{ id: string, parent: string | undefined, transcript: Transcript, torn: Torn | undefined } | undefined> {
  try {
    const { meta, events, torn } = await reader.read(file)
    // The backend refuses a header without a string id; a parent session it passes through as written.
    if (meta.parentSession !== undefined && typeof meta.parentSession !== 'string') throw new Error('its header names a parent session that is not an id')
    return { id: meta.id, parent: meta.parentSession, transcript: transcribe(events, ignoreArguments), torn }
  } catch (error) {
    fail(file, reason(error))
    return undefined
  }
}

/** What a torn log's report leaves out, as a sentence. */
function tornReason({ afterBytes, ofBytes }: Torn, calls: number): string {
  return `torn after ${afterBytes} of its ${ofBytes} bytes, as a crash mid-write leaves a log: replayed the ${calls} tool ${calls === 1 ? 'call' : 'calls'} before the tear; what came after it is not in the report`
}

/** Keep the `top` sessions that cost most in looping, in that order (ties: the order they were read). */
function keep(detailed: SessionReport[], entry: SessionReport, top: number): void {
  const rank = (a: SessionReport, b: SessionReport) => b.cost.calls - a.cost.calls
    || (b.cost.argumentChars + b.cost.resultChars) - (a.cost.argumentChars + a.cost.resultChars)
  let at = detailed.length
  while (at > 0 && rank(entry, detailed[at - 1]!) < 0) at--
  // An entry ranked below the `top` kept ones goes in last and is dropped again.
  detailed.splice(at, 0, entry)
  if (detailed.length > top) detailed.pop()
}

function parse(argv: string[]): Request | undefined {
  const { values, positionals } = commandLine(() => parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      ...configOptions,
      config: { type: 'string' },
      labels: { type: 'string' },
      suggest: { type: 'boolean', default: false },
      top: { type: 'string' },
      all: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }))
  if (values.help) return undefined
  const [verb, ...paths] = positionals
  if (verb === undefined) throw new Error(`${name}: usage: repeat-tool-reminder replay <session file or sessions root>... [options] (--help for more)`)
  if (verb !== 'replay') throw new Error(`${name}: unknown command ${JSON.stringify(verb)}; try: repeat-tool-reminder replay <path>... (--help for more)`)
  if (paths.length === 0) throw new Error(`${name}: replay needs at least one session file or sessions root`)
  if (values.all && values.top !== undefined) throw new Error(`${name}: --top and --all do not go together`)
  const top = values.all ? Infinity : values.top === undefined ? 10 : Number(values.top)
  if (!values.all && (!/^\d+$/.test(values.top ?? '10') || top < 1)) throw new Error(`${name}: --top must be a positive integer (got ${JSON.stringify(values.top)})`)
  const flags = configFromFlags(values)
  // Judged alone first, so that a bad flag is named as such even beside a config file.
  const config = Config(flags as Partial<Config>)
  return { config, flags, configFile: values.config, paths, labels: values.labels, json: values.json, suggest: values.suggest, top }
}

/** Parse a command line; what `parseArgs` refuses, said as a sentence that names the option and points to the help. */
function commandLine<T>(read: () => T): T {
  try {
    return read()
  } catch (error) {
    const { message } = error as Error
    // parseArgs quotes the option first in each of its messages: '--bogus', or '--top <value>'.
    const option = /'(-[^' ]+)/.exec(message)?.[1]
    const why = message.includes('argument missing') ? `${option} needs a value`
      : message.includes('does not take an argument') ? `${option} takes no value`
        : `unknown option ${option}`
    throw new Error(`${name}: ${why} (--help lists the options)`)
  }
}
