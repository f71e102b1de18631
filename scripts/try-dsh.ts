/**
 * `npm run try:dsh`: the README's "Install it into a dsh profile", run as a new user would, on this
 * machine, in a temporary home: its `sh` blocks as written (but for `npm ci`, which the README's
 * set-up has run), the Config block and the HMR entry as the profile's patch, the `--dump-config`
 * check, then a headless session against a scripted local model that repeats one `bash` call.
 * Prints each step with its time, and the reminders the session log holds; exits 1 when a step
 * fails or no reminder was logged. Needs the npm registry, not an API key. Leaves nothing behind.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = join(import.meta.dirname, '..')
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')

/** The text of the README's section headed `heading`, up to the next `## `. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`)
  if (start === -1) throw new Error(`README.md has no section "${heading}"`)
  const end = readme.indexOf('\n## ', start + 1)
  return readme.slice(start, end === -1 ? undefined : end)
}

/** The fenced blocks of `lang` in `text`, each without its fences and indentation. */
function blocks(text: string, lang: string): string[] {
  const found = [...text.matchAll(new RegExp(`^( *)\`\`\`${lang}\\n([\\s\\S]*?)^\\1\`\`\``, 'gm'))]
  return found.map(([, indent, body]) => (body as string).replace(new RegExp(`^${indent}`, 'gm'), ''))
}

const install = section('Install it into a dsh profile')
const shell = blocks(install, 'sh')
  .join('\n')
  .replace(/^npm ci && /m, '')
const [hmr] = blocks(install, 'yaml')
const [config] = blocks(section('Config'), 'yaml')
if (shell === '' || hmr === undefined || config === undefined) throw new Error('README.md lacks a block this needs')

const home = mkdtempSync(join(tmpdir(), 'try-dsh-'))
const dshHome = join(home, '.dsh')
const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, DSH_HOME: dshHome }
const dsh = join(home, 'dsh')
const started = performance.now()
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`

/** Run `command` with `args` in `cwd`, its output shown; its stdout when `capture`. */
function run(what: string, cwd: string, command: string, args: string[], capture = false): string {
  console.log(`\n== ${what} (${elapsed()})`)
  const out = execFileSync(command, args, {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
  })
  if (capture) process.stdout.write(out)
  return out ?? ''
}

/**
 * A scripted model on the DeepSeek chat-completions API: to a request with tools it answers
 * `cat notes.txt` until three tool results are in, then "Done."; to one without (the session's
 * title), a title. One streamed chunk each.
 */
function scriptedModel(): Promise<{ url: string; close: () => void }> {
  const answer = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const request = JSON.parse(body) as { model: string; tools?: unknown[]; messages: { role: string }[] }
    const results = request.messages.filter((m) => m.role === 'tool').length
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
    const chunk = (delta: object, finish: string | null) => {
      const choices = [{ index: 0, delta, finish_reason: finish }]
      const data = { id: 'try', object: 'chat.completion.chunk', model: request.model, choices, usage }
      return `data: ${JSON.stringify(data)}\n\n`
    }
    const call = {
      index: 0,
      id: `call_${results}`,
      type: 'function',
      function: { name: 'bash', arguments: '{"command":"cat notes.txt"}' },
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    if (request.tools !== undefined && results < 3)
      res.write(chunk({ role: 'assistant', tool_calls: [call] }, 'tool_calls'))
    else res.write(chunk({ role: 'assistant', content: request.tools === undefined ? 'Try' : 'Done.' }, 'stop'))
    res.end('data: [DONE]\n\n')
    void req
  }
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (data: Buffer) => {
      body += data.toString()
    })
    req.on('end', () => answer(req, res, body))
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }),
    ),
  )
}

let failed = false
const model = await scriptedModel()
try {
  run("the README's install commands", ROOT, 'bash', ['-euo', 'pipefail', '-c', shell])
  console.log(`\n== the README's Config block and HMR entry as the profile's patch (${elapsed()})`)
  const patch = join(dshHome, 'profiles', 'headless', 'cordis.patch.yml')
  writeFileSync(patch, `${config.replace(/^#.*\n/, '')}${hmr}`)
  process.stdout.write(readFileSync(patch, 'utf8'))
  const dumped = run(
    'npx dsh --profile headless --dump-config',
    dsh,
    'npx',
    ['dsh', '--profile', 'headless', '--dump-config'],
    true,
  )
  const row =
    /id: repeat-tool-reminder\n\s+name: '@deepseek-ai\/dsh-repeat-tool-reminder'\n\s+config:\n\s+thresholds:\n\s+- 2/
  if (!row.test(dumped))
    throw new Error("the dumped config has no repeat-tool-reminder row with the README's thresholds")
  writeFileSync(join(dsh, 'notes.txt'), 'hello\n')
  env.DEEPSEEK_BASE_URL = model.url
  env.DEEPSEEK_API_KEY = 'scripted'
  const task = 'npx dsh --profile headless "read notes.txt" (a scripted model)'
  await new Promise<void>((resolve, reject) => {
    console.log(`\n== ${task} (${elapsed()})`)
    const child = spawn('npx', ['dsh', '--profile', 'headless', 'read notes.txt'], { cwd: dsh, env, stdio: 'inherit' })
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`dsh exited with ${code}`))))
  })
  const sessions = join(dshHome, 'sessions')
  const replay = ['bin/repeat-tool-reminder.js', 'replay', sessions, '--all', '--config', patch]
  const report = run("replay of the session log, with the profile's patch", ROOT, process.execPath, replay, true)
  // The reminder the model read, and the same one replay finds with the patch's config: the config that ran.
  failed =
    !/reminders in the log: after call 2 \(bash × 2.*\n\s+reminders with this config: after call 2 \(bash × 2\)/.test(
      report,
    )
  if (failed) console.error('try:dsh: the session log holds no reminder at call 2, or not the one the config gives')
  console.log(`\n== done in ${elapsed()}; sessions: ${readdirSync(sessions).length}`)
} catch (error) {
  failed = true
  console.error(`try:dsh: ${(error as Error).message}`)
} finally {
  model.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(join(ROOT, `deepseek-ai-dsh-repeat-tool-reminder-${pkg.version}.tgz`), { force: true })
}
process.exitCode = failed ? 1 : 0
