/**
 * `repeat-tool-reminder replay`: the command line. Reads its request, finds
 * the logs, then reads, replays and reports one session at a time, keeping only
 * totals and the sessions it will detail; prints the report. Exit 0 when every
 * input was read, 1 when any failed, 2 for bad options. It never creates or
 * changes a file.
 */
import pkg from '../../package.json' with { type: 'json' }
import type { Config } from '../config.ts'
import type { Labels } from './labels.ts'
import { Scorer } from './score.ts'
import { discover } from './logs.ts'
import { corruption, LogReader, type Corrupt, type Torn } from './reader.ts'
import { type Inputs, loadInputs, parse, type Request, usage } from './options.ts'
import { render } from './render.ts'
import { widthOf } from '../wrap.ts'
import { count, printable } from './text.ts'
import { marks, report, type SessionReport } from './report.ts'
import { addProgress, evidenceArguments, type ProgressStats } from './candidates.ts'
import { advise } from './suggest.ts'
import { addToTotals, emptyTotals, looped, type Totals } from './totals.ts'
import { transcribe, type Transcript } from './transcript.ts'
import { FAILED, Problem } from '../problem.ts'
import { DocumentWriter, type ReplayDocument } from './document.ts'
import { type Io, Terminal } from './terminal.ts'

/** One session read from its log. */
interface Session {
  id: string
  parent: string | undefined
  transcript: Transcript
  torn: Torn | undefined
  corrupt: Corrupt | undefined
}

/** Run the command with `argv` (after the program name); resolves to the exit status. */
export async function main(argv: string[], io: Io): Promise<number> {
  const asked = await ask(argv, io)
  if (typeof asked === 'number') return asked
  const { request, inputs } = asked
  const { config, labels } = inputs
  const terminal = new Terminal(io)
  const found = await discover(request.paths)
  for (const problem of found.problems) terminal.fail(problem)
  const reader = new LogReader()
  const evidence = evidenceArguments(config)
  const read = (file: string, fail = terminal.fail) => readSession(reader, file, evidence, fail)
  const progress = io.progress && found.files.length > 5
  const document = request.json ? new DocumentWriter(io.out, config) : undefined
  try {
    const pass = await replayAll({ files: found.files, read, config, request, labels, terminal, progress, document })
    // Labels that do not fit the logs are reported, and nothing is scored from them.
    const problems = pass.scorer?.problems() ?? []
    for (const problem of problems) terminal.fail(problem)
    // No session read: every input failed and said so on stderr; a report of zeros would only mislead.
    if (pass.total.sessions === 0) return 1
    const scored = problems.length === 0 ? scoredLabels(pass.scorer) : undefined
    // Whatever failed the first time was reported then.
    let again = 0
    const reread = (file: string) => {
      if (progress) terminal.progress(`comparing configs on ${++again}/${found.files.length} sessions`)
      return read(file, () => {})
    }
    const advice = request.suggest
      ? await advise(found.files, reread, config, pass.stats, pass.total.detailedOnRepeatedResults, scored && labels)
      : undefined
    terminal.endProgress()
    if (document !== undefined)
      document.end({
        total: pass.total,
        ...(scored === undefined ? {} : { labels: scored }),
        ...(advice === undefined ? {} : { suggestions: advice.suggestions, escalation: advice.escalation }),
        errors: terminal.errors,
      })
    else {
      const { total, detailed } = pass
      const hidden = Math.max(0, total.sessionsWithLoops - detailed.length)
      const episodes = request.top === Infinity
      io.out(render({ total, sessions: detailed, hidden, advice, labels: scored, episodes }, widthOf(io.columns)))
    }
  } finally {
    await reader.close()
  }
  return terminal.errors.length > 0 ? FAILED : 0
}

/**
 * What the command is asked for: the request and its inputs (config, labels); or the exit status
 * when the command ends here, with the usage printed or a bad option said.
 */
async function ask(argv: string[], io: Io): Promise<{ request: Request; inputs: Inputs } | number> {
  try {
    const request = parse(argv)
    if (typeof request === 'string') {
      io.out(`${request === 'help' ? usage(widthOf(io.columns)) : `${pkg.name} ${pkg.version}`}\n`)
      return 0
    }
    return { request, inputs: await loadInputs(request) }
  } catch (error) {
    // What the user typed, escaped: a command line can carry control and bidirectional characters too.
    const problem = Problem.of(error)
    io.err(`${printable(problem.message)}\n`)
    return problem.status
  }
}

/** The score on the labels, when there are labels to score on. */
function scoredLabels(scorer: Scorer | undefined): ReplayDocument['labels'] {
  if (scorer === undefined) return undefined
  const { file, rereads } = scorer.labels
  return {
    file,
    ...(rereads === undefined ? {} : { rereads }),
    score: scorer.score(),
    episodes: scorer.episodes(),
  }
}

/** What the first pass over the logs is given. */
interface Run {
  files: readonly string[]
  read: (file: string) => Promise<Session | undefined>
  config: Config
  request: Request
  labels: Labels | undefined
  terminal: Terminal
  /** Whether to show progress on stderr. */
  progress: boolean
  /** With `--json`: the document each session's report is written to as it is made. */
  document: DocumentWriter | undefined
}

/** What the first pass over the logs gathered. */
interface Pass {
  total: Totals
  /** The sessions the text report details. */
  detailed: SessionReport[]
  /** The evidence `--suggest` weighs progress by. */
  stats: ProgressStats
  scorer: Scorer | undefined
}

/**
 * Read and replay every log once, in order: totals, the sessions to detail,
 * `--suggest`'s progress evidence and the labels' marks. With `--json` each
 * session's report is written as it is made; the document opens with the first
 * one, so when every input fails stdout stays empty.
 */
async function replayAll({ files, read, config, request, labels, terminal, progress, document }: Run): Promise<Pass> {
  const pass: Pass = {
    total: emptyTotals(),
    detailed: [],
    stats: new Map(),
    scorer: labels === undefined ? undefined : new Scorer(labels),
  }
  for (const [order, file] of files.entries()) {
    if (progress) terminal.progress(`replaying ${order + 1}/${files.length} sessions`)
    const session = await read(file)
    if (session === undefined) continue
    const one: SessionReport = {
      file,
      id: session.id,
      ...(session.parent === undefined ? {} : { parentSession: session.parent }),
      ...(session.torn === undefined ? {} : { torn: session.torn }),
      ...(session.corrupt === undefined ? {} : { corrupt: session.corrupt }),
      ...report(session.transcript, config),
    }
    // A torn or corrupt log is reported with what it holds, and said out loud: its numbers are a part of the session's.
    if (session.torn !== undefined) terminal.fail(new Problem(tornReason(session.torn, one.toolCalls), [file], FAILED))
    if (session.corrupt !== undefined)
      terminal.fail(new Problem(corruptReason(session.corrupt, one.toolCalls), [file], FAILED))
    addToTotals(pass.total, one, session.transcript.reminders)
    pass.scorer?.add(one.id, one.toolCalls, marks(one))
    for (const step of session.transcript.steps) if ('tool' in step) addProgress(pass.stats, step)
    if (document !== undefined) document.session(one)
    else if (request.top === Infinity || looped(one)) {
      keep(pass.detailed, one, request.top)
    }
  }
  terminal.endProgress()
  return pass
}

/** Read and transcribe one log; a file or session that cannot be read is reported and skipped. */
async function readSession(
  reader: LogReader,
  file: string,
  ignoreArguments: readonly string[],
  fail: (problem: Problem) => void,
): Promise<Session | undefined> {
  try {
    const { meta, events, torn, corrupt } = await reader.read(file)
    // The backend refuses a header without a string id; a parent session it passes through as written.
    if (meta.parentSession !== undefined && typeof meta.parentSession !== 'string')
      throw new Problem('its header names a parent session that is not an id')
    return {
      id: meta.id,
      parent: meta.parentSession,
      transcript: transcribe(events, ignoreArguments, corrupt !== undefined),
      torn,
      corrupt,
    }
  } catch (error) {
    fail(new Problem(Problem.of(error).message, [file], FAILED))
    return undefined
  }
}

/** What a torn log's report leaves out, as a sentence. */
function tornReason({ afterBytes, ofBytes }: Torn, calls: number): string {
  return (
    `torn after ${afterBytes} of its ${ofBytes} bytes, as a crash mid-write ` +
    `leaves a log: replayed the ${count(calls, 'tool call')} before the ` +
    `tear; what came after it is not in the report`
  )
}

/** What a corrupt log's report leaves out, as a sentence. */
function corruptReason(corrupt: Corrupt, calls: number): string {
  return (
    `corrupt: ${corruption(corrupt)}, yet lines after it can be read, ` +
    `which a crash mid-write never leaves: replayed the ${count(calls, 'tool call')} ` +
    `of the readable lines; what the others held is not in the report`
  )
}

/** Keep the `top` sessions that cost most in looping, in that order (ties: the order they were read). */
function keep(detailed: SessionReport[], entry: SessionReport, top: number): void {
  const rank = (a: SessionReport, b: SessionReport) =>
    b.cost.calls - a.cost.calls ||
    b.cost.argumentChars + b.cost.resultChars - (a.cost.argumentChars + a.cost.resultChars)
  let at = detailed.length
  while (at > 0 && rank(entry, detailed[at - 1]!) < 0) at--
  // An entry ranked below the `top` kept ones goes in last and is dropped again.
  detailed.splice(at, 0, entry)
  if (detailed.length > top) detailed.pop()
}
