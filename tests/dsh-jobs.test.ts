import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import { defineContentToolFixture } from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { Config } from '../src/config.ts'
import { createGuard, type Observation } from '../src/guard.ts'
import { detailedPollReminder, shortPollReminder, withheldPollFeedback } from '../src/rules/poll.ts'
import { detailedReminder, shortReminder } from '../src/rules/run.ts'
import { harness, reminders, toolResults } from '../support/harness.ts'
import type { Script, ScriptedCall } from '../support/model.ts'
import { scratch } from '../support/scratch.ts'
import { placed, runReplayJson, writeSessions } from '../support/sessions.ts'
import { bashSuite, mountBash, mountJobs } from './support/dsh-tools.ts'
import { source, turns } from './support/calls.ts'

bashSuite()

/**
 * A model that starts a background job printing progress until `release`
 * exists, reads it `polls` times without waiting, then creates `release` and
 * reads it with `wait: true`, then reads it once more without waiting.
 */
function poller(release: string, polls: number): Script {
  const command = `i=0; while [ ! -e '${release}' ]; do i=$((i+1)); echo "step $i"; sleep 0.02; done; echo finished`
  return (request, index) => {
    if (index === 0)
      return {
        calls: [{ name: 'bash', args: { command, description: 'Build in the background', run_in_background: true } }],
      }
    const job = /started background job ([\w-]+)/.exec(JSON.stringify(request.messages))![1]!
    const read: ScriptedCall = { name: 'job_output', args: { job_id: job } }
    if (index <= polls) return { calls: [read] }
    if (index === polls + 1) {
      // The job ends only now: every read before this one saw it running.
      writeFileSync(release, '')
      return { calls: [{ name: 'job_output', args: { job_id: job, wait: true } }] }
    }
    if (index === polls + 2) return { calls: [read] }
    return { text: 'built' }
  }
}

/** Mount bash and the job tools as dsh-base composes them. */
async function jobs(ctx: Context): Promise<void> {
  await mountBash(ctx)
  await mountJobs(ctx)
}

async function poll(polls: number, config: Partial<Config>) {
  const release = join(await scratch('job'), 'release')
  const h = await harness(poller(release, polls), config)
  await jobs(h.ctx)
  return h.run()
}

describe("busy polls of a background job, with dsh's bash and job tools as dsh-base composes them", () => {
  it(
    'resultAware for job_output: reads of a running job are one run whatever ' +
      'they print, reminded one read late with the poll texts; the read ' +
      'that waits and the read after completion are not',
    async () => {
      const agent = await poll(7, { resultAware: ['job_output'] })
      const results = toolResults(agent).map(([, text]) => text)
      expect(results[0]).toMatch(/^started background job bash-\d+$/)
      const job = results[0]!.slice('started background job '.length)
      expect(results.slice(1, 8).every((text) => text.endsWith('\n[status: running]'))).toBe(true)
      expect(results[8]).toMatch(/finished\n\[status: completed, exit code: 0\]$/)
      expect(results[9]).toBe('(no new output)\n[status: completed, exit code: 0]')
      expect(reminders(agent).map((r) => [r.afterCall, r.text, r.source])).toEqual([
        [5, shortPollReminder(job), source('job_output × 4 (busy poll)')],
        [7, detailedPollReminder(job, 6, JSON.stringify({ job_id: job })), source('job_output × 6 (busy poll)')],
      ])
    },
  )

  it(
    'with the defaults the reads are identical calls: the stock reminders ' + 'at 3 and 5 reads, the texts unchanged',
    async () => {
      const agent = await poll(5, {})
      const job = toolResults(agent)[0]![1].slice('started background job '.length)
      expect(reminders(agent).map((r) => [r.afterCall, r.text, r.source])).toEqual([
        [4, shortReminder(), source('job_output × 3')],
        [6, detailedReminder('job_output', 5, JSON.stringify({ job_id: job })), source('job_output × 5')],
      ])
    },
  )

  it("blockAt withholds a busy poll's reads from its measured length on, with the poll's own feedback", async () => {
    const agent = await poll(5, { resultAware: ['job_output'], thresholds: [3], blockAt: 3 })
    const results = toolResults(agent)
    const job = results[0]![1].slice('started background job '.length)
    expect(results.slice(4, 6)).toEqual([
      [true, withheldPollFeedback(job, 4)],
      [true, withheldPollFeedback(job, 5)],
    ])
    expect(results[6]![0]).toBe(false)
    expect(reminders(agent).map((r) => [r.afterCall, r.text])).toEqual([[5, shortPollReminder(job)]])
  })

  it('a session recorded that way replays to the same reminders, and --suggest keeps them', async () => {
    const release = join(await scratch('job'), 'release')
    const root = await writeSessions('none', [{ id: 'poll', script: poller(release, 6), setup: jobs }], {
      resultAware: ['job_output'],
    })
    const { report } = await runReplayJson([root, '--result-aware-tools', 'job_output', '--suggest'])
    const [session] = report.sessions
    expect(placed(session!.recordedReminders)).toEqual([
      { afterCall: 5, summary: 'job_output × 4 (busy poll)' },
      { afterCall: 7, summary: 'job_output × 6 (busy poll)' },
    ])
    expect(session!.configReminders).toEqual(placed(session!.recordedReminders))
    // The model kept polling after the first reminder, and read the job with wait: true after the second.
    expect(session!.recordedReminders.map((r) => [r.kind, r.repeatedResult, r.effect])).toEqual([
      ['poll', true, 'repeated'],
      ['poll', true, 'waited'],
    ])
    expect(report.total.effects.poll.waited).toBe(1)
    // The detailed one is evidence for escalating, as a detailed reminder of an identical run is.
    expect(report.total.detailedOnRepeatedResults.waited).toBe(1)
    const chosen = report.suggestions!.find((s) => s.recommended)!
    expect(chosen.onRepeatedResults).toBeGreaterThanOrEqual(2)
    expect(chosen.onChangedResults).toBe(0)
  })
})

describe("the job a busy poll's text names", () => {
  const running = { isError: false, content: [{ type: 'text' as const, text: 'x\n[status: running]' }] }
  const agent = {} as Agent
  const text = (guard: ReturnType<typeof createGuard>, args: unknown) => {
    let last: Observation | undefined
    for (let i = 0; i < 3; i++) last = guard.observe({ agent, name: 'job_output', arguments: args }, running)
    return (last!.reminder!.content[0] as { text: string }).text
  }

  it('its job_id, within argumentsPreviewChars; arguments without a text job_id are quoted themselves', () => {
    const config = { resultAware: true, thresholds: [2], argumentsPreviewChars: 5 }
    const reminded = text(createGuard(Config(config)), { job_id: 'bash-12345' })
    expect(reminded).toBe(shortPollReminder('bash-… (5 more chars)'))
    expect(text(createGuard(Config(config)), { job_id: 7 })).toBe(shortPollReminder('{"job… (7 more chars)'))
  })
})

describe('what is not a busy poll', () => {
  /** A tool that is not dsh's job reader, whose every result ends with a status line, new output each call. */
  function statusTool(ctx: Context): void {
    let n = 0
    ctx.tools.register(
      defineContentToolFixture({
        name: 'tail_log',
        description: 'Show the end of a log.',
        parameters: {},
        async execute() {
          n++
          return [{ type: 'text', text: `line ${n}\n[status: running]` }]
        },
      }),
    )
  }

  it('a read of a running job inside a cycle counts as the cycle does, not one read late', () => {
    const agent = {} as Agent
    const guard = createGuard(Config({ resultAware: true, cycles: true, thresholds: [2] }))
    const read = { agent, name: 'job_output', arguments: { job_id: 'bash-1' } }
    const build = { agent, name: 'make', arguments: {} }
    const running = { isError: false, content: [{ type: 'text' as const, text: 'x\n[status: running]' }] }
    const done = { isError: false, content: [{ type: 'text' as const, text: 'ok' }] }
    guard.observe(build, done)
    guard.observe(read, running)
    guard.observe(build, done)
    // The read completes the cycle's second repetition: reminded at 2, as any cycle is.
    const seen = guard.observe(read, running)
    expect([seen?.cycle?.length, seen?.reminder?.source]).toEqual([2, source('make → job_output × 2')])
  })

  it(
    'another tool whose output holds [status: running]: under resultAware ' + 'its changing results are no run at all',
    async () => {
      const h = await harness(turns(...Array.from({ length: 6 }, () => ({ name: 'tail_log', args: {} }))), {
        resultAware: true,
      })
      statusTool(h.ctx)
      const agent = await h.run()
      expect(toolResults(agent).at(-1)).toEqual([false, 'line 6\n[status: running]'])
      expect(reminders(agent)).toEqual([])
    },
  )
})
