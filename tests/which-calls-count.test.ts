import type { Context } from '@deepseek-ai/cordis'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { defineContentToolFixture } from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import * as Reminder from '../src/index.ts'
import { harness, injected, toolResults, untilIdle } from '../support/harness.ts'
import { GREP, turns } from './support/calls.ts'

describe('calls without an agent', () => {
  it('a direct ctx.tools.execute() with no agent is ignored and touches no run', async () => {
    const h = await harness(turns(GREP, { name: 'direct', args: {} }, GREP, GREP), {
      thresholds: [3],
      exclude: ['direct'],
    })
    const direct: unknown[] = []
    h.ctx.tools.register(
      defineContentToolFixture({
        name: 'direct',
        description: 'Runs grep three times with no agent.',
        parameters: {},
        async execute() {
          for (let i = 0; i < 3; i++) direct.push(await agentless(h.ctx, `direct-${i}`))
          return [{ type: 'text', text: 'ran' }]
        },
      }),
    )
    const { agent } = await h.agent()
    await h.prompt(agent)
    expect(direct).toEqual(
      Array.from({ length: 3 }, () => ({ isError: false, content: [{ type: 'text', text: 'no match for x' }] })),
    )
    expect(injected(agent).map((r) => r.afterCall)).toEqual([4])
  })

  it('agentless calls alone never produce a reminder', async () => {
    const h = await harness([], { thresholds: [2] })
    const results = [await agentless(h.ctx, 'a'), await agentless(h.ctx, 'b'), await agentless(h.ctx, 'c')]
    expect(results.every((r) => !('additionalContexts' in r))).toBe(true)
  })
})

describe('denied and failed calls count', () => {
  it('a call denied by tools/pre-execute counts', async () => {
    const h = await harness(turns(GREP, GREP), { thresholds: [2] })
    h.ctx.on('tools/pre-execute', async (exec, next) =>
      exec.name === 'grep' ? { kind: 'deny', reason: 'no grep today' } : next(),
    )
    const agent = await h.run()
    expect(injected(agent).map((r) => r.afterCall)).toEqual([2])
    expect(toolResults(agent)).toEqual([
      [true, 'Error: no grep today'],
      [true, 'Error: no grep today'],
    ])
  })

  it('a call to an unknown tool counts', async () => {
    const h = await harness(turns({ name: 'nope', args: {} }, { name: 'nope', args: {} }), { thresholds: [2] })
    const agent = await h.run()
    expect(injected(agent).map((r) => r.source)).toEqual([expect.objectContaining({ summary: 'nope × 2' })])
  })

  it('a call whose tool throws counts', async () => {
    const h = await harness(turns({ name: 'broken', args: {} }, { name: 'broken', args: {} }), { thresholds: [2] })
    h.ctx.tools.register(
      defineContentToolFixture({
        name: 'broken',
        description: 'Always fails.',
        parameters: {},
        async execute() {
          throw new Error('disk on fire')
        },
      }),
    )
    const agent = await h.run()
    expect(toolResults(agent)).toEqual([
      [true, 'Error: disk on fire'],
      [true, 'Error: disk on fire'],
    ])
    expect(injected(agent).map((r) => r.afterCall)).toEqual([2])
  })

  it('a call with arguments the tool rejects counts', async () => {
    const bad = { name: 'grep', args: { pattern: 42 } }
    const h = await harness(turns(bad, bad), { thresholds: [2] })
    const agent = await h.run()
    expect(injected(agent).map((r) => r.afterCall)).toEqual([2])
  })
})

describe('a user prompt resets', () => {
  it('a new user prompt starts the run again', async () => {
    const h = await harness([...turns(GREP, GREP), { text: 'stop' }, ...turns(GREP, GREP)], { thresholds: [3] })
    const { agent } = await h.agent()
    await h.prompt(agent, 'one')
    await h.prompt(agent, 'two')
    expect(toolResults(agent)).toHaveLength(4)
    expect(injected(agent)).toEqual([])
  })

  it('user steering in the middle of a turn resets', async () => {
    const h = await harness(turns(GREP, GREP, GREP), { thresholds: [3] })
    const { agent } = await h.agent()
    h.ctx.on('tools/result', (exec) => {
      if (exec.callId === 'call-2-1')
        agent.steer(createUserMessage({ content: [{ type: 'text', text: 'keep going' }], source: { kind: 'user' } }))
    })
    await h.prompt(agent)
    expect(injected(agent)).toEqual([])
  })

  it("plugin-sourced context, the guard's own reminders included, does not reset", async () => {
    const h = await harness(turns(GREP, GREP, GREP), { thresholds: [2, 3] })
    h.ctx.on('tools/post-execute', async (_exec, _result, next) => {
      const decision = await next()
      const note = createUserMessage({
        content: [{ type: 'text', text: 'note' }],
        source: { kind: 'plugin', plugin: 'other' },
      })
      return { ...decision, additionalContexts: [...(decision.additionalContexts ?? []), note] }
    })
    const agent = await h.run()
    expect(
      injected(agent)
        .filter((r) => r.source.kind === 'plugin' && r.source.plugin === 'repeat-tool-reminder')
        .map((r) => r.afterCall),
    ).toEqual([2, 3])
  })
})

describe('per agent', () => {
  it('two agents repeating the same call at the same time never remind each other', async () => {
    const h = await harness(
      (request) => {
        const mine = h.model.requests.filter((r) => r.sessionId === request.sessionId).length
        return mine <= 2 ? { calls: [GREP] } : { text: 'done' }
      },
      { thresholds: [3] },
    )
    const [{ agent: a }, { agent: b }] = await Promise.all([h.agent(), h.agent()])
    await Promise.all([h.prompt(a), h.prompt(b)])
    expect(toolResults(a)).toHaveLength(2)
    expect(toolResults(b)).toHaveLength(2)
    expect([...injected(a), ...injected(b)]).toEqual([])
  })

  it("a new agent reusing a disposed agent's session id starts from 1", async () => {
    const h = await harness([...turns(GREP, GREP), { text: 'done' }, ...turns(GREP, GREP)], { thresholds: [3] })
    const first = await h.agent('reused')
    await wakeWithoutPrompt(h.ctx, first.agent)
    await first.dispose()
    const second = await h.agent('reused')
    await wakeWithoutPrompt(h.ctx, second.agent)
    expect(toolResults(second.agent)).toHaveLength(2)
    expect(
      injected(second.agent).filter((r) => r.source.kind === 'plugin' && r.source.plugin === 'repeat-tool-reminder'),
    ).toEqual([])
  })
})

describe("mounted inside one agent's scope", () => {
  it('guards that agent only', async () => {
    const script = [...turns(GREP, GREP), { text: 'a done' }, ...turns(GREP, GREP)]
    const h = await harness(script, { thresholds: [9] })
    const scoped = await h.agent()
    await scoped.agent.ctx.plugin(Reminder, { thresholds: [2] })
    const other = await h.agent()
    await h.prompt(scoped.agent)
    await h.prompt(other.agent)
    expect(injected(scoped.agent).map((r) => r.afterCall)).toEqual([2])
    expect(injected(other.agent)).toEqual([])
  })
})

describe('nested dispatches', () => {
  it('calls a composite tool dispatches for the model are transparent', async () => {
    const batch = { name: 'batch', args: {} }
    const h = await harness(turns(GREP, batch, GREP), { thresholds: [2], exclude: ['batch'] })
    h.ctx.tools.register(
      defineContentToolFixture({
        name: 'batch',
        description: "Runs grep for other patterns on the caller's behalf.",
        parameters: {},
        async execute(_args, exec) {
          for (const pattern of ['y', 'z']) {
            await h.ctx.tools.execute({
              callId: exec.callId,
              name: 'grep',
              arguments: { pattern },
              signal: exec.signal,
              agent: exec.agent!,
              parent: exec.token,
            })
          }
          return [{ type: 'text', text: 'batched' }]
        },
      }),
    )
    const agent = await h.run()
    expect(injected(agent).map((r) => r.afterCall)).toEqual([3])
  })
})

function agentless(ctx: Context, callId: string) {
  return ctx.tools
    .execute({
      callId: callId as never,
      name: 'grep',
      arguments: { pattern: 'x' },
      signal: new AbortController().signal,
    })
    .then(({ isError, content, ...rest }) => ({
      isError,
      content,
      ...(rest.additionalContexts ? { additionalContexts: rest.additionalContexts } : {}),
    }))
}

/** Wake an agent with plugin-sourced steering, so no user prompt resets anything. */
function wakeWithoutPrompt(ctx: Context, agent: Parameters<typeof injected>[0]) {
  const idle = untilIdle(ctx, agent)
  agent.steer(
    createUserMessage({
      content: [{ type: 'text', text: 'scheduled check' }],
      source: { kind: 'plugin', plugin: 'scheduler' },
    }),
  )
  return idle
}
