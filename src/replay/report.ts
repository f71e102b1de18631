/**
 * The replay itself: one session's events, read once into the calls the live
 * guard saw, then through a fresh guard per config into a report of its runs,
 * cycles, reminders, blocks and cost; and totals that keep counts, not lists.
 * Pure: events in, numbers out, no files.
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ContentBlock, UserMessage } from '@deepseek-ai/dsh-llm'
import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { argumentsPreview, deliveredArguments, sameArguments, sameJson } from '../arguments.ts'
import { ignoredArgument, name, type Config } from '../config.ts'
import { createGuard, type Observation } from '../guard.ts'
import { argumentFilter } from '../patterns.ts'
import { WITHHELD } from '../reminders.ts'
import { outcome as comparable, type Outcome } from '../results.ts'

/** One identical run of length 2 or more. */
export interface RunReport {
  tool: string
  arguments: string
  /** The run's first call, counted 1-based among the session's tool calls. */
  start: number
  length: number
}

/** One repeating cycle of distinct calls that completed at least two repetitions. */
export interface CycleReport {
  tools: string[]
  start: number
  repetitions: number
}

/** Where a reminder stood: after the session's `afterCall`-th tool result. */
export interface ReminderReport {
  afterCall: number
  summary: string
}

/** The waste: calls made inside runs past their first call (or cycle repetition), with the characters of their raw arguments and logged result content (JSON). */
export interface LoopCost {
  calls: number
  argumentChars: number
  resultChars: number
}

/** Per tool: how many runs it looped in and how many calls those runs repeated. */
export interface ToolLoops {
  tool: string
  runs: number
  repeatedCalls: number
}

/** What one session came to. */
export interface Report {
  toolCalls: number
  trackedCalls: number
  runs: RunReport[]
  cycles: CycleReport[]
  /** Identical runs by length: `{ "2": 3 }` is three runs of two calls. */
  histogram: Record<string, number>
  tools: ToolLoops[]
  /** Reminders from repeat-tool-reminder found in the log, as the live guard attached them. */
  recordedReminders: ReminderReport[]
  /** Reminders the given config produces on the same calls. */
  configReminders: ReminderReport[]
  /** Calls whose results the live guard withheld, as the log records them. */
  recordedBlocks: number[]
  /** Calls whose results the given config withholds (`blockAt`). */
  configBlocks: number[]
  cost: LoopCost
}

/** One session's report, with where its log lives. */
export interface SessionReport extends Report {
  file: string
  id: string
  parentSession?: string
}

/** What all sessions came to: counts, so memory stays flat however many there are. */
export interface Totals {
  sessions: number
  /** Sessions with at least one identical run or cycle. */
  sessionsWithLoops: number
  toolCalls: number
  trackedCalls: number
  runs: number
  longestRun: number
  cycles: number
  histogram: Record<string, number>
  /** Ranked: most repeated calls first. */
  tools: ToolLoops[]
  recordedReminders: number
  configReminders: number
  recordedBlocks: number
  configBlocks: number
  cost: LoopCost
}

/** How one config fares on the sessions, for `--suggest`. */
export interface Tally {
  reminders: number
  blocks: number
  /** Reminders attached to a call whose result was the same as the previous identical call's: the model was seeing no new output. */
  onRepeatedResults: number
  /** Reminders attached to a call whose result differed from the previous identical call's. */
  onChangedResults: number
  /** Calls that repeated the call before them, result included, and got no reminder. */
  unremindedLoopCalls: number
}

/** One tool call as the live guard saw it, read from the log. */
export interface RecordedCall {
  tool: string
  /** The arguments text the model wrote. */
  raw: string
  /** The arguments as the loop delivered them to the tool. */
  args: unknown
  /** The outcome the live guard compared: the logged one, or for a result it withheld, the one it had seen repeat. */
  outcome: { isError: boolean, content: readonly ContentBlock[] }
  /** The logged result content, for the cost of looping. */
  logged: readonly ContentBlock[]
  /** The outcome as `resultAware` compares it: dsh's locators masked. */
  compared: Outcome
  /** Whether its result equals that of the latest earlier call with the same tool and arguments, dsh's locators masked. */
  repeatsResult: boolean
  /** Whether it repeats the call right before it: same tool, same arguments (the ignored ones left out). */
  repeatsCall: boolean
  /** Whether it repeats the call right before it, arguments and result alike. */
  loop: boolean
}

/** A session as the replay needs it: its calls and user messages in log order, and what the live guard recorded. */
export interface Recorded {
  steps: (RecordedCall | UserMessage)[]
  calls: number
  recordedReminders: ReminderReport[]
  recordedBlocks: number[]
}

/** The most calls apart that two occurrences of one call can be and still be compared by the guard (the largest `maxCyclePeriod`). */
const WINDOW = 8


/**
 * Read a session's events once: each call counted at its first result (later
 * results for the same call, such as the compaction pruner's replacements, are
 * not calls), user messages in place, and what the live guard left in the log.
 * Two calls are the same when they are equal without the `ignoreArguments`
 * entries given; two results, when they are equal with dsh's locators masked.
 * Throws, naming what is wrong, on a log no dsh loop writes.
 */
export function record(events: readonly SessionEvent[], ignoreArguments: readonly string[] = []): Recorded {
  const ignoredFor = argumentFilter(ignoreArguments.map(ignoredArgument))
  const recorded: Recorded = { steps: [], calls: 0, recordedReminders: [], recordedBlocks: [] }
  const made = new Map<string, { tool: string, raw: string }>()
  const answered = new Set<string>()
  const recent: RecordedCall[] = []
  for (const event of events) {
    if (event.type === 'tool/call') {
      const { callId, name: tool, arguments: raw } = event.data as { callId: string, name: unknown, arguments: unknown }
      if (typeof tool !== 'string' || tool === '') throw new Error(`tool call ${JSON.stringify(callId)} (event ${event.seq}) has no tool name`)
      if (typeof raw !== 'string') throw new Error(`tool call ${JSON.stringify(callId)} (event ${event.seq}) has no arguments text`)
      made.set(callId, { tool, raw })
    } else if (event.type === 'user/message') {
      recorded.steps.push(event.data)
      const { source } = event.data
      if (source.kind === 'plugin' && source.plugin === name) {
        recorded.recordedReminders.push({ afterCall: recorded.calls, summary: (source as { summary: string }).summary })
      }
    } else if (event.type === 'tool/result') {
      const [block] = event.data.message.content
      const id = block?.toolCallId as string
      const call = made.get(id)
      if (call === undefined) throw new Error(`tool result (event ${event.seq}) for call ${JSON.stringify(id)}, which the log never made`)
      if (answered.has(id)) continue
      answered.add(id)
      recorded.calls++
      const args = deliveredArguments(call.raw)
      const logged = { isError: block!.isError === true, content: block!.content }
      const ignored = ignoredFor(call.tool)
      const same = findLast(recent, (c) => c.tool === call.tool && sameArguments(c.args, args, ignored))
      const withheld = logged.isError && isWithheld(logged.content)
      if (withheld) recorded.recordedBlocks.push(recorded.calls)
      // The live guard withholds only a result of a run that goes on: what it saw was the outcome before.
      const outcome = withheld && same !== undefined ? same.outcome : logged
      const repeatsCall = same !== undefined && same === recent.at(-1)
      const compared = withheld && same !== undefined ? same.compared : comparable(logged.isError, logged.content)
      const repeatsResult = same !== undefined && sameJson(same.compared, compared)
      const current: RecordedCall = {
        ...call,
        args,
        outcome,
        logged: logged.content,
        compared,
        repeatsResult,
        repeatsCall,
        loop: repeatsCall && repeatsResult,
      }
      recorded.steps.push(current)
      recent.push(current)
      if (recent.length > WINDOW) recent.shift()
    }
  }
  return recorded
}

function isWithheld(content: readonly ContentBlock[]): boolean {
  const [first] = content
  return content.length === 1 && first!.type === 'text' && first!.text.startsWith(WITHHELD)
}

function findLast<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return items[i]
  return undefined
}

/** Feed one session's calls and prompts to a fresh guard, in the order the live pipeline saw them; `visit` hears of every tracked call. */
function drive(session: Recorded, config: Config, visit: (call: RecordedCall, at: number, seen: Observation) => void): number {
  const guard = createGuard(config)
  const agent = {} as Agent
  let at = 0
  let tracked = 0
  for (const step of session.steps) {
    if (!('tool' in step)) {
      guard.step(agent, [step])
      continue
    }
    at++
    const seen = guard.observe({ agent, name: step.tool, arguments: step.args }, step.outcome as { isError: boolean, content: ContentBlock[] })
    if (seen === undefined) continue
    tracked++
    visit(step, at, seen)
  }
  return tracked
}

/** The session's report under `config`. */
export function replay(session: Recorded, config: Config): Report {
  const report = empty(session)
  const tracked: { at: number, call: RecordedCall }[] = []
  let run: RunReport | undefined
  let cycle: CycleReport | undefined
  report.trackedCalls = drive(session, config, (call, at, seen) => {
    tracked.push({ at, call })
    if (seen.length === 1) {
      close(report, run)
      run = { tool: call.tool, arguments: argumentsPreview(call.args, config.argumentsPreviewChars), start: at, length: 1 }
    } else {
      run!.length = seen.length
      addCost(report.cost, call)
    }
    const tools = seen.cycle?.calls.map((c) => c.tool)
    if (cycle !== undefined && (tools === undefined || tools.join('\n') !== cycle.tools.join('\n'))) {
      report.cycles.push(cycle)
      cycle = undefined
    }
    if (tools !== undefined) {
      if (cycle === undefined) {
        // First seen when its second repetition completes: that repetition's calls are the first repeated ones.
        for (const earlier of tracked.slice(-tools.length, -1)) addCost(report.cost, earlier.call)
        cycle = { tools, start: tracked.at(-2 * tools.length)!.at, repetitions: 2 }
      }
      cycle.repetitions = seen.cycle!.length
      addCost(report.cost, call)
    }
    if (seen.reminder !== undefined) report.configReminders.push({ afterCall: at, summary: (seen.reminder.source as { summary: string }).summary })
    if (seen.feedback !== undefined) report.configBlocks.push(at)
  })
  close(report, run)
  if (cycle !== undefined) report.cycles.push(cycle)
  report.tools.sort(byRepeatedCalls)
  return report
}

/** How `config` fares on one session: its reminders split by what the model was seeing, and the loop calls it leaves unreminded. */
export function tally(session: Recorded, config: Config): Tally {
  const result: Tally = { reminders: 0, blocks: 0, onRepeatedResults: 0, onChangedResults: 0, unremindedLoopCalls: 0 }
  const reminded = new Set<RecordedCall>()
  drive(session, config, (call, _at, seen) => {
    if (seen.feedback !== undefined) result.blocks++
    if (seen.reminder === undefined) return
    reminded.add(call)
    result.reminders++
    if (call.repeatsResult) result.onRepeatedResults++
    else result.onChangedResults++
  })
  for (const step of session.steps) if ('tool' in step && step.loop && !reminded.has(step)) result.unremindedLoopCalls++
  return result
}

/** Add one config's tally on a session to its running total. */
export function addTally(total: Tally, more: Tally): void {
  for (const key of Object.keys(more) as (keyof Tally)[]) total[key] += more[key]
}

function addCost(cost: LoopCost, call: RecordedCall): void {
  cost.calls++
  cost.argumentChars += call.raw.length
  cost.resultChars += JSON.stringify(call.logged).length
}

function close(report: Report, run: RunReport | undefined): void {
  if (run === undefined || run.length < 2) return
  report.runs.push(run)
  report.histogram[run.length] = (report.histogram[run.length] ?? 0) + 1
  addLoops(report.tools, { tool: run.tool, runs: 1, repeatedCalls: run.length - 1 })
}

/** Add one tool's loops to a list of per-tool tallies. */
function addLoops(tools: ToolLoops[], loops: ToolLoops): void {
  const known = tools.find((t) => t.tool === loops.tool)
  if (known === undefined) tools.push({ ...loops })
  else {
    known.runs += loops.runs
    known.repeatedCalls += loops.repeatedCalls
  }
}

function byRepeatedCalls(a: ToolLoops, b: ToolLoops): number {
  return b.repeatedCalls - a.repeatedCalls || a.tool.localeCompare(b.tool)
}

function empty(session: Recorded): Report {
  return {
    toolCalls: session.calls,
    trackedCalls: 0,
    runs: [],
    cycles: [],
    histogram: {},
    tools: [],
    recordedReminders: session.recordedReminders,
    configReminders: [],
    recordedBlocks: session.recordedBlocks,
    configBlocks: [],
    cost: { calls: 0, argumentChars: 0, resultChars: 0 },
  }
}

/** Totals before any session. */
export function emptyTotals(): Totals {
  return {
    sessions: 0,
    sessionsWithLoops: 0,
    toolCalls: 0,
    trackedCalls: 0,
    runs: 0,
    longestRun: 0,
    cycles: 0,
    histogram: {},
    tools: [],
    recordedReminders: 0,
    configReminders: 0,
    recordedBlocks: 0,
    configBlocks: 0,
    cost: { calls: 0, argumentChars: 0, resultChars: 0 },
  }
}

/** Whether a session looped at all: an identical run or a cycle. */
export function looped(report: Report): boolean {
  return report.runs.length > 0 || report.cycles.length > 0
}

/** Add one session's report to the totals; the tools stay ranked. */
export function addToTotals(total: Totals, s: Report): void {
  total.sessions++
  if (looped(s)) total.sessionsWithLoops++
  total.toolCalls += s.toolCalls
  total.trackedCalls += s.trackedCalls
  total.runs += s.runs.length
  for (const run of s.runs) total.longestRun = Math.max(total.longestRun, run.length)
  total.cycles += s.cycles.length
  for (const [length, count] of Object.entries(s.histogram)) total.histogram[length] = (total.histogram[length] ?? 0) + count
  for (const t of s.tools) addLoops(total.tools, t)
  total.tools.sort(byRepeatedCalls)
  total.recordedReminders += s.recordedReminders.length
  total.configReminders += s.configReminders.length
  total.recordedBlocks += s.recordedBlocks.length
  total.configBlocks += s.configBlocks.length
  total.cost.calls += s.cost.calls
  total.cost.argumentChars += s.cost.argumentChars
  total.cost.resultChars += s.cost.resultChars
}
