import { defineContentToolFixture } from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import { RELAPSE_MEMORY } from '../../src/rules/relapse.ts'
import { detailedReminder, shortReminder } from '../../src/rules/run.ts'
import { withheldFeedback } from '../../src/texts.ts'
import { afterCalls, harness, injected, runAgent, summaries, toolResults } from '../../support/harness.ts'
import type { ScriptedCall } from '../../support/model.ts'
import { observeAll, remindedOf } from '../support/guard.ts'
import { GREP, READ, times, turns } from '../support/calls.ts'

const search = { tool: 'grep', args: { p: 'x' } }
const look = { tool: 'read', args: { path: 'a' } }

describe('rules/relapse (relapse): its verdict as data', () => {
  it('a run that comes back after other calls counts on, and says it resumed', () => {
    const seen = observeAll({ relapse: true, thresholds: [2, 3] }, [search, search, look, search])
    expect(remindedOf(seen)).toEqual([
      undefined,
      { kind: 'run', length: 2, tools: ['grep'] },
      undefined,
      { kind: 'run', length: 3, tools: ['grep'] },
    ])
    expect(seen.map((o) => o.reminded?.resumed)).toEqual([undefined, false, undefined, true])
  })

  it('a run that starts after other calls, resuming none, does not say it resumed', () => {
    const seen = observeAll({ relapse: true, thresholds: [2, 3] }, [look, search, search])
    expect(remindedOf(seen)).toEqual([undefined, undefined, { kind: 'run', length: 2, tools: ['grep'] }])
    expect(seen[2]!.reminded!.resumed).toBe(false)
  })
})

describe("rules/relapse (relapse): live, through dsh's agent loop", () => {
  it('grep ×3, read, grep ×3: short after call 3, detailed after call 6, which says the run came back', async () => {
    const agent = await runAgent(turns(...times(3, GREP), READ, ...times(3, GREP)), { relapse: true })
    expect(injected(agent).map((r) => [r.afterCall, r.text, (r.source as { summary: string }).summary])).toEqual([
      [3, shortReminder(), 'grep × 3'],
      [6, detailedReminder('grep', 5, '{"pattern":"x"}', { resumed: true }), 'grep × 5'],
    ])
    expect(injected(agent)[1]!.text).toBe(
      'Reminder: you have called `grep` 5 times, coming back to it after ' +
        'other calls, with identical arguments:\n{"pattern":"x"}\n' +
        'These repeats are making no progress. Do not call this tool with these exact arguments again. ' +
        'Inspect the latest result and choose a different action or different ' +
        'arguments, or finish if you already have enough evidence.',
    )
  })

  it('without it (the default) the interrupted run starts over: both reminders are the short one', async () => {
    const agent = await runAgent(turns(...times(3, GREP), READ, ...times(3, GREP)))
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([
      [3, shortReminder()],
      [7, shortReminder()],
    ])
  })

  it('a run resumed at the first threshold gets the short text, saying it came back', async () => {
    const agent = await runAgent(turns(GREP, READ, GREP, GREP), { relapse: true })
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([[4, shortReminder({ resumed: true })]])
    expect(injected(agent)[0]!.text).toMatch(
      new RegExp(
        '^Reminder: you are repeating the exact same tool call with identical arguments, ' +
          'coming back to it after other calls\\. ',
      ),
    )
  })

  it('the interrupting calls keep their own runs, which resume too', async () => {
    const agent = await runAgent(turns(GREP, READ, GREP, READ, GREP, READ), { relapse: true, thresholds: [3] })
    expect(summaries(agent)).toEqual(['grep × 3', 'read_file × 3'])
    expect(afterCalls(agent)).toEqual([5, 6])
  })

  it(
    `each agent remembers its ${RELAPSE_MEMORY} latest interrupted runs: ` +
      `a call back after ${RELAPSE_MEMORY} other calls still resumes, after ` +
      `${RELAPSE_MEMORY + 1} it starts over`,
    async () => {
      expect(RELAPSE_MEMORY).toBe(8)
      const others = (n: number) =>
        Array.from({ length: n }, (_, i): ScriptedCall => ({ name: 'read_file', args: { path: `${i}.ts` } }))
      const kept = await runAgent(turns(GREP, GREP, ...others(RELAPSE_MEMORY), GREP), {
        relapse: true,
        thresholds: [3],
      })
      expect(afterCalls(kept)).toEqual([RELAPSE_MEMORY + 3])
      const lost = await runAgent(turns(GREP, GREP, ...others(RELAPSE_MEMORY + 1), GREP), {
        relapse: true,
        thresholds: [3],
      })
      expect(injected(lost)).toEqual([])
    },
  )

  it('a user prompt forgets the interrupted runs', async () => {
    const h = await harness([...turns(GREP, GREP, READ), { text: 'pause' }, ...turns(GREP)], {
      relapse: true,
      thresholds: [3],
    })
    const { agent } = await h.agent()
    await h.prompt(agent, 'one')
    await h.prompt(agent, 'two')
    expect(injected(agent)).toEqual([])
  })

  it('with resultAware, a call back whose result changed starts over', async () => {
    const h = await harness(turns(...times(2, { name: 'poll', args: {} }), READ, { name: 'poll', args: {} }), {
      relapse: true,
      resultAware: true,
      thresholds: [3],
    })
    const outputs = ['1%', '1%', '40%']
    h.ctx.tools.register(
      defineContentToolFixture({
        name: 'poll',
        description: 'Poll.',
        parameters: {},
        async execute() {
          return [{ type: 'text', text: outputs.shift()! }]
        },
      }),
    )
    const agent = await h.run()
    expect(injected(agent)).toEqual([])
  })

  it('blockAt counts the resumed run, and the withheld feedback says it came back', async () => {
    const agent = await runAgent(turns(GREP, GREP, READ, GREP), { relapse: true, thresholds: [2], blockAt: 3 })
    expect(toolResults(agent).at(-1)).toEqual([true, withheldFeedback(['grep'], 3, { resumed: true, ran: false })])
    expect(withheldFeedback(['grep'], 3, { resumed: true })).toContain(
      'you have made this exact call to `grep` 3 times, coming back to ' +
        'it after other calls, with identical arguments, and the repeats',
    )
  })

  it('with cycles, a repeating cycle is still reminded as a cycle, not as the relapse of its calls', async () => {
    const agent = await runAgent(turns(GREP, READ, GREP, READ, GREP, READ), {
      relapse: true,
      cycles: true,
      thresholds: [3],
    })
    expect(summaries(agent)).toEqual(['grep → read_file × 3'])
  })
})
