import { describe, expect, it } from 'vitest'
import { cycleReminder } from '../../src/rules/cycle.ts'
import { detailedReminder, shortReminder } from '../../src/rules/run.ts'
import { withheldFeedback } from '../../src/texts.ts'
import { afterCalls, harness, injected, runAgent, summaries, toolResults } from '../../support/harness.ts'
import type { ScriptedCall } from '../../support/model.ts'
import { GREP, READ, source, TODO, turns } from '../support/calls.ts'

const POLL: ScriptedCall = { name: 'poll', args: { job: 7 } }
const cycle = (times: number, ...calls: ScriptedCall[]) => turns(...Array.from({ length: times }, () => calls).flat())

describe('cycles', () => {
  it('grep, read, grep, read, …: an A-B cycle is reminded at 3 complete repetitions', async () => {
    const agent = await runAgent(cycle(4, GREP, READ), { cycles: true })
    const expected = cycleReminder(
      [
        { tool: 'grep', preview: '{"pattern":"x"}' },
        { tool: 'read_file', preview: '{"path":"a.ts"}' },
      ],
      3,
    )
    expect(injected(agent)).toEqual([
      {
        afterCall: 6,
        text: expected,
        source: source('grep → read_file × 3'),
      },
    ])
  })

  it('the cycle text names every call in order, within the preview cap', () => {
    expect(
      cycleReminder(
        [
          { tool: 'grep', preview: '{"pattern":"x"}' },
          { tool: 'read_file', preview: '{"path":"a.ts"}' },
        ],
        3,
      ),
    ).toBe(
      'Reminder: you are repeating the same sequence of 2 tool calls with ' +
        'identical arguments; it has now run 3 times in a row:\n' +
        '1. grep {"pattern":"x"}\n' +
        '2. read_file {"path":"a.ts"}\n' +
        'This sequence is making no progress. Do not run it again with the same arguments. ' +
        'Inspect the latest results and choose a different action or different ' +
        'arguments, or finish if you already have enough evidence.',
    )
  })

  it('previews in a cycle reminder are cut at argumentsPreviewChars', async () => {
    const agent = await runAgent(cycle(2, GREP, READ), { cycles: true, thresholds: [2], argumentsPreviewChars: 5 })
    expect(injected(agent)[0]?.text).toBe(
      cycleReminder(
        [
          { tool: 'grep', preview: '{"pat… (10 more chars)' },
          { tool: 'read_file', preview: '{"pat… (10 more chars)' },
        ],
        2,
      ),
    )
  })

  it('a cycle of three calls uses the same thresholds', async () => {
    const agent = await runAgent(cycle(5, GREP, READ, TODO), { cycles: true, thresholds: [2, 4] })
    expect(summaries(agent)).toEqual(['grep → read_file → todo_write × 2', 'grep → read_file → todo_write × 4'])
    expect(afterCalls(agent)).toEqual([6, 12])
  })

  it('a cycle that breaks and starts again counts from the start again', async () => {
    const agent = await runAgent([...cycle(2, GREP, READ), ...turns(TODO, TODO), ...cycle(2, GREP, READ)], {
      cycles: true,
      thresholds: [2],
    })
    expect(summaries(agent)).toEqual(['grep → read_file × 2', 'todo_write × 2', 'grep → read_file × 2'])
    expect(afterCalls(agent)).toEqual([4, 6, 10])
  })

  it('a cycle longer than maxCyclePeriod is not recognised', async () => {
    const agent = await runAgent(cycle(4, GREP, READ, TODO), { cycles: true, thresholds: [2], maxCyclePeriod: 2 })
    expect(injected(agent)).toEqual([])
  })

  it('a sequence that repeats a call inside it is not a cycle of distinct calls', async () => {
    const other = { name: 'grep', args: { pattern: 'y' } }
    const agent = await runAgent(cycle(4, GREP, READ, GREP, other), { cycles: true, thresholds: [2] })
    expect(injected(agent)).toEqual([])
  })

  it('a cycle of exactly maxCyclePeriod calls is recognised; one call longer is not', async () => {
    const TODO_B: ScriptedCall = { name: 'todo_write', args: { todos: ['b'] } }
    const three = await runAgent(cycle(2, GREP, READ, TODO), { cycles: true, thresholds: [2], maxCyclePeriod: 3 })
    expect(summaries(three)).toEqual(['grep → read_file → todo_write × 2'])
    const four = await runAgent(cycle(3, GREP, READ, TODO, TODO_B), {
      cycles: true,
      thresholds: [2],
      maxCyclePeriod: 3,
    })
    expect(injected(four)).toEqual([])
    const eight = await runAgent(
      cycle(2, ...Array.from({ length: 8 }, (_, i) => ({ name: 'grep', args: { pattern: `p${i}` } }))),
      { cycles: true, thresholds: [2], maxCyclePeriod: 8 },
    )
    expect(summaries(eight)).toEqual([`${Array.from({ length: 8 }, () => 'grep').join(' → ')} × 2`])
  })

  it(
    'after a cycle of distinct calls ends, a later sequence with the ' +
      'same period that repeats a call is not a cycle',
    async () => {
      const [A, B, C, D] = ['a', 'b', 'c', 'd'].map((p) => ({ name: 'grep', args: { pattern: p } }))
      const agent = await runAgent([...cycle(2, GREP, READ, TODO, POLL), ...cycle(3, A!, B!, A!, C!), ...turns(D!)], {
        cycles: true,
        thresholds: [2, 3],
      })
      expect(summaries(agent)).toEqual(['grep → read_file → todo_write → poll × 2'])
    },
  )

  it('a three-call cycle is named from the call that opened it at every call, complete repetition or not', async () => {
    const agent = await runAgent([...turns(TODO), ...cycle(3, GREP, READ, POLL)], {
      cycles: true,
      thresholds: [2],
      blockAt: 2,
    })
    const feedback = toolResults(agent)
      .slice(6)
      .map(([, text]) => text)
    expect(feedback).toEqual([
      withheldFeedback(['grep', 'read_file', 'poll'], 2, { ran: false }),
      withheldFeedback(['grep', 'read_file', 'poll'], 2, { ran: false }),
      withheldFeedback(['grep', 'read_file', 'poll'], 2, { ran: false }),
      withheldFeedback(['grep', 'read_file', 'poll'], 3, { ran: false }),
    ])
  })

  it('calls that differ only in arguments are distinct calls of a cycle', async () => {
    const other = { name: 'grep', args: { pattern: 'y' } }
    const agent = await runAgent(cycle(2, GREP, other), { cycles: true, thresholds: [2] })
    expect(summaries(agent)).toEqual(['grep → grep × 2'])
  })

  it('untracked calls inside a cycle stay transparent', async () => {
    const agent = await runAgent(turns(GREP, TODO, READ, TODO, GREP, READ, TODO), {
      cycles: true,
      thresholds: [2],
      exclude: ['todo_write'],
    })
    expect(afterCalls(agent)).toEqual([6])
  })

  it('a user prompt resets a cycle', async () => {
    const h = await harness([...cycle(1, GREP, READ), { text: 'pause' }, ...cycle(1, GREP, READ)], {
      cycles: true,
      thresholds: [2],
    })
    const { agent } = await h.agent()
    await h.prompt(agent, 'one')
    await h.prompt(agent, 'two')
    expect(injected(agent)).toEqual([])
  })

  it('each agent has its own cycle', async () => {
    const h = await harness(
      (request) => {
        const mine = h.model.requests.filter((r) => r.sessionId === request.sessionId).length
        return mine > 4 ? { text: 'done' } : { calls: [mine % 2 === 1 ? GREP : READ] }
      },
      { cycles: true, thresholds: [2] },
    )
    const [{ agent: a }, { agent: b }] = await Promise.all([h.agent(), h.agent()])
    await Promise.all([h.prompt(a), h.prompt(b)])
    expect([afterCalls(a), afterCalls(b)]).toEqual([[4], [4]])
  })

  it('a plain identical run keeps its own texts with cycles on', async () => {
    const agent = await runAgent(turns(READ, GREP, GREP, GREP, GREP, GREP), { cycles: true })
    expect(injected(agent).map((r) => r.text)).toEqual([
      shortReminder(),
      detailedReminder('grep', 5, '{"pattern":"x"}'),
    ])
  })

  it('without cycles (the default) an A-B cycle is never reminded', async () => {
    const agent = await runAgent(cycle(6, GREP, READ), { thresholds: [2] })
    expect(injected(agent)).toEqual([])
  })
})
