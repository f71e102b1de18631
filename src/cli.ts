/**
 * `repeat-tool-reminder replay`: reads recorded dsh sessions with the harness's
 * own JSONL persistence backend and feeds every recorded tool call, with its
 * recorded result, and every recorded user prompt to the guard the plugin runs
 * (`createGuard`), one agent per session; then reports how the agents looped and
 * what the given config would have done. It only reads: it never creates or
 * changes a file under the paths it is given.
 */
import { readdir, stat } from 'node:fs/promises'
import { basename, dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import SessionStore, { type SessionEvent, type SessionHeader } from '@deepseek-ai/dsh-session'
import JsonlSessionPersistence from '@deepseek-ai/dsh-session-persistence-jsonl'
import { argumentsPreview, Config, createGuard, name, type Guard } from './index.ts'

/** Where the command writes, and whether stderr is a terminal that can show progress. */
export interface Io {
  out(text: string): void
  err(text: string): void
  progress: boolean
}

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

const USAGE = `Usage: repeat-tool-reminder replay <session file or sessions root>... [options]

Replays recorded dsh sessions (the JSONL persistence backend's session.jsonl or
session.jsonl.zstd, or a directory searched for them) through the guard, and
reports identical runs, their cost, and the reminders a config would produce.

Options:
  --thresholds LIST       run lengths that get a reminder (default 3,5,8)
  --include PATTERN       track only matching tools (repeatable, or a comma list)
  --exclude PATTERN       never track matching tools (repeatable, or a comma list)
  --preview N             argumentsPreviewChars (default 500)
  --result-aware          compare outcomes too (resultAware)
  --cycles                recognise cycles of distinct calls
  --max-cycle-period N    longest cycle (default 4)
  --remind-every N        remind again every N repeats past the last threshold
  --block-at N            block from run length N on
  --json                  one JSON document on stdout
  --help                  show this help

Exit status: 0 when every input was read, 1 when any failed, 2 for bad options.`

const TRANSCRIPTS = new Set(['session.jsonl', 'session.jsonl.zstd'])

/** Run the command with `argv` (after the program name); resolves to the exit status. */
export async function main(argv: string[], io: Io): Promise<number> {
  let parsed: { config: Config, paths: string[], json: boolean } | undefined
  try {
    parsed = parse(argv)
  } catch (error) {
    io.err(`${name}: ${(error as Error).message.replace(/^repeat-tool-reminder: /, '')}\n`)
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
    sessions.push({ file: found.file, id: found.meta.id, ...found.meta.parentSession ? { parentSession: found.meta.parentSession } : {}, ...replay(found.events, config) })
  }
  if (show) io.err('\n')
  const total = combine(sessions)
  io.out(json ? `${JSON.stringify({ config, sessions, total, errors }, null, 2)}\n` : render(sessions, total))
  return errors.length > 0 ? 1 : 0
}

/** The command-line flags that set the plugin's config; the `npm start` demo takes the same ones. */
export const CONFIG_FLAGS = {
  'thresholds': { type: 'string' },
  'include': { type: 'string', multiple: true },
  'exclude': { type: 'string', multiple: true },
  'preview': { type: 'string' },
  'result-aware': { type: 'boolean' },
  'cycles': { type: 'boolean' },
  'max-cycle-period': { type: 'string' },
  'remind-every': { type: 'string' },
  'block-at': { type: 'string' },
} as const

/** The values `parseArgs` reads for {@link CONFIG_FLAGS}. */
export interface ConfigFlags {
  'thresholds'?: string | undefined
  'include'?: string[] | undefined
  'exclude'?: string[] | undefined
  'preview'?: string | undefined
  'result-aware'?: boolean | undefined
  'cycles'?: boolean | undefined
  'max-cycle-period'?: string | undefined
  'remind-every'?: string | undefined
  'block-at'?: string | undefined
}

/**
 * Raw plugin config from parsed flags, left for the plugin's schema to judge:
 * a text that is a number becomes one, any other text stays text so the error
 * names it; `--include`/`--exclude` may repeat and take comma lists.
 */
export function configFromFlags(values: ConfigFlags): Record<string, unknown> {
  const numeric = (text: string | undefined) => text === undefined ? undefined : numberOrText(text)
  const list = (items: string[] | undefined) => items?.flatMap((item) => item.split(',')).filter((item) => item !== '')
  const raw: Record<string, unknown> = {
    thresholds: values.thresholds?.split(',').map(numberOrText),
    include: list(values.include),
    exclude: list(values.exclude),
    argumentsPreviewChars: numeric(values.preview),
    resultAware: values['result-aware'],
    cycles: values.cycles,
    maxCyclePeriod: numeric(values['max-cycle-period']),
    remindEvery: numeric(values['remind-every']),
    blockAt: numeric(values['block-at']),
  }
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined))
}

function parse(argv: string[]): { config: Config, paths: string[], json: boolean } | undefined {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { ...CONFIG_FLAGS, json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
  })
  if (values.help) return undefined
  const [verb, ...paths] = positionals
  if (verb !== 'replay') throw new Error(`unknown command ${JSON.stringify(verb ?? '')}; try: repeat-tool-reminder replay <path>... (--help for more)`)
  if (paths.length === 0) throw new Error('replay needs at least one session file or sessions root')
  const config = Config(configFromFlags(values))
  createGuard(config)
  return { config, paths, json: values.json }
}

/** A number where the text is one; otherwise the text, for the config schema to judge and name. */
function numberOrText(text: string): number | string {
  const n = Number(text)
  return text.trim() !== '' && Number.isFinite(n) ? n : text
}

function reason(error: unknown): string {
  const { code, message } = error as { code?: string, message: string }
  return code === 'ENOENT' ? 'no such file or directory' : message
}

/** The session transcripts a path names: the file itself, or every transcript below a directory. */
async function discover(path: string): Promise<string[]> {
  const info = await stat(path)
  if (info.isFile()) {
    if (!TRANSCRIPTS.has(basename(path))) throw new Error('not a session log of the JSONL backend (session.jsonl or session.jsonl.zstd)')
    return [resolve(path)]
  }
  const entries = await readdir(path, { recursive: true })
  const found = entries.filter((entry) => TRANSCRIPTS.has(basename(entry))).map((entry) => resolve(path, entry)).sort()
  if (found.length === 0) throw new Error('no session.jsonl or session.jsonl.zstd below this directory')
  return found
}

/** One decoded session log. */
interface Found {
  file: string
  meta: SessionHeader
  events: readonly SessionEvent[]
}

/**
 * Read transcripts through the JSONL backend: one read-only backend per sessions
 * root and encoding (a transcript sits at `<root>/<project>/<session>/`), its
 * `list()` for the headers and its non-mutating `inspect()` for the events.
 */
async function readAll(files: string[], fail: (path: string, reason: string) => void): Promise<Found[]> {
  const groups = new Map<string, { root: string, compression: 'zstd' | 'none', members: string[] }>()
  for (const file of files) {
    const root = dirname(dirname(dirname(file)))
    const compression = file.endsWith('.zstd') ? 'zstd' : 'none'
    const group = groups.get(`${compression} ${root}`) ?? { root, compression, members: [] }
    groups.set(`${compression} ${root}`, group)
    group.members.push(file)
  }
  const found: Found[] = []
  for (const { root, compression, members } of groups.values()) {
    const ctx = new Context()
    try {
      await ctx.plugin(SessionStore)
      await ctx.plugin(JsonlSessionPersistence, { root, compression })
      // Mounted just above and never withdrawn while this context lives.
      const backend = ctx.sessionPersistence as JsonlSessionPersistence
      const byFile = new Map((await backend.list()).map((meta) => [backend.locate(meta).path, meta]))
      for (const file of members) {
        const meta = byFile.get(file)
        if (meta === undefined) {
          fail(file, 'no valid session header (not a session log, a corrupt one, or another format version)')
          continue
        }
        try {
          found.push({ file, meta, events: (await backend.inspect(meta.id)).events })
        } catch (error) {
          fail(file, reason(error))
        }
      }
    } catch (error) {
      for (const file of members) fail(file, reason(error))
    } finally {
      await ctx.fiber.dispose()
    }
  }
  return found.sort((a, b) => a.file.localeCompare(b.file))
}

/** Feed one session's calls and prompts to a fresh guard, in the order the live pipeline saw them. */
function replay(events: readonly SessionEvent[], config: Config): Report {
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
      if (seen.repeats === 1) {
        close(report, run)
        run = { tool: call.name, arguments: argumentsPreview(args, config.argumentsPreviewChars), start: results, length: 1 }
      } else {
        run!.length = seen.repeats
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
        cycle.repetitions = seen.cycle.count
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

/** The arguments as the loop hands them to the tools: parsed and deep-frozen JSON, `{}` for none, or the raw text when malformed. */
export function deliveredArguments(raw: string): unknown {
  try {
    return raw ? freeze(JSON.parse(raw)) : {}
  } catch {
    return raw
  }
}

/** Deep-freeze, as the tool registry does before `tools/post-execute`. */
function freeze<T>(value: T): T {
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const item = pending.pop()
    if (typeof item === 'object' && item !== null && !Object.isFrozen(item)) {
      Object.freeze(item)
      // One push per value: spreading a large array would overflow the argument limit.
      for (const child of Object.values(item)) pending.push(child)
    }
  }
  return value
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

function empty(): Report {
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
function combine(sessions: SessionReport[]): Report {
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

function render(sessions: SessionReport[], total: Report): string {
  const lines: string[] = []
  for (const s of sessions) {
    lines.push(`session ${s.id}${s.parentSession ? ` (subagent of ${s.parentSession})` : ''}`, `  ${s.file}`, ...sessionLines(s), '')
  }
  lines.push(`total: ${sessions.length} session${sessions.length === 1 ? '' : 's'}`, ...totalLines(total))
  return `${lines.join('\n')}\n`
}

function sessionLines(r: Report): string[] {
  const reminders = (list: ReminderReport[]) => list.length === 0 ? 'none' : list.map((m) => `after call ${m.afterCall} (${m.summary})`).join(', ')
  return [
    calls(r),
    `  identical runs: ${r.runs.length === 0 ? 'none' : r.runs.map((run) => `${run.tool} ${run.arguments} × ${run.length} from call ${run.start}`).join('; ')}`,
    ...r.cycles.map((c) => `  cycle: ${c.tools.join(' → ')} × ${c.repetitions} from call ${c.start}`),
    ...loops(r),
    `  reminders in the log: ${reminders(r.recordedReminders)}`,
    `  reminders with this config: ${reminders(r.configReminders)}`,
    ...r.configBlocks.length === 0 ? [] : [`  results this config withholds: calls ${r.configBlocks.join(', ')}`],
    cost(r),
  ]
}

function totalLines(r: Report): string[] {
  return [
    calls(r),
    `  identical runs: ${r.runs.length} (longest ${Math.max(0, ...r.runs.map((run) => run.length))}), cycles: ${r.cycles.length}`,
    ...loops(r),
    `  reminders: ${r.recordedReminders.length} in the logs, ${r.configReminders.length} with this config; results this config withholds: ${r.configBlocks.length}`,
    cost(r),
  ]
}

function calls(r: Report): string {
  return `  ${r.toolCalls} tool calls, ${r.trackedCalls} tracked`
}

function loops(r: Report): string[] {
  const histogram = Object.entries(r.histogram).map(([length, count]) => `${length}: ${count}`).join(', ')
  const tools = r.tools.map((t) => `${t.tool} (${t.runs} run${t.runs === 1 ? '' : 's'}, ${t.repeatedCalls} repeated call${t.repeatedCalls === 1 ? '' : 's'})`)
  return [`  run lengths: ${histogram === '' ? 'none' : histogram}`, `  tools that loop most: ${tools.length === 0 ? 'none' : tools.join(', ')}`]
}

function cost(r: Report): string {
  return `  cost of looping: ${r.cost.calls} repeated calls carrying ${r.cost.argumentChars} characters of arguments and ${r.cost.resultChars} of results`
}
