import { existsSync, watch, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import type { Script, ScriptedCall } from '../support/model.ts'
import { scratch } from '../support/scratch.ts'
import { placed, runReplayJson, writeSessions } from '../support/sessions.ts'
import { bashSuite, mountBash, mountJobs } from './support/dsh-tools.ts'

bashSuite()

/**
 * A model that starts a background job which prints 60 kB each time it is let
 * go, then reads it `polls` times without waiting, letting it go before each
 * read and going on only once the job says it printed; then releases it.
 */
function spillingPoller(dir: string, polls: number): Script {
  const command =
    `n=1; while [ ! -e release ]; do if [ -e go-$n ]; then head -c 60000 ` +
    `/dev/zero | tr '\\0' x; echo; touch done-$n; n=$((n+1)); fi; sleep ` +
    `0.01; done; echo finished`
  return async (request, index) => {
    if (index === 0)
      return {
        calls: [
          {
            name: 'bash',
            args: {
              command: `cd '${dir}' && ${command}`,
              description: 'Build in the background',
              run_in_background: true,
            },
          },
        ],
      }
    const job = /started background job ([\w-]+)/.exec(JSON.stringify(request.messages))![1]!
    const read: ScriptedCall = { name: 'job_output', args: { job_id: job } }
    if (index <= polls) {
      // The job prints first: every read brings more than the spill policy keeps inline.
      await printed(dir, index)
      return { calls: [read] }
    }
    if (index === polls + 1) {
      writeFileSync(join(dir, 'release'), '')
      return { calls: [{ name: 'job_output', args: { job_id: job, wait: true } }] }
    }
    return { text: 'built' }
  }
}

/** Let the job print its `n`-th 60 kB, and resolve once it says it did. */
async function printed(dir: string, n: number): Promise<void> {
  const done = join(dir, `done-${n}`)
  const watcher = watch(dir)
  const seen = new Promise<void>((resolve) => watcher.on('change', () => existsSync(done) && resolve()))
  writeFileSync(join(dir, `go-${n}`), '')
  await seen
  watcher.close()
}

async function jobs(ctx: Context): Promise<void> {
  await mountBash(ctx)
  await mountJobs(ctx)
}

describe("a busy poll whose reads spill, with dsh's bash, job tools and spill policy as dsh-base composes them", () => {
  it('replays to the reminders it got live: the status line is read before the spill notice', async () => {
    const dir = await scratch('job')
    const root = await writeSessions('none', [{ id: 'poll', script: spillingPoller(dir, 7), setup: jobs }], {
      resultAware: ['job_output'],
    })
    const { report } = await runReplayJson([root, '--result-aware-tools', 'job_output'])
    const [session] = report.sessions
    expect(placed(session!.recordedReminders)).toEqual([
      { afterCall: 5, summary: 'job_output × 4 (busy poll)' },
      { afterCall: 7, summary: 'job_output × 6 (busy poll)' },
    ])
    expect(session!.configReminders).toEqual(placed(session!.recordedReminders))
  })
})
