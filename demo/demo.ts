/**
 * The `npm start` demo: a real harness agent loop, loaded from a `cordis.yml`
 * through the cordis loader, with two real file tools on a scratch folder and
 * a scripted model that keeps repeating a search that finds nothing until the
 * guard's detailed reminder reaches it. It prints the transcript.
 */
import { constants } from 'node:fs'
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import Loader from '@deepseek-ai/cordis-plugin-loader'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { createUserMessage, type GenerateOptions } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { Config } from '../src/config.ts'
import { configFromFlags, configOptions, flagsHelp, helpRows } from '../src/flags.ts'
import { Problem } from '../src/problem.ts'
import { wrap } from '../src/wrap.ts'
import { commandLine, configured } from '../src/replay/command-line.ts'
import { printable } from '../src/replay/text.ts'
import { ScriptedModel, type ScriptedTurn } from '../support/model.ts'

/** The plugin modules the demo mounts: the built package, or the sources under test. */
export interface Plugins {
  reminder: object
  invariant: object
}

/** Where the demo writes: one line at a time, and whether colour is wanted. */
export interface Output {
  out(line: string): void
  err(line: string): void
  color: boolean
}

/** One line of the transcript, as printed with `--json`. */
export type Entry =
  | { type: 'prompt'; text: string }
  | { type: 'call'; call: number; name: string; arguments: string }
  | { type: 'result'; call: number; isError: boolean; text: string }
  | { type: 'reminder'; afterCall: number; summary: string; text: string }
  | { type: 'answer'; text: string }
  | { type: 'summary'; calls: number; longestRun: number; reminders: number[] }

const QUESTION = 'How many times does the HTTP client retry a failed request?'
const SEARCH = { pattern: 'retryLimit', path: 'src' }
const USAGE = `Usage: npm start -- [options]

Watch repeat-tool-reminder break a loop inside a real dsh agent.

Options:
${flagsHelp(32)}
${helpRows(
  [
    ['--repeats N', 'Most identical searches the stuck model makes. Default 12.'],
    ['--sessions DIR', "Also write the session's log there, as dsh does, to try replay on."],
    ['--json', 'Print the transcript as JSON lines and nothing else.'],
    ['--help', 'Show this help.'],
  ],
  32,
)}`

/** Run the demo with command-line `argv`; resolves to the process exit status. */
export async function main(argv: string[], output: Output, plugins: Plugins): Promise<number> {
  let options: Options
  try {
    options = parseOptions(argv)
  } catch (error) {
    // What the user typed, escaped: a command line can carry control and bidirectional characters too.
    const problem = Problem.of(error)
    output.err(printable(problem.message))
    return problem.status
  }
  if (options.help) {
    output.out(USAGE)
    return 0
  }
  // A folder the demo cannot write to (another user's, say) is said in one line, not as the backend's stack.
  const unwritable = options.sessions === undefined ? undefined : await cannotWrite(options.sessions)
  if (unwritable !== undefined) {
    output.err(`${DEMO}: --sessions: cannot write the session's log under ${printable(unwritable)}`)
    return 1
  }
  const dir = await scratchProject()
  const root = await mountFromYaml(dir, options, plugins)
  try {
    await root.fiber.await()
    const entries = await runAgent(root.ctx, options.repeats)
    const { thresholds } = root.fiber.config as Config
    for (const line of options.json ? entries.map((e) => JSON.stringify(e)) : render(entries, thresholds, output.color))
      output.out(line)
  } catch (error) {
    // A config the plugin refuses at load, said as the demo's error.
    const problem = Problem.of(error).at(DEMO)
    output.err(printable(problem.message))
    return problem.status
  } finally {
    // Disposing the harness writes out what the session persistence still holds.
    await root.ctx.fiber.dispose()
    await rm(dir, { recursive: true, force: true })
  }
  // Where the log went, on stderr so that --json stays JSON lines alone.
  if (options.sessions !== undefined) {
    const folder = join(options.sessions, '_no-cwd', 'demo')
    const log = (await readdir(folder)).find((file) => file.startsWith('session.jsonl'))!
    output.err(`${DEMO}: wrote the session's log to ${printable(join(folder, log))}`)
  }
  return 0
}

/** What stops the demo writing its log under `root`, said with the folder; undefined when nothing does. */
async function cannotWrite(root: string): Promise<string | undefined> {
  try {
    await mkdir(root, { recursive: true })
    await access(root, constants.W_OK)
    return undefined
  } catch (error) {
    return `${root} (${(error as NodeJS.ErrnoException).code})`
  }
}

interface Options {
  config: Record<string, unknown>
  repeats: number
  /** With `--sessions`: the root the JSONL backend writes the demo's session log under. */
  sessions: string | undefined
  json: boolean
  help: boolean
}

/** How wide a reminder's lines are drawn inside the demo's box (its indent and bar take 6 more columns). */
const REMINDER_WIDTH = 94

/** What every error of the demo starts with. */
const DEMO = 'repeat-tool-reminder demo'

function parseOptions(argv: string[]): Options {
  const options = {
    ...configOptions,
    repeats: { type: 'string', default: '12' },
    sessions: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  } as const
  const { values, positionals } = commandLine(DEMO, argv, options)
  if (positionals.length > 0)
    throw new Error(`${DEMO}: takes options only (got ${JSON.stringify(positionals[0])}; --help lists the options)`)
  const repeats = Number(values.repeats)
  if (!Number.isInteger(repeats) || repeats < 1)
    throw new Error(`${DEMO}: --repeats must be a positive integer (got ${JSON.stringify(values.repeats)})`)
  return {
    config: configured(DEMO, () => configFromFlags(values)),
    repeats,
    sessions: values.sessions === undefined ? undefined : resolve(values.sessions),
    json: values.json,
    help: values.help,
  }
}

/** A small project to search: the retry setting the model looks for is not called what it guesses. */
async function scratchProject(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'repeat-tool-reminder-demo-'))
  await mkdir(join(dir, 'src'))
  await writeFile(
    join(dir, 'src', 'retry.ts'),
    'export const MAX_ATTEMPTS = 4\n\nexport function backoff(attempt: ' +
      'number): number {\n  return 100 * 2 ** attempt\n}\n',
  )
  await writeFile(
    join(dir, 'src', 'client.ts'),
    "import { MAX_ATTEMPTS, backoff } from './retry'\n\nexport async " +
      'function get(url: string) {\n  // retries failed requests with exponential ' +
      'backoff\n}\n',
  )
  await writeFile(join(dir, 'README.md'), '# http client\n')
  return dir
}

/** Write the deployment's `cordis.yml` and mount it through the loader and include plugins. */
async function mountFromYaml(
  dir: string,
  options: Options,
  plugins: Plugins,
): Promise<{ ctx: Context; fiber: { await(): Promise<unknown>; config: unknown } }> {
  const entries = [
    { id: 'invariants', name: '@deepseek-ai/dsh-invariants', config: { enabled: true } },
    { id: 'sessions', name: '@deepseek-ai/dsh-session' },
    ...(options.sessions === undefined
      ? []
      : [
          { id: 'persistence', name: '@deepseek-ai/dsh-session-persistence-jsonl', config: { root: options.sessions } },
        ]),
    { id: 'llm', name: '@deepseek-ai/dsh-llm' },
    { id: 'tools', name: '@deepseek-ai/dsh-tools' },
    { id: 'prompt', name: '@deepseek-ai/dsh-system-prompt' },
    { id: 'agents', name: '@deepseek-ai/dsh-agent' },
    { id: 'loop', name: '@deepseek-ai/dsh-agent-loop', config: { agents: [] } },
    { id: 'repeat-tool-reminder-invariant', name: 'cordis:repeat-tool-reminder-invariant' },
    { id: 'repeat-tool-reminder', name: 'cordis:repeat-tool-reminder', config: options.config },
  ]
  const yaml = entries
    .map((e) => `- id: ${e.id}\n  name: '${e.name}'${e.config ? `\n  config: ${JSON.stringify(e.config)}` : ''}`)
    .join('\n')
  await writeFile(join(dir, 'cordis.yml'), `${yaml}\n`)
  const ctx = new Context()
  ctx.baseUrl = pathToFileURL(`${dir}/`).href
  await ctx.plugin(Loader, {})
  ctx.loader.builtins['repeat-tool-reminder'] = plugins.reminder
  ctx.loader.builtins['repeat-tool-reminder-invariant'] = plugins.invariant
  const include = await ctx.loader.create({
    name: '@deepseek-ai/cordis-plugin-include',
    config: { path: './cordis.yml' },
  })
  await ctx.loader.await()
  const tree = ctx.loader.resolve(include).subtree!
  registerFileTools(ctx, dir)
  return { ctx, fiber: tree.store['repeat-tool-reminder']!.fiber! }
}

/** `search_files` and `read_file`: real tools over the scratch folder. */
function registerFileTools(ctx: Context, dir: string): void {
  ctx.tools.register(
    defineTool({
      name: 'search_files',
      description: 'Search the files under a folder for a literal pattern.',
      parameters: { pattern: { type: 'string', required: true }, path: { type: 'string' } },
      output: { schema: { type: 'string' }, render: (_args, text) => [{ type: 'text', text }] },
      async execute(args) {
        const base = join(dir, args.path ?? '.')
        const hits: string[] = []
        for (const file of await readdir(base, { recursive: true, withFileTypes: true })) {
          if (!file.isFile()) continue
          const path = join(file.parentPath, file.name)
          const lines = (await readFile(path, 'utf8')).split('\n')
          for (const [i, line] of lines.entries()) {
            if (line.includes(args.pattern)) hits.push(`${relative(dir, path)}:${i + 1}: ${line.trim()}`)
          }
        }
        return hits.length > 0 ? hits.join('\n') : `no matches for "${args.pattern}" in ${args.path ?? '.'}`
      },
    }),
  )
  ctx.tools.register(
    defineTool({
      name: 'read_file',
      description: 'Read a file of the project.',
      parameters: { path: { type: 'string', required: true } },
      output: { schema: { type: 'string' }, render: (_args, text) => [{ type: 'text', text }] },
      async execute(args) {
        return readFile(join(dir, args.path), 'utf8')
      },
    }),
  )
}

/**
 * The stuck model. It reacts only to what it is sent: while no detailed reminder
 * from repeat-tool-reminder has reached it, it repeats the same search; once one
 * has, it reads the file it should have read, then answers from its contents.
 */
function stuckModel(repeats: number) {
  return (request: GenerateOptions): ScriptedTurn => {
    const texts = request.messages.flatMap((m) =>
      m.content.flatMap((block) =>
        block.type === 'tool-result' ? block.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])) : [],
      ),
    )
    const source = texts.find((text) => text.startsWith('export const MAX_ATTEMPTS'))
    if (source !== undefined) {
      const attempts = /MAX_ATTEMPTS = (\d+)/.exec(source)?.[1]
      return { text: `It retries up to ${attempts} times: MAX_ATTEMPTS in src/retry.ts, with exponential backoff.` }
    }
    const told = request.messages.some(
      (m) =>
        m.source.kind === 'plugin' &&
        m.source.plugin === 'repeat-tool-reminder' &&
        m.content.some(
          (block) =>
            block.type === 'text' && block.text.includes('Do not call this tool with these exact arguments again'),
        ),
    )
    if (told) return { calls: [{ name: 'read_file', args: { path: 'src/retry.ts' } }] }
    const searches = request.messages.filter((m) => m.role === 'assistant').length
    if (searches < repeats) return { calls: [{ name: 'search_files', args: SEARCH }] }
    return { text: 'I could not find the retry setting.' }
  }
}

async function runAgent(ctx: Context, repeats: number): Promise<Entry[]> {
  ctx.llm.registerAdapter(['demo'], new ScriptedModel(stuckModel(repeats)))
  const { agent, dispose } = await ctx.agents.create({
    sessionId: SessionId('demo'),
    agentOptions: { provider: 'demo', model: 'stuck-1' },
  })
  const { promise: idle, resolve } = Promise.withResolvers<void>()
  ctx.on('agent/status', ({ agent: subject, status }) => subject === agent && status === 'idle' && resolve())
  agent.followup(createUserMessage({ content: [{ type: 'text', text: QUESTION }], source: { kind: 'user' } }))
  await idle
  const entries = transcript(agent)
  await dispose()
  return entries
}

/** Read the transcript back from the agent's session log. */
function transcript(agent: Agent): Entry[] {
  const entries: Entry[] = []
  const calls: string[] = []
  const text = (blocks: readonly { type: string }[]) => blocks.map((b) => ('text' in b ? b.text : '')).join('')
  for (const event of agent.session.events) {
    if (event.type === 'user/message') {
      const { source, content } = event.data
      if (source.kind === 'user') entries.push({ type: 'prompt', text: text(content) })
      if (source.kind === 'plugin' && source.plugin === 'repeat-tool-reminder' && source.form === 'notice') {
        entries.push({ type: 'reminder', afterCall: calls.length, summary: source.summary, text: text(content) })
      }
    } else if (event.type === 'assistant/message') {
      for (const block of event.data.message.content) {
        if (block.type === 'tool-call') {
          calls.push(`${block.name} ${block.arguments}`)
          entries.push({ type: 'call', call: calls.length, name: block.name, arguments: block.arguments })
        } else if (block.type === 'text') {
          entries.push({ type: 'answer', text: block.text })
        }
      }
    } else if (event.type === 'tool/result') {
      const [block] = event.data.message.content
      entries.push({ type: 'result', call: calls.length, isError: block.isError === true, text: text(block.content) })
    }
  }
  const reminders = entries.flatMap((e) => (e.type === 'reminder' ? [e.afterCall] : []))
  entries.push({ type: 'summary', calls: calls.length, longestRun: longestRun(calls), reminders })
  return entries
}

function longestRun(calls: string[]): number {
  let longest = 0
  let run = 0
  calls.forEach((call, i) => {
    run = call === calls[i - 1] ? run + 1 : 1
    longest = Math.max(longest, run)
  })
  return longest
}

/** The human-readable transcript. */
function render(entries: Entry[], thresholds: number[], color: boolean): string[] {
  const paint = (code: string) => (s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s)
  const [dim, bold, cyan, yellow, green] = ['2', '1', '36', '33', '32'].map(paint) as [
    (s: string) => string,
    (s: string) => string,
    (s: string) => string,
    (s: string) => string,
    (s: string) => string,
  ]
  const lines = [bold(`repeat-tool-reminder demo · thresholds ${thresholds.join(', ')}`), '']
  for (const e of entries) {
    if (e.type === 'prompt') lines.push(`${bold('user')}   ${e.text}`, '')
    if (e.type === 'call') lines.push(`${String(e.call).padStart(3)} ${cyan('→')} ${e.name} ${e.arguments}`)
    if (e.type === 'result')
      lines.push(
        `    ${dim(`← ${e.isError ? 'error: ' : ''}${e.text.split('\n')[0]}${e.text.includes('\n') ? ' …' : ''}`)}`,
      )
    if (e.type === 'reminder') {
      lines.push(`    ${yellow(`┏ repeat-tool-reminder · ${e.summary}`)}`)
      // The text as the model reads it, wrapped for a terminal: the box's lines stay within 100 columns.
      for (const line of e.text.split('\n'))
        for (const part of wrap(line, REMINDER_WIDTH, 0)) lines.push(`    ${yellow('┃')} ${part}`)
      lines.push(`    ${yellow('┗')}`)
    }
    if (e.type === 'answer') lines.push('', `${bold('model')}  ${green(e.text)}`)
    if (e.type === 'summary') {
      const where =
        e.reminders.length === 0 ? '' : ` (after call${e.reminders.length > 1 ? 's' : ''} ${e.reminders.join(', ')})`
      lines.push(
        '',
        dim(
          `${e.calls} tool calls · longest identical run ${e.longestRun} · ` +
            `${e.reminders.length} reminder${e.reminders.length === 1 ? '' : 's'}${where}`,
        ),
      )
    }
  }
  return lines
}
