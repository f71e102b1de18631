import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeSessions } from '../support/sessions.ts'
import type { ScriptedCall } from '../support/model.ts'
import { GREP } from './support/calls.ts'

const run = promisify(execFile)
const ROOT = join(import.meta.dirname, '..')

/** A folder where the packed package was installed with a plain `npm install`, as into a dsh profile. */
let profile: string
/** Where the package was packed and installed; removed after the suite. */
let dir: string

describe('the published package', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rtr-pack-'))
    // The build that `npm start` runs first writes nothing to stdout, so `npm start -s -- --json` is JSON lines alone.
    expect((await run('npm', ['run', '-s', 'build'], { cwd: ROOT })).stdout).toBe('')
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT })
    const [{ filename }] = JSON.parse(stdout) as [{ filename: string }]
    profile = join(dir, 'profile')
    await run('mkdir', [profile])
    await writeFile(join(profile, 'package.json'), '{ "name": "profile", "private": true }\n')
    await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', join(dir, filename)], { cwd: profile })
  }, 180_000)

  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('the demo on the built package prints JSON lines and nothing else', async () => {
    const { stdout } = await run(process.execPath, [join(ROOT, 'demo', 'main.ts'), '--json'], { cwd: ROOT })
    const lines = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string })
    expect(lines.map((line) => line.type)).toEqual(['prompt', ...Array(3).fill(['call', 'result']).flat(), 'reminder', 'call', 'result', 'call', 'result', 'reminder', 'call', 'result', 'answer', 'summary'])
    expect(lines.at(-1)).toEqual({ type: 'summary', calls: 6, longestRun: 5, reminders: [3, 5] })
  })

  it('the packed files: the built entry points, the bin, the docs and the READMEs, nothing else', async () => {
    const packed = (await readdir(join(profile, 'node_modules', '@deepseek-ai', 'dsh-repeat-tool-reminder'), { recursive: true }))
      .filter((path) => path.includes('.')).sort()
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
    expect(packed.filter((path) => path.startsWith('lib')).filter((path) => !path.endsWith('.d.ts'))).toEqual(['lib/index.js', 'lib/index.js.map', 'lib/invariant.js', 'lib/invariant.js.map', 'lib/replay/cli.js', 'lib/replay/cli.js.map'])
  })

  it('a plain npm install brings no second copy of the harness: no peer is installed', async () => {
    expect((await readdir(join(profile, 'node_modules', '@deepseek-ai'))).sort()).toEqual(['cosmokit', 'dsh-repeat-tool-reminder', 'schemastery'])
  })

  it('the installed replay command runs without the harness beside it', async () => {
    const root = await writeSessions('zstd', [{ id: 'loopy', script: [GREP, GREP, GREP].map((c) => ({ calls: [c] })) }])
    const { stdout } = await run(process.execPath, [join(profile, 'node_modules', '.bin', 'repeat-tool-reminder'), 'replay', root, '--json'])
    const report = JSON.parse(stdout) as { sessions: { runs: { tool: string, length: number }[] }[], total: { recordedReminders: number } }
    expect(report.sessions.map((s) => s.runs)).toEqual([[expect.objectContaining({ tool: 'grep', length: 3 })]])
    expect(report.total.recordedReminders).toBe(1)
  })

  // The machines this runs on have Node 20 as the system node; the npm scripts run on Node 24.
  it.runIf(existsSync('/usr/bin/node'))('on a Node older than 22.19 the command says which Node it needs and exits 1', async () => {
    const { stdout: version } = await run('/usr/bin/node', ['--version'])
    const older = /^v(\d+)\.(\d+)/.exec(version)!.slice(1).map(Number)
    const bin = join(profile, 'node_modules', '.bin', 'repeat-tool-reminder')
    const result = await run('/usr/bin/node', [bin, 'replay', '--help']).then(() => ({ code: 0, stderr: '' }), (error: { code: number, stderr: string }) => error)
    if (older[0]! < 22 || (older[0] === 22 && older[1]! < 19)) {
      expect(result).toMatchObject({ code: 1, stderr: `repeat-tool-reminder: needs Node >= 22.19 (this is ${version.trim()})\n` })
    } else {
      expect(result.code).toBe(0)
    }
  })
})
