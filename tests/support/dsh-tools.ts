/**
 * dsh's real `bash` tool in a test harness, composed as dsh-base composes it:
 * the subprocess service, the local bash executor, the managed shell
 * environment, the tool itself, and the spill store and spill policy with the
 * base composition's config. Spill files land in a scratch folder removed when
 * the test finishes; the subprocess service's stream spills, in a folder of the
 * test file's that {@link bashSuite} removes after the file.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import BashLocal from '@deepseek-ai/dsh-bash-local'
import JobsLocal from '@deepseek-ai/dsh-jobs-local'
import * as ShellEnv from '@deepseek-ai/dsh-shell-env'
import SpillLocal from '@deepseek-ai/dsh-spill-local'
import * as SpillPolicy from '@deepseek-ai/dsh-spill-policy'
import SubprocessLocal from '@deepseek-ai/dsh-subprocess-local'
import * as ToolBash from '@deepseek-ai/dsh-tool-bash'
import * as ToolJobs from '@deepseek-ai/dsh-tool-jobs'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import * as ToolFs from '@deepseek-ai/dsh-tool-fs'
import { afterAll, beforeAll, onTestFinished } from 'vitest'
import { compose, row } from './profile.ts'
import { scratch } from '../../support/scratch.ts'

/** The rows of the base composition this stack mounts, by id, with the plugin each one loads. */
const ROWS = [
  ['subprocess', SubprocessLocal],
  ['shell-env', ShellEnv],
  ['tool-bash', ToolBash],
  ['spill-local', SpillLocal],
  ['spill-policy', SpillPolicy],
] as const

/**
 * Mount dsh's bash tool and spill policy on `ctx` with the base composition's
 * rows and config; the executor is the local one (`dsh-bash-local`, the
 * sandbox's own base), since no sandbox runner is assumed here. Resolves to the
 * folder the spill store writes to. Call it inside a test: `ctx` is disposed when the test ends.
 */
export async function mountBash(ctx: Context): Promise<string> {
  // Disposed when the test ends: the local subprocess service stops its processes and takes back the
  // process exit listener each one adds, so that a file of tests leaves none behind.
  onTestFinished(() => ctx.fiber.dispose())
  const rows = await compose('[]')
  const spills = await scratch('spill')
  for (const [id, plugin] of ROWS) {
    const config = row(rows, id).config ?? {}
    await ctx.plugin(plugin as never, (id === 'spill-local' ? { ...config, root: spills } : config) as never)
    if (id === 'subprocess') await ctx.plugin(BashLocal as never, {} as never)
  }
  return spills
}

/**
 * Mount dsh's background jobs on `ctx` with the base composition's rows and
 * config: the local job registry and the job tools (`job_output`, `job_list`,
 * `job_kill`), so that bash's `run_in_background` starts a job a model can read.
 */
export async function mountJobs(ctx: Context): Promise<void> {
  const rows = await compose('[]')
  for (const [id, plugin] of [
    ['jobs', JobsLocal],
    ['tool-jobs', ToolJobs],
  ] as const) {
    await ctx.plugin(plugin as never, (row(rows, id).config ?? {}) as never)
  }
}

/**
 * Mount dsh's file tools on `ctx` (`read`, `write`, `edit`) with the base
 * composition's row for them; the file system behind them is the local one
 * (`dsh-fs-local`, the sandboxed one's own base), since no sandbox runner is
 * assumed here.
 */
export async function mountFiles(ctx: Context): Promise<void> {
  const rows = await compose('[]')
  await ctx.plugin(LocalFileSystem as never, {} as never)
  await ctx.plugin(ToolFs as never, (row(rows, 'tool-fs').config ?? {}) as never)
}

/**
 * Call once at the top of a test file that runs bash: the subprocess service
 * makes its stream-spill folder once per loaded module, under the temporary
 * folder it sees then, so the file points that at a folder of its own and
 * removes it when the file is done.
 */
export function bashSuite(): void {
  const before = process.env.TMPDIR
  let streams = ''
  beforeAll(async () => {
    streams = await mkdtemp(join(tmpdir(), `rtr-${process.pid}-streams-`))
    process.env.TMPDIR = streams
  })
  afterAll(async () => {
    if (before === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = before
    await rm(streams, { recursive: true, force: true })
  })
}
