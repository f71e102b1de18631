import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Config } from '../src/config.ts'
import { shortPollReminder } from '../src/rules/poll.ts'
import { shortReminder } from '../src/rules/run.ts'
import { asksTheClock, waits, writesFiles } from '../src/shell/waits.ts'
import { harness, reminders, toolResults } from '../support/harness.ts'
import type { Script, ScriptedCall } from '../support/model.ts'
import { scratch } from '../support/scratch.ts'
import { source, times, turns } from './support/calls.ts'
import { bashSuite, mountBash, mountJobs } from './support/dsh-tools.ts'

bashSuite()

const bash = (command: string): ScriptedCall => ({ name: 'bash', args: { command, description: 'Check' } })

describe('which calls wait on purpose', () => {
  it.each([
    ['sleep 30 && kubectl get pods', true],
    ['sleep 1; cat status', true],
    ['sleep 2m', true],
    ['sleep 1s', true],
    ['sleep 1h', true],
    ['sleep 1d', true],
    ['sleep 0.5 0.5', true],
    ['sleep 0.02m', true],
    ['sleep 10m', true],
    ['sleep 0 5', true],
    ['for i in 1 2 3; do sleep 5; done', true],
    ['timeout 5 tail -n 20 build.log', true],
    ['wait; cat status', true],
    ['sleep 0.5', false],
    ['sleep 0', false],
    ['sleep -5', false],
    ['sleep 2 -1', false],
    ['sleep 5 x', false],
    ['sleep 1e3', false],
    ['sleep', false],
    ['sleep m', false],
    ['sleep x', false],
    ['sleep $DELAY', false],
    ['echo sleep 30', false],
    ['cat timeout.log', false],
    ['do', false],
  ])('bash %j: %s', (command, expected) => {
    expect(waits('bash', { command })).toBe(expected)
  })

  it('a job_output read with wait: true, and no other tool or argument shape', () => {
    expect(waits('job_output', { job_id: 'bash-1', wait: true })).toBe(true)
    expect(waits('job_output', { job_id: 'bash-1' })).toBe(false)
    expect(waits('pwsh', { command: 'sleep 30' })).toBe(false)
    expect(waits('bash', { command: 30 })).toBe(false)
    expect(waits('bash', 'sleep 30')).toBe(false)
  })
})

describe('which bash commands write files, for quickPolls', () => {
  it.each([
    ['echo x >> counter; wc -l < counter', true],
    ['make 2>&1 | tee build.log', true],
    ['cat a > b', true],
    ['tail -n 5 build.log', false],
    ['grep x f > /dev/null', false],
    ['ls -la', false],
    ['cat $(ls) > out', false],
  ])('%j: %s', (command, expected) => {
    expect(writesFiles('bash', { command })).toBe(expected)
  })

  it('only bash commands', () => {
    expect(writesFiles('pwsh', { command: 'a > b' })).toBe(false)
    expect(writesFiles('bash', 'a > b')).toBe(false)
    expect(writesFiles('bash', { command: ['a > b'] })).toBe(false)
  })
})

describe('which bash commands ask the clock, for maskNoise', () => {
  it.each([
    ['date', true],
    ['date +%T.%N', true],
    ['uptime', true],
    ['timedatectl status | head -3', true],
    ['for i in 1 2; do date; sleep 1; done', true],
    ['echo date', false],
    ['cat update.log', false],
    ['date $(whoami)', false],
  ])('%j: %s', (command, expected) => {
    expect(asksTheClock('bash', { command })).toBe(expected)
  })

  it('only bash commands', () => {
    expect(asksTheClock('pwsh', { command: 'date' })).toBe(false)
  })
})

describe("waits, with dsh's bash and job tools as dsh-base composes them", () => {
  it('a command that waits, again and again: no reminder, nothing denied with waits; a run without', async () => {
    const run = async (config: Partial<Config>) => {
      const h = await harness(turns(...times(4, bash('timeout 5 cat /dev/null; wait'))), config)
      await mountBash(h.ctx)
      return h.run()
    }
    const off = await run({ thresholds: [2] })
    expect(reminders(off).map((r) => [r.afterCall, r.text])).toEqual([[2, shortReminder()]])
    const on = await run({ thresholds: [2], blockAt: 3, waits: true })
    expect(toolResults(on)).toEqual([1, 2, 3, 4].map(() => [false, '(no output)']))
    expect(reminders(on)).toEqual([])
  })

  /**
   * A model that starts a background job running until `release` exists, then
   * checks it and sleeps a second in turn, twice; then ends the job and reads
   * it until it has read `polls` more times without waiting.
   */
  function checker(release: string, polls: number): Script {
    const command = `while [ ! -e '${release}' ]; do echo building; sleep 0.02; done; echo done`
    return (request, index) => {
      if (index === 0)
        return { calls: [{ ...bash(command), args: { command, description: 'Build', run_in_background: true } }] }
      const job = /started background job ([\w-]+)/.exec(JSON.stringify(request.messages))?.[1]
      const read: ScriptedCall = { name: 'job_output', args: { job_id: job } }
      if (index <= 4) return { calls: [index % 2 === 1 ? read : bash('sleep 1')] }
      if (index <= 4 + polls) return { calls: [read] }
      writeFileSync(release, '')
      return index === 5 + polls ? { calls: [{ ...read, args: { job_id: job, wait: true } }] } : { text: 'built' }
    }
  }

  async function check(polls: number, config: Partial<Config>) {
    const release = join(await scratch('job'), 'release')
    const h = await harness(checker(release, polls), { resultAware: true, cycles: true, thresholds: [2], ...config })
    await mountBash(h.ctx)
    await mountJobs(h.ctx)
    return h.run()
  }

  it('a check, sleep 1, the check, sleep 1: a cycle without waits, polling with it', async () => {
    const off = await check(0, {})
    const job = toolResults(off)[0]?.[1].slice('started background job '.length)
    expect(
      toolResults(off)
        .slice(1, 5)
        .map(([, text]) => text.endsWith('[status: running]')),
    ).toEqual([true, false, true, false])
    expect(reminders(off).map((r) => [r.afterCall, r.source])).toEqual([[5, source('job_output → bash × 2')]])
    expect(job).toMatch(/^bash-\d+$/)
    expect(reminders(await check(0, { waits: true }))).toEqual([])
  })

  it('a busy poll after it is still one: reads of the running job with no wait between', async () => {
    const agent = await check(3, { waits: true })
    const job = toolResults(agent)[0]?.[1].slice('started background job '.length) ?? ''
    expect(reminders(agent).map((r) => [r.afterCall, r.text])).toEqual([[8, shortPollReminder(job)]])
  })
})
