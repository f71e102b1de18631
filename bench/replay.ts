/**
 * `npm run bench:replay`: replay at scale. Records N sessions through the real
 * agent loop with the harness's JSONL writer (loops, cycles, progress, large
 * results), copies them into 16 project folders for 16·N sessions, and replays
 * N and 16·N in fresh processes, printing time and peak RSS for both and their
 * ratios. Time should grow with the size of the logs and peak memory should not
 * grow at all. Then one very large session (BENCH_LARGE_CALLS tool calls, an
 * uncompressed log), whose peak memory is set against its size: one session is
 * held whole while it is replayed. It asserts nothing: `BENCH_QUICK=1` is a smoke run.
 */
import { execFile } from 'node:child_process'
import { cp, mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Context } from '@deepseek-ai/cordis'
import { defineContentToolFixture } from '@deepseek-ai/dsh-tools'
import type { ScriptedCall, ScriptedTurn } from '../support/model.ts'
import { writeSessions } from '../support/sessions.ts'

const QUICK = process.env.BENCH_QUICK === '1'
const N = QUICK ? 10 : Number(process.env.BENCH_SESSIONS ?? 250)
const COPIES = 16
const ROUNDS = QUICK ? 1 : 3
const LARGE = QUICK ? 200 : Number(process.env.BENCH_LARGE_CALLS ?? 20_000)

const call = (name: string, args: unknown): ScriptedCall => ({ name, args })

/** One session's script: a search loop, a read loop over a large file, an A-B cycle, and calls that make progress. */
function script(i: number): ScriptedTurn[] {
  const calls = [
    ...Array.from({ length: 6 }, () => call('grep', { pattern: `retry${i % 7}`, path: 'src' })),
    ...Array.from({ length: 4 }, () => call('cat', { path: `src/big-${i % 5}.ts` })),
    ...Array.from({ length: 8 }, (_, k) =>
      call(k % 2 === 0 ? 'grep' : 'read_file', k % 2 === 0 ? { pattern: 'x' } : { path: 'a.ts' }),
    ),
    ...Array.from({ length: 10 }, (_, k) =>
      call('todo_write', {
        todos: Array.from({ length: k + 1 }, (_, t) => ({ id: t, text: `step ${t}`, done: t < k })),
      }),
    ),
  ]
  return calls.map((c) => ({ calls: [c] }))
}

/** `cat`: a tool whose every result is a 20 kB file, as real reads are. */
function setup(ctx: Context): void {
  ctx.tools.register(
    defineContentToolFixture({
      name: 'cat',
      description: 'Print a file.',
      parameters: { path: { type: 'string', required: true } },
      async execute(args) {
        return [
          { type: 'text', text: `// ${args.path}\n${'export const line = "a line of source code";\n'.repeat(480)}` },
        ]
      },
    }),
  )
}

async function size(dir: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size
  }
  return total
}

async function replayRun(root: string, flags: string[] = []): Promise<{ ms: number; maxRSS: number }> {
  const start = performance.now()
  const child = [join(import.meta.dirname, 'replay-child.ts'), root, ...flags]
  const { stderr } = await promisify(execFile)(process.execPath, child, { maxBuffer: 1 << 20 })
  const ms = performance.now() - start
  const { status, maxRSS } = JSON.parse(stderr) as { status: number; maxRSS: number }
  if (status !== 0) throw new Error(`replay of ${root} exited ${status}`)
  return { ms, maxRSS }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[sorted.length >> 1]!
}

async function main() {
  console.log(
    `repeat-tool-reminder replay benchmark${QUICK ? ' (BENCH_QUICK smoke run: numbers are not meaningful)' : ''}`,
  )
  console.log(`node ${process.version}; each figure the median of ${ROUNDS} runs in a fresh process\n`)
  // BENCH_SESSIONS=0 measures only the one large session.
  if (N > 0) await atScale()
  await oneLargeSession()
  await hostileRereads()
}

/**
 * A `bash` command of about 15 kB: a read naming 1,500 files, or a writer editing 1,100 others with
 * `sed -i` (its `k`th), none of them a file the read names.
 */
const hostile = (k?: number) =>
  k === undefined
    ? `grep -n x ${Array.from({ length: 1_500 }, (_, f) => `r${f}.txt`).join(' ')}`
    : `sed -i s/a/b/ ${Array.from({ length: 1_100 }, (_, f) => `w${k}-${f}.txt`).join(' ')}`

/**
 * 120 calls: a 16 kB read, five 16 kB writers, the read again, and so on, each read a reread of the one
 * six calls back whose question every writer between is weighed against. Replayed plain, with
 * `--rereads` and with `--suggest` (which tries rereads too), each in a fresh process.
 */
async function hostileRereads() {
  const calls = Array.from({ length: 120 }, (_, i) =>
    call('bash', { command: i % 6 === 0 ? hostile() : hostile(i), description: 'x' }),
  )
  const bash = (ctx: Context) => {
    ctx.tools.register(
      defineContentToolFixture({
        name: 'bash',
        description: 'Run a command.',
        parameters: { command: { type: 'string', required: true } },
        async execute() {
          return [{ type: 'text', text: '(no output)' }]
        },
      }),
    )
  }
  const root = await writeSessions('none', [{ id: 'hostile', script: calls.map((c) => ({ calls: [c] })), setup: bash }])
  const rows = []
  for (const flags of [[], ['--rereads'], ['--suggest']]) {
    const runs = []
    for (let r = 0; r < ROUNDS; r++) runs.push((await replayRun(root, flags)).ms)
    rows.push([flags.join(' ') || 'plain', median(runs)] as const)
  }
  const plain = rows[0]![1]
  console.log('\none session of 120 calls, a 15 kB read after every five 15 kB writers:\n')
  console.log('| replay | time | over plain |')
  console.log('| --- | ---: | ---: |')
  for (const [label, ms] of rows) {
    const over = label === 'plain' ? '' : `${((ms - plain) / 1000).toFixed(2)} s`
    console.log(`| ${label} | ${(ms / 1000).toFixed(2)} s | ${over} |`)
  }
  await rm(root, { recursive: true, force: true })
}

/** N sessions and 16·N, each replayed in a fresh process. */
async function atScale() {
  const recorded = await writeSessions(
    'zstd',
    Array.from({ length: N }, (_, i) => ({ id: `session-${i}`, script: script(i), setup })),
  )
  const one = await mkdtemp(join(tmpdir(), 'rtr-bench-1-'))
  const many = await mkdtemp(join(tmpdir(), 'rtr-bench-16-'))
  await cp(join(recorded, '_no-cwd'), join(one, 'project-0'), { recursive: true })
  for (let k = 0; k < COPIES; k++) await cp(join(recorded, '_no-cwd'), join(many, `project-${k}`), { recursive: true })
  const rows = []
  for (const [sessions, root] of [
    [N, one],
    [N * COPIES, many],
  ] as const) {
    const runs = []
    for (let r = 0; r < ROUNDS; r++) runs.push(await replayRun(root))
    rows.push({
      sessions,
      bytes: await size(root),
      ms: median(runs.map((x) => x.ms)),
      rss: median(runs.map((x) => x.maxRSS)),
    })
  }
  console.log('| sessions | logs on disk (zstd) | time | time per MB of logs | peak RSS |')
  console.log('| ---: | ---: | ---: | ---: | ---: |')
  for (const r of rows) {
    console.log(
      `| ${r.sessions.toLocaleString('en')} | ${(r.bytes / 1e6).toFixed(1)} ` +
        `MB | ${(r.ms / 1000).toFixed(2)} s | ${(r.ms / (r.bytes / 1e6)).toFixed(0)} ` +
        `ms | ${(r.rss / 1e6).toFixed(0)} MB |`,
    )
  }
  const [small, large] = rows as [(typeof rows)[0], (typeof rows)[0]]
  console.log(
    `\n${COPIES}x the sessions: ${(large.ms / small.ms).toFixed(1)}x ` +
      `the time, ${(large.rss / small.rss).toFixed(2)}x the peak RSS`,
  )
  for (const dir of [recorded, one, many]) await rm(dir, { recursive: true, force: true })
}

/**
 * One session of {@link LARGE} calls: its peak RSS over a replay of an empty folder's worth,
 * against the log's size.
 */
async function oneLargeSession() {
  // A search loop, a read repeated, and progress calls, over and over, 100 calls a model response:
  // a response a call would make recording quadratic in the session's length (each request carries the history).
  const calls = Array.from({ length: LARGE }, (_, i) =>
    i % 10 < 5
      ? call('grep', { pattern: `retry${(i / 10) | 0}` })
      : i % 10 < 8
        ? call('cat', { path: 'src/big-0.ts' })
        : call('todo_write', { todos: [{ id: i, text: `step ${i}` }] }),
  )
  const script = Array.from({ length: Math.ceil(LARGE / 100) }, (_, k) => ({
    calls: calls.slice(100 * k, 100 * k + 100),
  }))
  const root = await writeSessions('none', [{ id: 'large', script, setup }])
  const floor = await writeSessions('none', [{ id: 'small', script: [{ calls: [call('grep', { pattern: 'x' })] }] }])
  const bytes = await size(root)
  const { ms, maxRSS: peak } = await replayRun(root)
  const base = (await replayRun(floor)).maxRSS
  console.log(
    `\none session of ${LARGE.toLocaleString('en')} tool calls, ${(bytes / 1e6).toFixed(0)} ` +
      `MB of log (uncompressed): ${(ms / 1000).toFixed(1)} s, peak RSS ` +
      `${(peak / 1e6).toFixed(0)} MB`,
  )
  console.log(
    `  over a one-call session's ${(base / 1e6).toFixed(0)} MB: ${((peak - base) / 1e6).toFixed(0)} ` +
      `MB, ${((peak - base) / bytes).toFixed(2)}x the log's size`,
  )
  for (const dir of [root, floor]) await rm(dir, { recursive: true, force: true })
}

await main()
