import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import ApprovalService, { type ApprovalOutcome } from '@deepseek-ai/dsh-user-approval'
import { describe, expect, it } from 'vitest'
import { Config } from '../src/config.ts'
import { createGuard } from '../src/guard.ts'
import { DENIALS_KEPT, rejectedText } from '../src/rules/rejected.ts'
import { shortReminder } from '../src/rules/run.ts'
import { harness, reminders, toolResults } from '../support/harness.ts'
import type { ScriptedCall, ScriptedTurn } from '../support/model.ts'
import { runReplayJson, writeSessions } from '../support/sessions.ts'
import { GREP, READ, source, times, turns } from './support/calls.ts'

/** What dsh's tool pipeline answers a call the user rejected, as the model reads it. */
const REJECTED = [true, 'Error: the user rejected tool "grep"']

/**
 * Mount dsh's approval service and ask it about every `grep`; the user answers `answer`. Each
 * question and answer is logged, as dsh-user-approval logs them.
 */
async function askAboutGrep(ctx: Context, answer: ApprovalOutcome): Promise<void> {
  await ctx.plugin(ApprovalService, { policy: 'ask' })
  ctx.on('tools/pre-execute', async (exec, next) => (exec.name === 'grep' ? { kind: 'ask' } : next()))
  ctx.on('approval/request', async () => answer)
}

/** Run `script` with `config`, every grep put to a user who answers `answer`; one prompt per entry of `prompts`. */
async function withUser(script: ScriptedTurn[], config: object, answer: ApprovalOutcome, prompts = 1): Promise<Agent> {
  const h = await harness(script, { rejectedCalls: true, ...config })
  await askAboutGrep(h.ctx, answer)
  const { agent } = await h.agent()
  for (let i = 0; i < prompts; i++) await h.prompt(agent)
  return agent
}

const summarised = (agent: Agent) => reminders(agent).map((r) => [r.afterCall, r.text, r.source])

describe('rejectedCalls, live with dsh-user-approval: a call the user rejected, sent again', () => {
  it('is reminded at once, naming the user, at the next call and after another call between', async () => {
    const agent = await withUser(turns(GREP, GREP, READ, GREP), {}, 'rejected')
    expect(toolResults(agent).map(([isError, text]) => [isError, text])).toEqual([
      REJECTED,
      REJECTED,
      [false, 'contents of a.ts'],
      REJECTED,
    ])
    const user = 'the user rejected tool "grep"'
    expect(summarised(agent)).toEqual([
      [2, rejectedText('grep', 1, 'user', user), source('grep × 2 (rejected)')],
      [4, rejectedText('grep', 2, 'user', user), source('grep × 2 (rejected)')],
    ])
    expect(reminders(agent)[1]?.text).toBe(
      'Reminder: this `grep` call is the one denied 2 calls ago, before it could run: the user rejected it. ' +
        'Sending it again unchanged does not change the answer. ' +
        'Ask the user how they want to go on, or take a different approach.',
    )
    const audit = agent.session.events.filter((e) => e.type.startsWith('approval/')).map((e) => e.type)
    expect(audit).toEqual([1, 2, 3].flatMap(() => ['approval/asked', 'approval/decided']))
  })

  it('outranks the run reminder due at the same call', async () => {
    const agent = await withUser(turns(GREP, GREP, GREP), { thresholds: [2, 3] }, 'rejected')
    expect(reminders(agent).map((r) => r.text)).toEqual([
      rejectedText('grep', 1, 'user', 'the user rejected tool "grep"'),
      rejectedText('grep', 1, 'user', 'the user rejected tool "grep"'),
    ])
  })

  it('a call the user granted is no denial: sent again, it is not reminded', async () => {
    const agent = await withUser(turns(GREP, GREP), {}, 'allowed-once')
    expect(toolResults(agent).map(([isError]) => isError)).toEqual([false, false])
    expect(reminders(agent)).toEqual([])
  })

  it("the user's next message starts afresh: the same call after it is not reminded", async () => {
    const script: ScriptedTurn[] = [{ calls: [GREP] }, { text: 'May I?' }, { calls: [GREP] }]
    const agent = await withUser(script, {}, 'rejected', 2)
    expect(toolResults(agent)).toEqual([REJECTED, REJECTED])
    expect(reminders(agent)).toEqual([])
  })

  it('off by default: the stock behaviour, nothing about rejections', async () => {
    const h = await harness(turns(GREP, GREP))
    await askAboutGrep(h.ctx, 'rejected')
    expect(reminders(await h.run())).toEqual([])
  })
})

describe('rejectedCalls: who denied a call, as its reason says', () => {
  it("another listener's denial is quoted", async () => {
    const h = await harness(turns(GREP, READ, GREP), { rejectedCalls: true })
    h.ctx.on('tools/pre-execute', async (exec, next) =>
      exec.name === 'grep' ? { kind: 'deny', reason: 'closed for maintenance' } : next(),
    )
    expect(reminders(await h.run()).map((r) => r.text)).toEqual([
      rejectedText('grep', 2, 'policy', 'closed for maintenance'),
    ])
    expect(rejectedText('grep', 2, 'policy', 'closed for maintenance')).toContain(
      'before it could run: it was denied ("closed for maintenance").',
    )
  })

  it("this plugin's own denial (blockAt), sent again", async () => {
    const h = await harness(turns(...times(4, GREP)), { rejectedCalls: true, thresholds: [2], blockAt: 3 })
    const agent = await h.run()
    expect(toolResults(agent).map(([isError]) => isError)).toEqual([false, false, true, true])
    expect(reminders(agent).map((r) => [r.afterCall, r.text])).toEqual([
      [2, shortReminder()],
      [4, rejectedText('grep', 1, 'guard', '')],
    ])
    expect(rejectedText('grep', 1, 'guard', '')).toContain(
      'the one denied just before, before it could run: this plugin withheld it as a repeat.',
    )
  })

  it('a denial with no text to read says only that it was denied', () => {
    const guard = createGuard(Config({ rejectedCalls: true }))
    const agent = {} as Agent
    const exec = { agent, name: 'grep', arguments: { pattern: 'x' } }
    guard.observe(exec, { isError: true, content: [] }, false)
    const seen = guard.observe(exec, { isError: true, content: [] }, false)
    expect(seen?.reminder?.content).toEqual([
      {
        type: 'text',
        text:
          'Reminder: this `grep` call is the one denied just before, before it could run: it was denied. ' +
          'Sending it again unchanged does not change the answer. ' +
          'Ask the user how they want to go on, or take a different approach.',
      },
    ])
  })
})

describe('rejectedCalls remembers a bounded number of denials', () => {
  it(`the latest ${DENIALS_KEPT}: a call denied before them is forgotten, the next one is not`, async () => {
    const grep = (n: number): ScriptedCall => ({ name: 'grep', args: { pattern: `p${n}` } })
    const denied = Array.from({ length: DENIALS_KEPT + 1 }, (_, n) => grep(n))
    const h = await harness(turns(...denied, grep(1), grep(0)), { rejectedCalls: true })
    h.ctx.on('tools/pre-execute', async () => ({ kind: 'deny', reason: 'no' }))
    expect(reminders(await h.run()).map((r) => [r.afterCall, r.text])).toEqual([
      [DENIALS_KEPT + 2, rejectedText('grep', DENIALS_KEPT, 'policy', 'no')],
    ])
  })
})

describe('rejectedCalls remembers each denied call once', () => {
  it(`a call denied again and again takes one place: ${DENIALS_KEPT} more denials of it forget nothing`, async () => {
    const other: ScriptedCall = { name: 'grep', args: { pattern: 'other' } }
    const h = await harness(turns(other, ...times(DENIALS_KEPT, GREP), other), { rejectedCalls: true })
    h.ctx.on('tools/pre-execute', async () => ({ kind: 'deny', reason: 'no' }))
    const texts = reminders(await h.run()).map((r) => [r.afterCall, r.text])
    expect(texts.at(-1)).toEqual([DENIALS_KEPT + 2, rejectedText('grep', DENIALS_KEPT + 1, 'policy', 'no')])
  })

  it("a reason that does not open with dsh's `Error: ` is quoted whole", () => {
    const guard = createGuard(Config({ rejectedCalls: true }))
    const agent = {} as Agent
    const exec = { agent, name: 'grep', arguments: { pattern: 'x' } }
    const result = { isError: true, content: [{ type: 'text' as const, text: 'blocked. Error: quota' }] }
    guard.observe(exec, result, false)
    const text = guard.observe(exec, result, false)?.reminder?.content[0]
    expect(text).toEqual({ type: 'text', text: rejectedText('grep', 1, 'policy', 'blocked. Error: quota') })
  })
})

describe('replay reads a rejection from the approval events in the log', () => {
  it('--rejected-calls reminds where the live guard did, and a recorded reminder reads back as its kind', async () => {
    const setup = (ctx: Context) => askAboutGrep(ctx, 'rejected')
    const root = await writeSessions('none', [{ id: 'rejected', script: turns(GREP, READ, GREP), setup }], {
      rejectedCalls: true,
    })
    const { report } = await runReplayJson([root, '--rejected-calls'])
    const [session] = report.sessions
    expect(session?.recordedReminders.map((r) => [r.afterCall, r.summary, r.kind])).toEqual([
      [3, 'grep × 2 (rejected)', 'rejected'],
    ])
    expect(session?.configReminders.map((r) => [r.afterCall, r.summary])).toEqual([[3, 'grep × 2 (rejected)']])
    const without = await runReplayJson([root])
    expect(without.report.sessions[0]?.configReminders).toEqual([])
  })
})
