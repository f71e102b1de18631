/**
 * `npm run bench`: the cost of one `tools/post-execute` pass through a real
 * harness context, for no guard, the stock plugin, this package, and a bare
 * `JSON.stringify` of the same arguments; then the heap an agent churn leaves.
 * Subjects run interleaved in rounds and are reported as medians. As in a loop,
 * every timed call carries arguments (and a result) no pass has seen: each
 * sample's calls are delivered afresh before it, the heap is collected, and
 * only then is the sample timed; the bare stringify is timed on the fresh
 * arguments the floor's sample then carries. It asserts nothing:
 * `BENCH_QUICK=1` is a smoke run that only proves the bench still works.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { SessionId } from '@deepseek-ai/dsh-session'
import { scopeTarget } from '@deepseek-ai/dsh-scope'
import type { PostToolDecision, PreToolDecision, ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import * as Stock from 'reference-reminder'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { deliveredArguments } from '../src/arguments.ts'
import * as Reminder from '../src/index.ts'
import { bootHarness } from '../support/harness.ts'
import { shellCommand } from '../src/shell/command.ts'
import { lex } from '../src/shell/lexer.ts'
import { waits, writesFiles } from '../src/shell/waits.ts'
import { Config } from '../src/config.ts'
import { createGuard } from '../src/guard.ts'
import { readmeConfig } from './readme.ts'

const QUICK = process.env.BENCH_QUICK === '1'

/** The README's recommended config. */
const README_CONFIG = readmeConfig()
/** `BENCH_ONLY=nested` times only the workloads and opt-ins whose label contains the text, and skips the churn. */
const ONLY = process.env.BENCH_ONLY
const ROUNDS = QUICK ? 2 : 21
const CHURN_AGENTS = QUICK ? 2_000 : 100_000

/** One configuration under test: a plugin to mount, or nothing (the floor). */
interface Subject {
  label: string
  plugin?: object
  config?: object
  /**
   * Dispatch `tools/pre-execute` before `tools/post-execute`, as the registry does for every call:
   * for the subject that listens to both.
   */
  pre?: true
  /**
   * Dispatch `tools/execute` between the two, as the registry does for every call it runs: for a
   * subject that watches which calls ran (`rejectedCalls`). Without it, every call looks denied.
   */
  execute?: true
}

/** A subject booted in its own harness context, with one live agent. */
interface Mounted {
  subject: Subject
  ctx: Context
  agent: Agent
}

/** A repeating cycle of calls, each delivered afresh, deep-frozen, as the harness delivers them. */
interface Workload {
  label: string
  calls: { name: string; arguments: unknown }[]
  /** Calls per timed sample, sized so one sample takes milliseconds. */
  perSample: number
}

/** A listener that only delegates: what any `tools/post-execute` listener pays to cordis before doing anything. */
const PassThrough = {
  name: 'pass-through',
  apply(ctx: Context) {
    ctx.on('tools/post-execute', (_exec, _result, next) => next(), { global: true })
  },
}

const SUBJECTS: Subject[] = [
  { label: 'no guard' },
  { label: 'pass-through listener', plugin: PassThrough },
  { label: 'stock', plugin: Stock },
  { label: 'this package', plugin: Reminder },
  { label: 'this package, cycles + resultAware', plugin: Reminder, config: { cycles: true, resultAware: true } },
  // A blockAt no run reaches: every call gets the pre-execute check, none is withheld.
  {
    label: 'this package, blockAt (pre- and post-execute)',
    plugin: Reminder,
    config: { blockAt: 1_000_000_000 },
    pre: true,
  },
  {
    label: 'this package, cycles + resultAware + the rules for other words',
    plugin: Reminder,
    config: { cycles: true, resultAware: true, rereads: true, sameFailure: true, maskNoise: true },
  },
  { label: "this package, the README's config", plugin: Reminder, config: README_CONFIG, execute: true },
]

const RESULT: ToolExecutionResult = Object.freeze<ToolExecutionResult>({
  isError: false,
  value: [],
  content: [{ type: 'text', text: 'ok' }],
})
const ACCEPT = (): Promise<PostToolDecision> => Promise.resolve({ kind: 'accept' })
const ALLOW = (): Promise<PreToolDecision> => Promise.resolve({ kind: 'allow' })

function workloads(): Workload[] {
  const small = { pattern: 'TODO\\(.*\\)', path: 'packages/guard/src', glob: '**/*.ts', caseSensitive: false }
  const megabyte = (seed: string) => ({
    path: `src/${seed}.ts`,
    content: `const s = "${seed}\\t\\"quoted\\""\n`.repeat(1_000_000 / 30),
  })
  const nested = (last: number) =>
    Object.fromEntries(
      Array.from({ length: 2_000 }, (_, i) => [`key${i}`, { id: i, tags: ['a', 'b', i === 1_999 ? last : i] }]),
    )
  // Three containers per key: an object holding an array of an object.
  const deeper = Object.fromEntries(
    Array.from({ length: 2_000 }, (_, i) => [`key${i}`, { items: [{ id: i, name: 'item' }] }]),
  )
  return [
    { label: 'small identical', calls: [call('grep', small)], perSample: 4_000 },
    { label: 'small alternating', calls: [call('grep', small), call('glob', small)], perSample: 4_000 },
    {
      label: 'small 3-call cycle',
      calls: [call('grep', small), call('glob', small), call('read', small)],
      perSample: 4_000,
    },
    { label: '1 MB identical', calls: [call('write', megabyte('a'))], perSample: QUICK ? 2 : 8 },
    {
      label: '1 MB alternating',
      calls: [call('write', megabyte('a')), call('read', megabyte('b'))],
      perSample: QUICK ? 2 : 8,
    },
    { label: 'nested identical', calls: [call('apply', nested(0))], perSample: QUICK ? 4 : 16 },
    {
      label: 'nested, last key differs',
      calls: [call('apply', nested(0)), call('apply', nested(1))],
      perSample: QUICK ? 4 : 16,
    },
    { label: 'nested 3 deep identical', calls: [call('apply', deeper)], perSample: QUICK ? 4 : 16 },
  ]
}

function call(name: string, args: unknown) {
  return { name, arguments: args }
}

/** A fresh copy of `args` as the harness delivers it: parsed from the model's JSON, then deep-frozen. */
function delivered(args: unknown): unknown {
  return deliveredArguments(JSON.stringify(args))
}

async function mount(subject: Subject): Promise<Mounted> {
  const ctx = await bootHarness({ invariants: false })
  if (subject.plugin) await ctx.plugin(subject.plugin as typeof Reminder, subject.config ?? {})
  const { agent } = await ctx.agents.create({ sessionId: SessionId(`bench-${subject.label.replace(/\W+/g, '-')}`) })
  return { subject, ctx, agent }
}

let token = 0

function execution(agent: Agent, name: string, args: unknown): ToolExecution {
  const callId = `bench-${++token}` as ToolExecution['callId']
  return Object.freeze({
    token: Symbol(callId) as ToolExecution['token'],
    callId,
    rootCallId: callId,
    name,
    arguments: args,
    signal: new AbortController().signal,
    agent,
  })
}

/** One `tools/post-execute` pass, dispatched exactly as the tool registry dispatches it. */
function pass(ctx: Context, exec: ToolExecution, result = RESULT): Promise<PostToolDecision> {
  return ctx.waterfall(scopeTarget(ctx.tools, exec.agent), 'tools/post-execute', exec, result, ACCEPT)
}

/** One `tools/execute` pass around a tool that returns `result`, dispatched as the registry dispatches it. */
function executePass(ctx: Context, exec: ToolExecution, result = RESULT): Promise<ToolExecutionResult> {
  return ctx.waterfall(scopeTarget(ctx.tools, exec.agent), 'tools/execute', exec as never, () =>
    Promise.resolve(result),
  )
}

/** One `tools/pre-execute` pass, dispatched as the registry dispatches it. */
function prePass(ctx: Context, exec: ToolExecution): Promise<PreToolDecision> {
  return ctx.waterfall(scopeTarget(ctx.tools, exec.agent), 'tools/pre-execute', exec, ALLOW)
}

/**
 * `n` calls of the cycle `calls`, each delivered afresh (arguments parsed and frozen, as the harness
 * does), with results from `result`, made before anything is timed.
 */
function fresh(
  agent: Agent,
  calls: readonly { name: string; arguments: unknown }[],
  n: number,
  result: (i: number) => ToolExecutionResult = () => RESULT,
): { execs: ToolExecution[]; results: ToolExecutionResult[] } {
  const execs: ToolExecution[] = []
  const results: ToolExecutionResult[] = []
  for (let i = 0; i < n; i++) {
    const c = calls[i % calls.length]!
    execs.push(execution(agent, c.name, delivered(c.arguments)))
    results.push(result(i))
  }
  return { execs, results }
}

/** Collect the heap, so that no sample pays for the garbage of the one before it. */
function collect(): void {
  globalThis.gc!()
}

/** One timed sample: the calls made for it, each passed once; nanoseconds per call. */
async function sample(
  mounted: Mounted,
  { execs, results }: { execs: ToolExecution[]; results: ToolExecutionResult[] },
): Promise<number> {
  collect()
  const start = performance.now()
  for (let i = 0; i < execs.length; i++) {
    const exec = execs[i]!
    if (mounted.subject.pre) await prePass(mounted.ctx, exec)
    if (mounted.subject.execute) await executePass(mounted.ctx, exec, results[i])
    await pass(mounted.ctx, exec, results[i])
  }
  return ((performance.now() - start) * 1e6) / execs.length
}

/** A bare `JSON.stringify` of each value once, none of them stringified before; nanoseconds per value. */
function stringifySample(values: readonly unknown[]): number {
  let length = 0
  collect()
  const start = performance.now()
  for (const value of values) length += JSON.stringify(value).length
  const ns = ((performance.now() - start) * 1e6) / values.length
  return length > 0 ? ns : Number.NaN
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * Time one workload: every round samples each subject (in a rotated order) and
 * the bare stringify. A guard's cost is taken per round against that round's
 * floor, so drift between rounds cancels, and reported as the median.
 */
async function timeWorkload(mounted: Mounted[], workload: Workload) {
  const perRound: number[][] = []
  for (let round = -1; round < ROUNDS; round++) {
    const ns: number[] = []
    let stringified = Number.NaN
    for (let k = 0; k < mounted.length; k++) {
      const i = (k + Math.max(round, 0)) % mounted.length
      const calls = fresh(mounted[i]!.agent, workload.calls, workload.perSample)
      // The floor's fresh arguments are stringified first: no guard reads them after.
      if (i === 0) stringified = stringifySample(calls.execs.map((exec) => exec.arguments))
      ns[i] = await sample(mounted[i]!, calls)
    }
    ns.push(stringified)
    if (round >= 0) perRound.push(ns)
  }
  const cost = (i: number) => median(perRound.map((ns) => ns[i]! - ns[0]!))
  return {
    workload: workload.label,
    floor: median(perRound.map((ns) => ns[0]!)),
    passThrough: cost(1),
    stock: cost(2),
    ours: cost(3),
    optIn: cost(4),
    blockAt: cost(5),
    otherWords: cost(6),
    readme: cost(7),
    stringify: median(perRound.map((ns) => ns.at(-1)!)),
  }
}

/** One opt-in under its own workload: what it compares, and the bare stringify its cost is held against. */
interface OptIn {
  label: string
  config: object
  calls: { name: string; arguments: unknown }[]
  /** The result of the `i`th call, made afresh: a text of its own, as every call brings. */
  result: (i: number) => ToolExecutionResult
  /** The value a bare `JSON.stringify` stands for, made afresh for each stringify: what one call compares. */
  stringified: (i: number) => unknown
}

/**
 * The opt-ins that compare more than the arguments as written: a 1 MB call
 * whose UI-only description is reworded each time (`ignoreArguments`), an
 * identical 1 MB result whose spill notice names a new file each time
 * (`resultAware`), 1 MB reads of a job still running, compared as a busy
 * poll (`job_output`, by the job's status) and, for the same results, as any
 * other tool's (by their content), and the rules for loops in other words.
 * Each guard's cost over no guard, in interleaved rounds.
 */
async function optIns() {
  const content = `const s = "a\\t\\"quoted\\""\n`.repeat(1_000_000 / 30)
  // Equal texts, each a string of its own, as every call brings: comparing two is a full comparison.
  const text = (...parts: string[]) => [content, ...parts].join('\n')
  const spilled = (i: number): ToolExecutionResult =>
    textResult(
      text(
        '[exit code: 1]\n\n(Omitted 14306 bytes. Full formatted ' +
          `result stored at: /tmp/dsh-spill-x/session-1/${i}f3a9c2e1-bash.txt. ` +
          'Use read with offset/limit, or grep this path to search within it.)',
      ),
    )
  const running = () => textResult(text('[status: running]'))
  const list: OptIn[] = [
    {
      label: '1 MB, description reworded (ignoreArguments)',
      config: { ignoreArguments: ['write.description'] },
      calls: Array.from({ length: 8 }, (_, i) =>
        call('write', { path: 'src/a.ts', content, description: `Write the file, take ${i}` }),
      ),
      result: () => RESULT,
      stringified: () => delivered({ path: 'src/a.ts', content, description: 'Write the file' }),
    },
    {
      label: '1 MB result with a spill notice (resultAware)',
      config: { resultAware: true },
      calls: [call('bash', { command: 'npm test', description: 'Run the tests' })],
      result: spilled,
      stringified: (i) => spilled(i).content,
    },
    {
      label: '1 MB read of a running job (busy poll)',
      config: { resultAware: true },
      calls: [call('job_output', { job_id: 'bash-1' })],
      result: running,
      stringified: () => running().content,
    },
    {
      label: 'the same read by another tool (by content)',
      config: { resultAware: true },
      calls: [call('read_output', { job_id: 'bash-1' })],
      result: running,
      stringified: () => running().content,
    },
    {
      label: 'a bash read again after a listing (rereads)',
      config: { rereads: true },
      // Each read is parsed once, when the next read finds the same result two calls back.
      calls: [
        call('bash', { command: 'grep -n "def main" src/app.py | head -5' }),
        call('bash', { command: 'ls src' }),
      ],
      result: (i) => textResult(i % 2 === 0 ? '12:def main():' : 'app.py'),
      stringified: () => delivered({ command: 'grep -n "def main" src/app.py | head -5' }),
    },
    {
      label: 'the same error from other arguments (sameFailure)',
      config: { sameFailure: true },
      calls: Array.from({ length: 8 }, (_, i) => call('bash', { command: `curl -fsS https://example.com/item/${i}` })),
      result: () => textResult('[stderr]\ncurl: (22) The requested URL returned error: 429\n[exit code: 22]'),
      stringified: () => delivered({ command: 'curl -fsS https://example.com/item/0' }),
    },
    {
      label: 'a rerun differing in a duration and a pid (maskNoise)',
      config: { resultAware: true, maskNoise: true },
      calls: [call('bash', { command: 'npm run build' })],
      result: (i) => textResult(`pid ${4000 + (i % 8)}: built in ${900 + (i % 8)}ms at 12:00:0${i % 8}`),
      stringified: () => delivered({ command: 'npm run build' }),
    },
  ]
  const rows: string[][] = []
  for (const optIn of list.filter((o) => ONLY === undefined || o.label.includes(ONLY))) {
    const mounted = [
      await mount({ label: 'no guard' }),
      await mount({ label: optIn.label, plugin: Reminder, config: optIn.config }),
    ]
    const large = JSON.stringify(optIn.result(0).content).length >= 1_000 || JSON.stringify(optIn.calls).length >= 1_000
    const n = QUICK ? 2 : large ? 8 : 2_000
    const perRound: number[][] = []
    for (let round = -1; round < ROUNDS; round++) {
      const ns = []
      for (const m of mounted) ns.push(await sample(m, fresh(m.agent, optIn.calls, n, optIn.result)))
      ns.push(stringifySample(Array.from({ length: n }, (_, i) => optIn.stringified(i))))
      if (round >= 0) perRound.push(ns)
    }
    const cost = median(perRound.map((ns) => ns[1]! - ns[0]!))
    const stringify = median(perRound.map((ns) => ns[2]!))
    rows.push([optIn.label, delta(cost), format(stringify), cost > 0 ? `${(cost / stringify).toFixed(3)}x` : '–'])
    for (const m of mounted) await m.ctx.fiber.dispose()
  }
  return rows
}

/** A text result, frozen as the registry hands it over. */
function textResult(text: string): ToolExecutionResult {
  return Object.freeze<ToolExecutionResult>({ isError: false, value: [], content: [{ type: 'text', text }] })
}

/** Heap left behind after `count` agents each make a few calls and are disposed. */
async function churn(subject: Subject): Promise<number> {
  const { ctx } = await mount(subject)
  const calls = [call('grep', { pattern: 'x' }), call('grep', { pattern: 'x' }), call('read', { path: 'a' })]
  const settle = async () => {
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setImmediate(resolve))
      globalThis.gc!()
    }
    return process.memoryUsage().heapUsed
  }
  const agents = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const { agent, dispose } = await ctx.agents.create({ sessionId: SessionId(`churn-${i}`) })
      for (const c of calls) await pass(ctx, execution(agent, c.name, delivered(c.arguments)))
      await dispose()
    }
  }
  await agents(0, 1_000)
  const before = await settle()
  await agents(1_000, 1_000 + CHURN_AGENTS)
  const growth = (await settle()) - before
  await ctx.fiber.dispose()
  return growth
}

function format(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`
  return `${ns.toFixed(0)} ns`
}

/** A difference of two medians: below zero it is noise, and says so rather than a cost of 0. */
function delta(ns: number): string {
  return ns > 0 ? format(ns) : '< noise'
}

function ratio(a: number, b: number): string {
  return `${(a / Math.max(b, 1)).toFixed(a / Math.max(b, 1) >= 10 ? 0 : 2)}x`
}

/** A Markdown table whose columns are padded to their widest cell, the first left-aligned, the rest right-aligned. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`
  return [
    line(header),
    `| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`,
    ...rows.map(line),
  ].join('\n')
}

async function main() {
  if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc (npm run bench does)')
  console.log(`repeat-tool-reminder benchmark${QUICK ? ' (BENCH_QUICK smoke run: numbers are not meaningful)' : ''}`)
  console.log(
    `node ${process.version}, ${ROUNDS} interleaved rounds, medians of one tools/post-execute pass per call\n`,
  )
  const mounted = await Promise.all(SUBJECTS.map(mount))
  const rows = []
  for (const workload of workloads().filter((w) => ONLY === undefined || w.label.includes(ONLY)))
    rows.push(await timeWorkload(mounted, workload))
  for (const m of mounted) await m.ctx.fiber.dispose()

  console.log('What a guard costs per call, over no guard at all:')
  console.log("  floor: the pass with no listener; stock, this: each guard's cost over the floor;")
  console.log('  faster: stock over this; stringify: a bare JSON.stringify of the same arguments;')
  console.log("  this/str: this guard's cost over that stringify (below 1, cheaper than serializing once).\n")
  console.log(
    table(
      ['workload', 'floor', 'stock', 'this', 'faster', 'stringify', 'this/str'],
      rows.map((r) => [
        r.workload,
        format(r.floor),
        delta(r.stock),
        delta(r.ours),
        r.ours > 0 ? ratio(r.stock, r.ours) : '–',
        format(r.stringify),
        r.ours > 0 ? `${(r.ours / r.stringify).toFixed(3)}x` : '–',
      ]),
    ),
  )

  console.log('\nWhat listening and the opt-ins cost, over no guard:')
  console.log('  listener: a listener that only calls next(), what cordis charges any listener;')
  console.log("  this over it: the guard's own work on top of that; cycles+RA: with cycles and resultAware;")
  console.log('  blockAt: with a blockAt no run reaches, tools/pre-execute included;')
  console.log('  +words: cycles+RA with rereads, sameFailure and maskNoise too; over it: what those three add;')
  console.log("  README: the README's config (rereads, reruns, waits, quickPolls, rejectedCalls among its opt-ins).\n")
  console.log(
    table(
      ['workload', 'listener', 'this over it', 'cycles+RA', 'blockAt', '+words', 'over it', 'README'],
      rows.map((r) => [
        r.workload,
        delta(r.passThrough),
        delta(r.ours - r.passThrough),
        delta(r.optIn),
        delta(r.blockAt),
        delta(r.otherWords),
        delta(r.otherWords - r.optIn),
        delta(r.readme),
      ]),
    ),
  )

  console.log('\nOpt-ins that compare more than the arguments as written, over no guard;')
  console.log('  stringify: a bare JSON.stringify of the value compared.\n')
  console.log(table(['workload', 'this', 'stringify', 'this/str'], await optIns()))
  await parsing()
  if (ONLY !== undefined) return

  console.log(`\nHeap retained after ${CHURN_AGENTS.toLocaleString('en')} agents made 3 calls each and were disposed`)
  console.log("  (after 1,000 warm-up agents, forced GC); growth below zero or below the floor's is noise:\n")
  const growth = []
  for (const subject of SUBJECTS.filter((s) => s.plugin !== PassThrough && s.config === undefined))
    growth.push([subject.label, await churn(subject)] as const)
  const floor = growth[0]![1]
  const mb = (bytes: number) => (bytes > 0 ? `${(bytes / 1e6).toFixed(2)} MB` : '< noise')
  console.log(
    table(
      ['subject', 'retained', 'over no guard'],
      growth.map(([label, bytes]) => [label, mb(bytes), label === 'no guard' ? '' : mb(bytes - floor)]),
    ),
  )
}

/**
 * What judging `bash` commands costs with `rereads`: the peak resident memory of a process that
 * judges 1,000 commands (bench/parsing.ts) with the rule on and off, and the time to read one
 * hostile 16 kB command, each one no call before it wrote.
 */
async function parsing(): Promise<void> {
  const peak = (mode: string) =>
    Number(execFileSync(process.execPath, [join(import.meta.dirname, 'parsing.ts'), mode], { encoding: 'utf8' }))
  const [none, parse, readme] = [peak('none'), peak('parse'), peak('readme')]
  console.log('\nPeak RSS of a process judging 1,000 bash calls (one in ten a hostile 16 kB command):\n')
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
  console.log(
    table(
      ['rereads', 'peak RSS', 'over off'],
      [
        ['off', mb(none), ''],
        ['on', mb(parse), mb(parse - none)],
        ["the README's config", mb(readme), mb(readme - none)],
      ],
    ),
  )
  const hostile: [string, (i: number) => string][] = [
    ['16 kB of one word', (i) => `grep -n "${'x'.repeat(16_300)}" f${i}`],
    ['8,000 empty quotes', (i) => `grep ${'""'.repeat(8_000)} f${i}`],
    ['16,380 parentheses', (i) => `${')'.repeat(16_380)}${i}`],
    ['2,000 nested substitutions', (i) => `${'cat $('.repeat(2_000)}f${')'.repeat(2_000)} ${i}`],
    ['2,700 pipes', (i) => `cat f${' | cat'.repeat(2_700)} ${i}`],
  ]
  const rows = hostile.map(([label, make]) => {
    const commands = Array.from({ length: QUICK ? 5 : 200 }, (_, i) => make(i))
    const times = commands.map((command) => {
      const start = performance.now()
      shellCommand(command)
      return (performance.now() - start) * 1e3
    })
    return [label, `${Math.max(...times).toFixed(0)} µs`, `${median(times).toFixed(0)} µs`]
  })
  console.log('\nReading one hostile bash command, each one no call before it wrote:\n')
  console.log(table(['command', 'slowest', 'median'], rows))
  await waiting()
  rereadAfterWriters()
  readmeOnHostile()
}

/**
 * What the README's config pays, in all, for one hostile `bash` command that printed nothing: the
 * whole `observe`, every rule that reads the command asking about it (whether it reads, waits or
 * writes files), beside the defaults. Each command comes between two calls of the same silent
 * `./run.sh`, as a call between them; each sample's commands are new.
 */
function readmeOnHostile(): void {
  const commands: [string, (i: number) => string][] = [
    ['16 kB of one word after sleep, > out', (i) => `sleep 1 ${'x'.repeat(16_300)} f${i} > out`],
    ['8,000 empty quotes after timeout', (i) => `timeout ${'""'.repeat(8_000)} f${i}`],
    ['5,000 words after wait, > x', (i) => `wait ${'a '.repeat(5_000)} ${i} > x`],
    ['2,000 pipes to tee', (i) => `cat f${' | tee w'.repeat(2_000)} ${i}`],
  ]
  const silent = { isError: false, content: [{ type: 'text' as const, text: '(no output)' }] }
  const time = (config: Config, make: (i: number) => string) =>
    Array.from({ length: QUICK ? 3 : 200 }, (_, i) => {
      const guard = createGuard(config)
      const agent = {} as Agent
      const call = (command: string) => ({ agent, name: 'bash', arguments: { command } })
      guard.observe(call(`./run.sh ${i}`), silent)
      const hostile = call(make(i))
      const start = performance.now()
      guard.observe(hostile, silent)
      const took = (performance.now() - start) * 1e3
      guard.observe(call(`./run.sh ${i}`), silent)
      return took
    })
  const rows = commands.map(([label, make]) => {
    const readme = time(README_CONFIG, make)
    return [
      label,
      `${Math.max(...readme).toFixed(0)} µs`,
      `${median(readme).toFixed(0)} µs`,
      `${median(time(Config({}), make)).toFixed(0)} µs`,
    ]
  })
  console.log("\nOne hostile silent bash command, the whole observe, with the README's config and the defaults:\n")
  console.log(table(['command', 'slowest', 'median', 'defaults'], rows))
}

/**
 * What `rereads` pays at a read of about 15 kB that repeats one six calls back, five writers of
 * about 15 kB between, none writing what it reads: the whole `observe` of the second read. Paths
 * are many and short (past 64 a command, nothing is placed) or 60 deep ones (25 folders each, all
 * placed and compared). Each sample's calls name files no sample before it named.
 */
function rereadAfterWriters(): void {
  const short = (prefix: string) => Array.from({ length: 1_000 }, (_, f) => `${prefix}${f}.txt`)
  const deep = (prefix: string) =>
    Array.from({ length: 60 }, (_, f) => `${Array.from({ length: 25 }, (_, d) => `${prefix}${d}`).join('/')}/${f}`)
  const cases: [string, (prefix: string) => string[], (paths: string[]) => string][] = [
    ['1,000 short paths, sed -i', short, (paths) => `sed -i s/a/b/ ${paths.join(' ')}`],
    ['1,000 short paths, echo > each', short, (paths) => `echo x > ${paths.join(' > ')}`],
    ['60 paths of 25 folders, sed -i', deep, (paths) => `sed -i s/a/b/ ${paths.join(' ')}`],
    ['60 absolute paths of 25 folders, sed -i', (p) => deep(`/${p}`), (paths) => `sed -i s/a/b/ ${paths.join(' ')}`],
  ]
  /** The observe of the read again, the writers between or five `glob` calls (nothing to weigh). */
  const time = (paths: (prefix: string) => string[], writer: ((paths: string[]) => string) | undefined) =>
    Array.from({ length: QUICK ? 3 : 200 }, (_, i) => {
      const guard = createGuard(Config({ rereads: true }))
      const agent = {} as Agent
      const call = (command: string) => ({ agent, name: 'bash', arguments: { command } })
      const result = { isError: false, content: [{ type: 'text' as const, text: 'a:1:x' }] }
      const read = `grep -n x ${paths(`r${i}-`).join(' ')}`
      guard.observe(call(read), result)
      for (let w = 0; w < 5; w++)
        guard.observe(
          writer === undefined
            ? { agent, name: 'glob', arguments: { pattern: `w${i}-${w}` } }
            : call(writer(paths(`w${i}-${w}-`))),
          result,
        )
      const again = call(read)
      const start = performance.now()
      guard.observe(again, result)
      return (performance.now() - start) * 1e3
    })
  const rows = cases.map(([label, paths, writer]) => {
    const times = time(paths, writer)
    const alone = time(paths, undefined)
    return [
      label,
      `${Math.max(...times).toFixed(0)} µs`,
      `${median(times).toFixed(0)} µs`,
      `${median(alone).toFixed(0)} µs`,
    ]
  })
  console.log('\nA read judged a reread or not, five writers between, each command about 15 kB (rereads);')
  console.log('  no writer: the same read with five glob calls between, nothing to weigh:\n')
  console.log(table(['paths', 'slowest', 'median', 'no writer'], rows))
}

/**
 * What `waits` and `quickPolls` pay to judge a `bash` command: whether it waits, whether it writes
 * files, and, for the first, what lexing it would cost without the scan for the words that matter.
 */
async function waiting(): Promise<void> {
  const commands: [string, (i: number) => string][] = [
    ['16 kB of one word, none of the words', (i) => `grep -n "${'x'.repeat(16_300)}" f${i}`],
    ['8,000 empty quotes, none of the words', (i) => `grep ${'""'.repeat(8_000)} f${i}`],
    ['1,600 zero sleeps', (i) => `${'sleep 0; '.repeat(1_600)}: ${i}`],
    ['16 kB after a wait', (i) => `sleep 1; grep "${'x'.repeat(16_300)}" f${i} > out`],
  ]
  const time = (run: (command: string) => unknown, make: (i: number) => string) => {
    const times = Array.from({ length: QUICK ? 5 : 200 }, (_, i) => make(i)).map((command) => {
      const start = performance.now()
      run(command)
      return (performance.now() - start) * 1e3
    })
    return `${median(times).toFixed(0)} µs`
  }
  const rows = commands.map(([label, make]) => [
    label,
    time((command) => waits('bash', { command }), make),
    time((command) => writesFiles('bash', { command }), make),
    time(lex, make),
  ])
  console.log('\nJudging one bash command for waits and quickPolls (medians), each one no call before it wrote:\n')
  console.log(table(['command', 'waits', 'writes files', 'lexing it'], rows))
}

await main()
