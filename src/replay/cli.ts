/**
 * `repeat-tool-reminder replay`: the command line. Reads its request, finds
 * the logs, then reads, replays and reports one session at a time, keeping only
 * totals and the sessions it will detail; prints the report. Exit 0 when every
 * input was read, 1 when any failed, 2 for bad options. It never creates or
 * changes a file.
 */
import type { Config } from '../config.ts'
import type { Labels } from './labels.ts'
import { Scorer, type EpisodeScore, type Score } from './score.ts'
import { discover } from './logs.ts'
import { corruption, LogReader, type Corrupt, type Torn } from './reader.ts'
import { type Inputs, loadInputs, parse, REPLAY, type Request, USAGE } from './options.ts'
import { render } from './render.ts'
import { count, printable } from './text.ts'
import { marks, report, type SessionReport } from './report.ts'
import { addProgress, evidenceArguments, type Escalation, type ProgressStats } from './candidates.ts'
import { advise, type Suggestion } from './suggest.ts'
import { addToTotals, emptyTotals, looped, type Totals } from './totals.ts'
import { transcribe, type Transcript } from './transcript.ts'
import { FAILED, Problem } from '../problem.ts'

/** Where the command writes, and whether stderr is a terminal that can show progress. */
export interface Io {
  out(text: string): void
  err(text: string): void
  progress: boolean
}

/**
 * The document `replay --json` prints: the config, each session's report in the
 * order read, then the totals, with `--labels` the score, with `--suggest` the
 * candidates and the evidence on escalating, and every input that failed.
 */
export interface ReplayDocument {
  config: Config
  sessions: SessionReport[]
  total: Totals
  labels?: { file: string; rereads?: string; score: Score; episodes: EpisodeScore[] }
  suggestions?: Suggestion[]
  escalation?: Escalation
  errors: { path: string; reason: string }[]
}

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
  let request: Request | undefined
  let inputs: Inputs
  try {
    request = parse(argv)
    if (request === undefined) {
      io.out(`${USAGE}\n`)
      return 0
    }
    inputs = await loadInputs(request)
  } catch (error) {
    // What the user typed, escaped: a command line can carry control and bidirectional characters too.
    const problem = Problem.of(error)
    io.err(`${printable(problem.message)}\n`)
    return problem.status
  }
  const { config, labels } = inputs
  const terminal = new Terminal(io)
  const found = await discover(request.paths)
  for (const problem of found.problems) terminal.fail(problem)
  const reader = new LogReader()
  const evidence = evidenceArguments(config)
  const read = (file: string, fail = terminal.fail) => readSession(reader, file, evidence, fail)
  const progress = io.progress && found.files.length > 5
  try {
    const pass = await replayAll(found.files, read, config, request, labels, terminal, progress)
    // Labels that do not fit the logs are reported, and nothing is scored from them.
    const problems = pass.scorer?.problems() ?? []
    for (const problem of problems) terminal.fail(problem)
    // No session read: every input failed and said so on stderr; a report of zeros would only mislead.
    if (pass.total.sessions === 0) return 1
    const scored =
      pass.scorer !== undefined && problems.length === 0
        ? {
            file: labels!.file,
            ...(labels!.rereads === undefined ? {} : { rereads: labels!.rereads }),
            score: pass.scorer.score(),
            episodes: pass.scorer.episodes(),
          }
        : undefined
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
    if (request.json) {
      const tail: Omit<ReplayDocument, 'config' | 'sessions'> = {
        total: pass.total,
        ...(scored === undefined ? {} : { labels: scored }),
        ...(advice === undefined ? {} : { suggestions: advice.suggestions, escalation: advice.escalation }),
        errors: terminal.errors,
      }
      io.out(`\n],${JSON.stringify(tail).slice(1)}\n`)
    } else {
      io.out(
        render({
          total: pass.total,
          sessions: pass.detailed,
          hidden: Math.max(0, pass.total.sessionsWithLoops - pass.detailed.length),
          advice,
          labels: scored,
          episodes: request.top === Infinity,
        }),
      )
    }
  } finally {
    await reader.close()
  }
  return terminal.errors.length > 0 ? FAILED : 0
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
async function replayAll(
  files: readonly string[],
  read: (file: string) => Promise<Session | undefined>,
  config: Config,
  request: Request,
  labels: Labels | undefined,
  terminal: Terminal,
  progress: boolean,
): Promise<Pass> {
  const pass: Pass = {
    total: emptyTotals(),
    detailed: [],
    stats: new Map(),
    scorer: labels === undefined ? undefined : new Scorer(labels),
  }
  let first = true
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
    if (request.json) {
      terminal.io.out(
        `${first ? `${JSON.stringify({ config }).slice(0, -1)},\n"sessions": [` : ','}\n${JSON.stringify(one)}`,
      )
      first = false
    } else if (request.top === Infinity || looped(one)) {
      keep(pass.detailed, one, request.top)
    }
  }
  terminal.endProgress()
  return pass
}

/** Stderr as the command uses it: one line per failure, and a progress line that a failure or the end clears. */
class Terminal {
  /** Every input that failed, and why. */
  readonly errors: { path: string; reason: string }[] = []
  readonly io: Io
  private shown = false

  constructor(io: Io) {
    this.io = io
  }

  /** Report an input that failed, a problem of its path, on a line of its own. */
  readonly fail = (problem: Problem): void => {
    const [path, ...inside] = problem.where
    this.errors.push({ path: path!, reason: [...inside, problem.what].join(': ') })
    // A progress line on the terminal is cleared first, so the error gets a line of its own.
    if (this.shown) this.io.err('\r\u001b[2K')
    this.io.err(`${printable(problem.within(REPLAY).message)}\n`)
  }

  /** Show how far a pass has come, over the last progress line. */
  progress(text: string): void {
    this.io.err(`\r${text}`)
    this.shown = true
  }

  /** End the progress line, if one is shown. */
  endProgress(): void {
    if (this.shown) this.io.err('\n')
    this.shown = false
  }
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
