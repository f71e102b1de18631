/**
 * The replay itself: one session's events through a fresh guard, into a report
 * of its runs, cycles, reminders, blocks and cost; and totals across sessions.
 * Pure: events in, numbers out, no files.
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { argumentsPreview, deliveredArguments } from '../arguments.ts'
import { name, type Config } from '../config.ts'
import { createGuard, type Guard } from '../guard.ts'

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

/** What one session, or all of them, came to. */
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

/** Feed one session's calls and prompts to a fresh guard, in the order the live pipeline saw them. */
export function replaySession(events: readonly SessionEvent[], config: Config): Report {
  const guard: Guard = createGuard(config)
  const agent = {} as Agent
  const report = empty()
  const calls = new Map<string, { name: string, arguments: string }>()
  /** The tracked calls so far: where each stood and what it carried. */
  const tracked: { at: number, arguments: string, content: readonly ContentBlock[] }[] = []
  let run: RunReport | undefined
  let cycle: CycleReport | undefined
  let results = 0
  for (const event of events) {
    if (event.type === 'tool/call') {
      calls.set(event.data.callId, { name: event.data.name, arguments: event.data.arguments })
      report.toolCalls++
    } else if (event.type === 'user/message') {
      const { source } = event.data
      guard.step(agent, [event.data])
      if (source.kind === 'plugin' && source.plugin === name) {
        report.recordedReminders.push({ afterCall: results, summary: (source as { summary: string }).summary })
      }
    } else if (event.type === 'tool/result') {
      const [block] = event.data.message.content
      const call = calls.get(block.toolCallId)!
      const args = deliveredArguments(call.arguments)
      results++
      const seen = guard.observe({ agent, name: call.name, arguments: args }, { isError: block.isError === true, content: block.content })
      if (seen === undefined) continue
      report.trackedCalls++
      tracked.push({ at: results, arguments: call.arguments, content: block.content })
      if (seen.run.length === 1) {
        close(report, run)
        run = { tool: call.name, arguments: argumentsPreview(args, config.argumentsPreviewChars), start: results, length: 1 }
      } else {
        run!.length = seen.run.length
        addCost(report.cost, tracked.slice(-1))
      }
      if (seen.cycle === undefined) {
        if (cycle !== undefined) report.cycles.push(cycle)
        cycle = undefined
      } else {
        const tools = seen.cycle.calls.map((c) => c.tool)
        // First seen when its second repetition completes: that repetition's calls are the first repeated ones.
        if (cycle === undefined) addCost(report.cost, tracked.slice(-tools.length, -1))
        cycle ??= { tools, start: tracked.at(-2 * tools.length)!.at, repetitions: 2 }
        cycle.repetitions = seen.cycle.length
        addCost(report.cost, tracked.slice(-1))
      }
      if (seen.reminder !== undefined) {
        report.configReminders.push({ afterCall: results, summary: (seen.reminder.source as { summary: string }).summary })
      }
      if (seen.feedback !== undefined) report.configBlocks.push(results)
    }
  }
  close(report, run)
  if (cycle !== undefined) report.cycles.push(cycle)
  return report
}

function addCost(cost: LoopCost, calls: { arguments: string, content: readonly ContentBlock[] }[]): void {
  for (const call of calls) {
    cost.calls++
    cost.argumentChars += call.arguments.length
    cost.resultChars += JSON.stringify(call.content).length
  }
}

function close(report: Report, run: RunReport | undefined): void {
  if (run === undefined || run.length < 2) return
  report.runs.push(run)
  report.histogram[run.length] = (report.histogram[run.length] ?? 0) + 1
  tally(report.tools, { tool: run.tool, runs: 1, repeatedCalls: run.length - 1 })
}

/** Add one tool's loops to a list of per-tool tallies. */
function tally(tools: ToolLoops[], loops: ToolLoops): void {
  const known = tools.find((t) => t.tool === loops.tool)
  if (known === undefined) tools.push({ ...loops })
  else {
    known.runs += loops.runs
    known.repeatedCalls += loops.repeatedCalls
  }
}

export function empty(): Report {
  return {
    toolCalls: 0,
    trackedCalls: 0,
    runs: [],
    cycles: [],
    histogram: {},
    tools: [],
    recordedReminders: [],
    configReminders: [],
    configBlocks: [],
    cost: { calls: 0, argumentChars: 0, resultChars: 0 },
  }
}

/** Totals across sessions; lists are concatenated in session order, tools merged and ranked. */
export function combine(sessions: SessionReport[]): Report {
  const total = empty()
  for (const s of sessions) {
    total.toolCalls += s.toolCalls
    total.trackedCalls += s.trackedCalls
    total.runs = total.runs.concat(s.runs)
    total.cycles = total.cycles.concat(s.cycles)
    for (const [length, count] of Object.entries(s.histogram)) total.histogram[length] = (total.histogram[length] ?? 0) + count
    for (const t of s.tools) tally(total.tools, t)
    total.recordedReminders = total.recordedReminders.concat(s.recordedReminders)
    total.configReminders = total.configReminders.concat(s.configReminders)
    total.configBlocks = total.configBlocks.concat(s.configBlocks)
    total.cost.calls += s.cost.calls
    total.cost.argumentChars += s.cost.argumentChars
    total.cost.resultChars += s.cost.resultChars
  }
  total.tools.sort((a, b) => b.repeatedCalls - a.repeatedCalls || a.tool.localeCompare(b.tool))
  for (const s of sessions) s.tools.sort((a, b) => b.repeatedCalls - a.repeatedCalls || a.tool.localeCompare(b.tool))
  return total
}

