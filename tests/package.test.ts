import { execFile, execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeSessions } from '../support/sessions.ts'
import { scratch } from '../support/scratch.ts'
import { GREP } from './support/calls.ts'
import { compose, row } from './support/profile.ts'
import { name as packageName, version } from '../package.json' with { type: 'json' }
import { DEFAULTS } from './support/defaults.ts'

const run = promisify(execFile)
const ROOT = join(import.meta.dirname, '..')

/** A folder where the packed package was installed with a plain `npm install`, as into a dsh profile. */
let profile: string
/** A folder where the packed package was installed beside the harness packages, as dsh's own install has them. */
let host: string
/** The tarball `npm pack` wrote from a clean tree. */
let tarball: string
/** Where the package was packed and installed; removed after the suite. */
let dir: string

/** The harness packages a host loads the plugin beside, at the versions this package is tested with. */
const HARNESS = [
  'cordis',
  'cordis-plugin-loader',
  'cordis-plugin-include',
  'dsh-session',
  'dsh-llm',
  'dsh-tools',
  'dsh-system-prompt',
  'dsh-agent',
  'dsh-agent-loop',
]

/**
 * Copy the files git tracks or would track (no build, no coverage, no node_modules) to `tree`, as a
 * fresh clone has them, with the dev tools linked in.
 */
async function cleanTree(tree: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT })
  for (const file of stdout.split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f)))) {
    await mkdir(dirname(join(tree, file)), { recursive: true })
    await copyFile(join(ROOT, file), join(tree, file))
  }
  // What `npm ci` installs; nothing of this package is built in it.
  await symlink(join(ROOT, 'node_modules'), join(tree, 'node_modules'))
}

/**
 * An empty npm project at `folder` with `specs` installed into it, offline when the cache has them,
 * as `npm ci` left it.
 */
async function install(folder: string, specs: string[]): Promise<void> {
  await mkdir(folder)
  await writeFile(join(folder, 'package.json'), '{ "name": "profile", "private": true }\n')
  await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', ...specs], {
    cwd: folder,
  })
}

describe('the published package', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rtr-pack-'))
    // The build that `npm start` runs first writes nothing to stdout, so `npm start -s -- --json` is JSON lines alone.
    expect((await run('npm', ['run', '-s', 'build'], { cwd: ROOT })).stdout).toBe('')
    // The README's step 1 on a tree where nothing was built: `npm pack` builds first (prepack).
    const tree = join(dir, 'clone')
    await cleanTree(tree)
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: tree })
    const [{ filename }] = JSON.parse(stdout) as [{ filename: string }]
    tarball = join(dir, filename)
    profile = join(dir, 'profile')
    await install(profile, [tarball])
    host = join(dir, 'host')
    const { devDependencies } = await import('../package.json', { with: { type: 'json' } }).then((m) => m.default)
    await install(host, [
      tarball,
      ...HARNESS.map(
        (pkg) => `@deepseek-ai/${pkg}@${devDependencies[`@deepseek-ai/${pkg}` as keyof typeof devDependencies]}`,
      ),
    ])
  }, 180_000)

  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('the demo on the built package prints JSON lines and nothing else', async () => {
    const { stdout } = await run(process.execPath, [join(ROOT, 'demo', 'main.ts'), '--json'], { cwd: ROOT })
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string })
    expect(lines.map((line) => line.type)).toEqual([
      'prompt',
      ...Array(3).fill(['call', 'result']).flat(),
      'reminder',
      'call',
      'result',
      'call',
      'result',
      'reminder',
      'call',
      'result',
      'answer',
      'summary',
    ])
    expect(lines.at(-1)).toEqual({ type: 'summary', calls: 6, longestRun: 5, reminders: [3, 5] })
  })

  it('the packed files: the built entry points, the bin, the docs and the READMEs, nothing else', async () => {
    const packed = (
      await readdir(join(profile, 'node_modules', '@deepseek-ai', 'dsh-repeat-tool-reminder'), { recursive: true })
    )
      .filter((path) => path.includes('.'))
      .sort()
    expect(packed.filter((path) => !path.startsWith('lib'))).toEqual([
      'README.md',
      'README.zh.md',
      'bin/repeat-tool-reminder.js',
      'docs/behaviour.md',
      'docs/behaviour.zh.md',
      'docs/development.md',
      'docs/development.zh.md',
      'docs/opt-ins.md',
      'docs/opt-ins.zh.md',
      'docs/performance.md',
      'docs/performance.zh.md',
      'docs/replay.md',
      'docs/replay.zh.md',
      'package.json',
    ])
    expect(packed.filter((path) => path.startsWith('lib')).filter((path) => !path.endsWith('.d.ts'))).toEqual([
      'lib/index.js',
      'lib/index.js.map',
      'lib/invariant.js',
      'lib/invariant.js.map',
      'lib/replay/cli.js',
      'lib/replay/cli.js.map',
    ])
  })

  it('a plain npm install brings no second copy of the harness: no peer is installed', async () => {
    expect((await readdir(join(profile, 'node_modules', '@deepseek-ai'))).sort()).toEqual([
      'cosmokit',
      'dsh-repeat-tool-reminder',
      'schemastery',
    ])
  })

  it('the installed replay command runs without the harness beside it', async () => {
    const root = await writeSessions('zstd', [{ id: 'loopy', script: [GREP, GREP, GREP].map((c) => ({ calls: [c] })) }])
    const { stdout } = await run(process.execPath, [
      join(profile, 'node_modules', '.bin', 'repeat-tool-reminder'),
      'replay',
      root,
      '--json',
    ])
    const report = JSON.parse(stdout) as {
      sessions: { runs: { tool: string; length: number }[] }[]
      total: { recordedReminders: number }
    }
    expect(report.sessions.map((s) => s.runs)).toEqual([[expect.objectContaining({ tool: 'grep', length: 3 })]])
    expect(report.total.recordedReminders).toBe(1)
  })

  it(
    'npm pack on a clean tree packs a fresh build: the tarball is named ' +
      'as both READMEs say and holds the entry points',
    async () => {
      for (const readme of ['README.md', 'README.zh.md']) {
        const named = /npm ci && npm pack +# .*?(deepseek-ai-dsh-repeat-tool-reminder-[\d.]+\.tgz)/.exec(
          await readFile(join(ROOT, readme), 'utf8'),
        )![1]
        expect(named).toBe(`deepseek-ai-dsh-repeat-tool-reminder-${version}.tgz`)
        expect(tarball).toBe(join(dir, named!))
      }
      expect(
        existsSync(join(profile, 'node_modules', '@deepseek-ai', 'dsh-repeat-tool-reminder', 'lib', 'index.js')),
      ).toBe(true)
    },
  )

  it(
    'installed beside the harness, the row dsh-base composes loads the ' + 'packed plugin, which logs its startup line',
    async () => {
      const base = row(await compose('[]'), 'repeat-tool-reminder')
      expect(base.name).toBe(packageName)
      const rows = [
        ...['dsh-session', 'dsh-llm', 'dsh-tools', 'dsh-system-prompt', 'dsh-agent'].map((pkg) => ({
          id: pkg,
          name: `@deepseek-ai/${pkg}`,
        })),
        { id: 'loop', name: '@deepseek-ai/dsh-agent-loop', config: { agents: [] } },
        base,
      ]
      // JSON is YAML: the rows as written, loaded by the cordis loader installed in the host, which
      // resolves every name from there.
      await writeFile(join(host, 'cordis.yml'), JSON.stringify(rows))
      await writeFile(join(host, 'load.mjs'), LOAD)
      const { stdout } = await run(process.execPath, ['load.mjs'], { cwd: host })
      expect(stdout).toBe(`info ${packageName} ${version} active: ${JSON.stringify(DEFAULTS)}\n`)
    },
  )

  it('npx -p <tarball> runs the replay command, as the README gives it', async () => {
    const root = await writeSessions('none', [{ id: 'loopy', script: [GREP, GREP, GREP].map((c) => ({ calls: [c] })) }])
    const { stdout } = await run(
      'npx',
      ['--yes', '--prefer-offline', '-p', tarball, 'repeat-tool-reminder', 'replay', root, '--json'],
      { cwd: dir },
    )
    const report = JSON.parse(stdout) as { sessions: { runs: { tool: string; length: number }[] }[] }
    expect(report.sessions.map((s) => s.runs)).toEqual([[expect.objectContaining({ tool: 'grep', length: 3 })]])
  })

  it.each([
    ['replay --json', () => [join(ROOT, 'bin', 'repeat-tool-reminder.js'), 'replay', sessions, '--json']],
    ['replay --all', () => [join(ROOT, 'bin', 'repeat-tool-reminder.js'), 'replay', sessions, '--all']],
    ['the demo', () => [join(ROOT, 'demo', 'main.ts')]],
  ])('%s into a pipe its reader already closed (| head -1) ends quietly with exit 0', async (_, args) => {
    sessions = await writeSessions('none', [{ id: 'loopy', script: [GREP, GREP, GREP].map((c) => ({ calls: [c] })) }])
    expect(await closedPipe(args())).toEqual({ code: 0, stderr: '' })
  })

  it('run from a clone that was never built, the command says to build it first and exits 1', async () => {
    const clone = await scratch('unbuilt')
    await mkdir(join(clone, 'bin'))
    await copyFile(join(ROOT, 'bin', 'repeat-tool-reminder.js'), join(clone, 'bin', 'repeat-tool-reminder.js'))
    await writeFile(join(clone, 'package.json'), '{ "type": "module" }')
    const result = await run(process.execPath, [
      join(clone, 'bin', 'repeat-tool-reminder.js'),
      'replay',
      '--help',
    ]).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    )
    expect(result).toMatchObject({
      code: 1,
      stderr: 'repeat-tool-reminder: the package is not built (no lib/): run npm run build first\n',
    })
  })

  // The machines this runs on have Node 20 as the system node; the npm scripts run on Node 24.
  it.runIf(SYSTEM_NODE !== undefined && !supported(SYSTEM_NODE))(
    "on a Node the package's engines exclude, the command says which Node it needs and exits 1",
    async () => {
      const bin = join(profile, 'node_modules', '.bin', 'repeat-tool-reminder')
      const result = await run('/usr/bin/node', [bin, 'replay', '--help']).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      )
      expect(result).toMatchObject({
        code: 1,
        stderr: `repeat-tool-reminder: needs Node ^22.19 or >= 24 (this is ${SYSTEM_NODE})\n`,
      })
    },
  )
})

/** The system's Node version (`v20.20.2`), when there is one beside the Node the npm scripts run on. */
const SYSTEM_NODE = existsSync('/usr/bin/node')
  ? execFileSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }).trim()
  : undefined

/** Whether a Node version is one the package's engines (`^22.19.0 || >=24.0.0`) take. */
function supported(version: string): boolean {
  const [major, minor] = /^v(\d+)\.(\d+)/.exec(version)!.slice(1).map(Number) as [number, number]
  return (major === 22 && minor >= 19) || major >= 24
}

/** A session root for the closed-pipe tests. */
let sessions: string

/**
 * Run node with `args`, its stdout a pipe whose reading end is closed before it writes; resolve to
 * its exit code and stderr.
 */
function closedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout.destroy()
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((done) => child.on('close', (code) => done({ code, stderr })))
}

/**
 * Mount `cordis.yml` through the cordis loader and include plugins installed beside it, print what
 * the plugin logs, and stop.
 */
const LOAD = `import { Context } from '@deepseek-ai/cordis'
import Loader from '@deepseek-ai/cordis-plugin-loader'
import { pathToFileURL } from 'node:url'
const root = new Context()
root.logger.exporter({
  export: (m) => { if (m.name === 'repeat-tool-reminder') console.log(\`\${m.type} \${m.args.join(' ')}\`) },
})
await root.plugin(Loader, {})
await root.loader.create({
  name: '@deepseek-ai/cordis-plugin-include',
  config: { path: pathToFileURL('cordis.yml').href },
})
await root.loader.await()
await root.fiber.dispose()
`
