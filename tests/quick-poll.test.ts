import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { Config } from '../src/config.ts'
import { createGuard } from '../src/guard.ts'
import { quickPollText } from '../src/rules/quick-poll.ts'
import { shortReminder } from '../src/rules/run.ts'
import { harness, reminders, toolResults } from '../support/harness.ts'
import type { Script, ScriptedCall, ScriptedTurn } from '../support/model.ts'
import { scratch } from '../support/scratch.ts'
import { runReplayJson, writeSessions } from '../support/sessions.ts'
import { GREP, READ, source, times, turns } from './support/calls.ts'
import { bashSuite, mountBash, mountJobs } from './support/dsh-tools.ts'
import { pagerAndFailingTests, SCROLL } from './support/pager.ts'

bashSuite()

const bash = (command: string): ScriptedCall => ({ name: 'bash', args: { command, description: 'Check the build' } })

/** The README's config with quickPolls on: outcomes compared, so a changed answer starts an identical run over. */
const ON: Partial<Config> = { thresholds: [2, 4, 7], resultAware: true, cycles: true, quickPolls: true }

/**
 * A model that runs `command` `n` times, one call per step, while a writer appends a line to
 * `log` before each call: each answer differs from the last.
 */
function tailing(log: string, command: string, n: number): Script {
  return (_request, index) => {
    if (index >= n) return { text: 'built' }
    appendFileSync(log, `step ${index + 1}\n`)
    return { calls: [bash(command)] }
  }
}

async function tail(prefix: string, n: number, config: Partial<Config> = ON) {
  const log = join(await scratch('poll'), 'build.log')
  writeFileSync(log, '')
  const h = await harness(tailing(log, `${prefix}tail -n 5 '${log}'`, n), config)
  await mountBash(h.ctx)
  return h.run()
}

describe("quickPolls, with dsh's bash tool as dsh-base composes it", () => {
  it('`tail -n 5 build.log` three times while a writer appends: reminded at the third, and at the sixth', async () => {
    const agent = await tail('', 7)
    const results = toolResults(agent).map(([, text]) => text)
    expect(new Set(results).size).toBe(7)
    expect(reminders(agent).map((r) => [r.afterCall, r.text, r.source])).toEqual([
      [3, quickPollText('bash', 3), source('bash × 3 (no wait)')],
      [6, quickPollText('bash', 6), source('bash × 6 (no wait)')],
    ])
    expect(quickPollText('bash', 3)).toBe(
      'Reminder: you have made this `bash` call 3 times in a row, each right after the last, ' +
        'and its answer keeps changing a little: you are polling without waiting. ' +
        'Each call only shows how things stand at that instant. Wait before asking again ' +
        '(for example `sleep 30 && <the check>` in `bash`), or run the work as a background job ' +
        'and read it with `job_output` and `wait: true`.',
    )
  })

  it('the same with a wait before each (`sleep 1 && `) is not reminded', async () => {
    expect(reminders(await tail('sleep 1 && ', 3))).toEqual([])
  })

  it('off by default, and quickPollCalls sets the length', async () => {
    expect(reminders(await tail('', 4, { ...ON, quickPolls: false }))).toEqual([])
    expect(reminders(await tail('', 4, { ...ON, quickPollCalls: 2 })).map((r) => r.afterCall)).toEqual([2, 4])
  })

  it('nothing is ever denied or withheld for it, whatever blockAt says', async () => {
    const agent = await tail('', 4, { ...ON, thresholds: [2], blockAt: 2 })
    expect(toolResults(agent).map(([isError]) => isError)).toEqual([false, false, false, false])
    expect(reminders(agent).map((r) => r.afterCall)).toEqual([3])
  })

  it('the same call three times in one model step is one batch: not reminded; in three steps it is', async () => {
    const clock = bash('date +%s%N')
    const batch: ScriptedTurn[] = [{ calls: times(3, clock) }]
    const once = await harness(batch, ON)
    await mountBash(once.ctx)
    const agent = await once.run()
    expect(new Set(toolResults(agent).map(([, text]) => text)).size).toBe(3)
    expect(reminders(agent)).toEqual([])
    const apart = await harness(turns(...times(3, clock)), ON)
    await mountBash(apart.ctx)
    expect(reminders(await apart.run()).map((r) => r.afterCall)).toEqual([3])
  })
})

describe('quickPolls: what is never a quick poll', () => {
  it('`scroll_down` five times: a navigation tool pages, it does not poll', async () => {
    const h = await harness(turns(...times(5, SCROLL)), ON)
    pagerAndFailingTests(h.ctx)
    expect(reminders(await h.run())).toEqual([])
  })

  it('the same answer again starts over: that is an identical run, reminded as one', async () => {
    const agent = await (await harness(turns(...times(3, GREP)), ON)).run()
    expect(reminders(agent).map((r) => [r.afterCall, r.text])).toEqual([[2, shortReminder({ sameResults: true })]])
  })

  it('a bash command that writes the file it then reads: its changing answer is its own doing', async () => {
    const agent = await tail('', 3, ON)
    expect(reminders(agent).map((r) => r.afterCall)).toEqual([3])
    const log = join(await scratch('poll'), 'count')
    const h = await harness(turns(...times(3, bash(`echo x >> '${log}'; wc -l < '${log}'`))), ON)
    await mountBash(h.ctx)
    const writer = await h.run()
    expect(toolResults(writer).map(([, text]) => text)).toEqual(['1\n', '2\n', '3\n'])
    expect(reminders(writer)).toEqual([])
  })

  it('the same bash command started in the background three times: each start is a new job, no poll', async () => {
    const start: ScriptedCall = {
      name: 'bash',
      args: { command: 'grep -rn beta .', description: 'Search', run_in_background: true },
    }
    const h = await harness(turns(...times(3, start)), ON)
    await mountBash(h.ctx)
    await mountJobs(h.ctx)
    const agent = await h.run()
    const results = toolResults(agent).map(([, text]) => text)
    expect(results.every((text) => text.startsWith('started background job'))).toBe(true)
    expect(new Set(results).size).toBe(3)
    // The identical run's reminder: a start's outcome is a start, whatever the job's id.
    expect(reminders(agent).map((r) => [r.afterCall, r.source])).toEqual([[2, source('bash × 2')]])
  })

  it('another call between starts over', async () => {
    const log = join(await scratch('poll'), 'build.log')
    writeFileSync(log, '')
    const check = bash(`tail -n 5 '${log}'`)
    const script: Script = (_request, index) => {
      appendFileSync(log, `step ${index}\n`)
      const calls = [check, check, READ, check, check]
      return index < calls.length ? { calls: [calls[index] as ScriptedCall] } : { text: 'done' }
    }
    const h = await harness(script, ON)
    await mountBash(h.ctx)
    expect(reminders(await h.run())).toEqual([])
  })

  it('a poll counts from its first call: one after another call starts it', async () => {
    const log = join(await scratch('poll'), 'build.log')
    writeFileSync(log, '')
    const check = bash(`tail -n 5 '${log}'`)
    const script: Script = (_request, index) => {
      appendFileSync(log, `step ${index}\n`)
      const calls = [READ, check, check]
      return index < calls.length ? { calls: [calls[index] as ScriptedCall] } : { text: 'done' }
    }
    const h = await harness(script, ON)
    await mountBash(h.ctx)
    expect(reminders(await h.run())).toEqual([])
  })

  it('a batch counts once and the poll goes on after it; a batch call after a reminder gets none', async () => {
    const clock = bash('date +%s%N')
    const run = async (script: ScriptedTurn[]) => {
      const h = await harness(script, ON)
      await mountBash(h.ctx)
      return reminders(await h.run()).map((r) => r.afterCall)
    }
    expect(await run([{ calls: times(3, clock) }, { calls: [clock] }, { calls: [clock] }])).toEqual([5])
    // The third call is reminded, once: a step's notices follow all of its results.
    expect(await run([{ calls: [clock] }, { calls: [clock] }, { calls: times(2, clock) }])).toEqual([4])
  })

  it("job_output is the busy-poll rule's: a read that finds the job ended is no quick poll", () => {
    const guard = createGuard(Config({ ...ON, quickPollCalls: 2 }))
    const agent = {} as Agent
    const read = { agent, name: 'job_output', arguments: { job_id: 'bash-1' } }
    const status = (text: string) => ({ isError: false, content: [{ type: 'text' as const, text }] })
    guard.step(agent, [])
    guard.observe(read, status('step 1\n[status: running]'))
    guard.step(agent, [])
    const ended = guard.observe(read, status('done\n[status: completed, exit code: 0]'))
    expect(ended?.reminder).toBeUndefined()
    guard.step(agent, [])
    const other = { ...read, name: 'status' }
    guard.observe(other, status('step 1\n[status: running]'))
    guard.step(agent, [])
    expect(guard.observe(other, status('done\n[status: completed, exit code: 0]'))?.reminder).toBeDefined()
  })

  it('only bash starts a job in the background: another tool with that argument may poll, bash with none too', () => {
    const status = (text: string) => ({ isError: false, content: [{ type: 'text' as const, text }] })
    const polled = (name: string, args: unknown) => {
      const guard = createGuard(Config({ ...ON, quickPollCalls: 2 }))
      const agent = {} as Agent
      guard.step(agent, [])
      guard.observe({ agent, name, arguments: args }, status('1'))
      guard.step(agent, [])
      return guard.observe({ agent, name, arguments: args }, status('2'))?.reminder !== undefined
    }
    expect(polled('bash', { command: 'ls', run_in_background: true })).toBe(false)
    expect(polled('status', { run_in_background: true })).toBe(true)
    expect(polled('bash', null)).toBe(true)
  })

  it('a loop reminder due at the same call stands alone', async () => {
    // Without resultAware the changing answers are an identical run: its reminder at 3, not this one.
    const agent = await tail('', 3, { thresholds: [3], quickPolls: true })
    expect(reminders(agent).map((r) => [r.afterCall, r.text])).toEqual([[3, shortReminder()]])
  })
})

describe('replay reads the steps from the log: each model response is one', () => {
  it('--quick-polls reminds where the live guard did, and not in a batch', async () => {
    const clock = bash('date +%s%N')
    const setup = (ctx: Parameters<typeof mountBash>[0]) => mountBash(ctx).then(() => undefined)
    const root = await writeSessions(
      'none',
      [
        { id: 'apart', script: turns(...times(3, clock)), setup },
        { id: 'batch', script: [{ calls: times(3, clock) }], setup },
      ],
      ON,
    )
    const { report } = await runReplayJson([root, ...flags()])
    const byId = new Map(report.sessions.map((s) => [s.id, s]))
    expect(byId.get('apart')?.recordedReminders.map((r) => [r.afterCall, r.summary, r.kind])).toEqual([
      [3, 'bash × 3 (no wait)', 'quick-poll'],
    ])
    expect(byId.get('apart')?.configReminders.map((r) => [r.afterCall, r.summary])).toEqual([[3, 'bash × 3 (no wait)']])
    expect(byId.get('batch')?.configReminders).toEqual([])
  })
})

/** The flags of {@link ON}. */
function flags(): string[] {
  return ['--thresholds', '2,4,7', '--result-aware', '--cycles', '--quick-polls']
}
