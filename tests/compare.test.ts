import { defineContentToolFixture } from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import { cycleReminder } from '../src/rules/cycle.ts'
import { detailedReminder, shortReminder } from '../src/rules/run.ts'
import { withheldFeedback } from '../src/texts.ts'
import { afterCalls, harness, injected, runAgent, toolResults } from '../support/harness.ts'
import type { ScriptedCall } from '../support/model.ts'
import { GREP, READ, turns } from './support/calls.ts'
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import { times } from './support/calls.ts'

const POLL: ScriptedCall = { name: 'poll', args: { job: 7 } }
/** A grep carrying a prose `note` (and more arguments), as `ignoreArguments` and `relapse` compare it. */
const grep = (note: string, extra: Record<string, unknown> = {}): ScriptedCall => ({
  name: 'grep',
  args: { pattern: 'x', note, ...extra },
})
const cycle = (times: number, ...calls: ScriptedCall[]) => turns(...Array.from({ length: times }, () => calls).flat())
/** An agent polling one job whose status reads `outputs` in turn; `FAIL` makes the poll throw. */
async function polling(config: Record<string, unknown>, outputs: string[]) {
  const h = await harness(turns(...outputs.map(() => POLL)), config)
  let i = 0
  h.ctx.tools.register(
    defineContentToolFixture({
      name: 'poll',
      description: 'Read the status of a job.',
      parameters: { job: { type: 'number' } },
      async execute() {
        const output = outputs[i++]!
        if (output === 'FAIL') throw new Error('job lost')
        return [{ type: 'text', text: output }]
      },
    }),
  )
  return h.run()
}

describe('resultAware', () => {
  it('a poll that sees new output each time is not a loop', async () => {
    const agent = await polling({ thresholds: [2], resultAware: true }, ['1%', '40%', '90%'])
    expect(injected(agent)).toEqual([])
  })

  it('without it, the same poll is a run of identical calls', async () => {
    const agent = await polling({ thresholds: [2] }, ['1%', '40%', '90%'])
    expect(afterCalls(agent)).toEqual([2])
  })

  it('a repeat whose outcome repeats too extends the run', async () => {
    const agent = await polling({ thresholds: [2, 3], resultAware: true }, ['1%', '40%', '40%', '40%'])
    expect(afterCalls(agent)).toEqual([3, 4])
  })

  it('a call that starts failing has a new outcome and starts a new run', async () => {
    const agent = await polling({ thresholds: [2], resultAware: true }, ['done', 'done', 'FAIL', 'FAIL'])
    expect(afterCalls(agent)).toEqual([2, 4])
  })
  it('the texts say the results repeated too, and count the calls whose results did', async () => {
    const agent = await polling({ thresholds: [3, 5], resultAware: true, blockAt: 5 }, [
      '1%',
      '40%',
      '90%',
      'stuck',
      'stuck',
      'stuck',
      'stuck',
      'stuck',
    ])
    expect(injected(agent).map((r) => [r.afterCall, r.text, (r.source as { summary: string }).summary])).toEqual([
      [6, shortReminder({ sameResults: true }), 'poll × 3'],
      [8, detailedReminder('poll', 5, '{"job":7}', { sameResults: true }), 'poll × 5'],
    ])
    expect(toolResults(agent).at(-1)).toEqual([true, withheldFeedback(['poll'], 5, { sameResults: true })])
  })

  it('the resultAware texts, exactly', () => {
    expect(shortReminder({ sameResults: true })).toBe(
      'Reminder: you are repeating the exact same tool call with identical ' +
        'arguments, and it keeps returning the same result. ' +
        'Study its last result. If the task is not done, change your approach ' +
        'or your arguments instead of making the same call again.',
    )
    expect(detailedReminder('poll', 5, '{"job":7}', { sameResults: true })).toBe(
      'Reminder: you have called `poll` 5 times in a row with identical ' +
        'arguments and got the same result each time:\n' +
        '{"job":7}\n' +
        'These repeats are making no progress. Do not call this tool with these exact arguments again. ' +
        'Inspect the latest result and choose a different action or different ' +
        'arguments, or finish if you already have enough evidence.',
    )
    expect(
      cycleReminder(
        [
          { tool: 'grep', preview: '{}' },
          { tool: 'read_file', preview: '{}' },
        ],
        2,
        { sameResults: true },
      ),
    ).toMatch(
      new RegExp(
        '^Reminder: you are repeating the same sequence of 2 tool calls with identical arguments ' +
          'and identical results; it has now run 2 times in a row:\n',
      ),
    )
    expect(withheldFeedback(['poll'], 5, { sameResults: true })).toBe(
      'Result withheld by repeat-tool-reminder: you have made this exact ' +
        'call to `poll` 5 times in a row with identical arguments and identical results, ' +
        'and the repeats are making no progress. The call did run, but its ' +
        'result is not shown again. Do not repeat it with the same arguments: ' +
        'use the results you already have, take a different action or different arguments, or finish.',
    )
    expect(withheldFeedback(['grep', 'read_file'], 2, { sameResults: true })).toContain(
      '(grep → read_file) 2 times in a row with identical arguments and identical results, and',
    )
  })

  it('a cycle of calls whose results repeat gets the cycle text that says so', async () => {
    const agent = await runAgent(cycle(2, GREP, READ), { cycles: true, resultAware: true, thresholds: [2] })
    expect(injected(agent).map((r) => r.text)).toEqual([
      cycleReminder(
        [
          { tool: 'grep', preview: '{"pattern":"x"}' },
          { tool: 'read_file', preview: '{"path":"a.ts"}' },
        ],
        2,
        { sameResults: true },
      ),
    ])
  })
})

describe('resultAware for some tools', () => {
  it('a list applies it to the matching tools only: the pager is not a loop, the grep still is', async () => {
    const h = await harness(turns(...times(3, { name: 'scroll', args: {} }), ...times(3, GREP)), {
      resultAware: ['scr*'],
      thresholds: [2, 3],
    })
    let page = 0
    h.ctx.tools.register(
      defineContentToolFixture({
        name: 'scroll',
        description: 'Next page.',
        parameters: {},
        async execute() {
          return [{ type: 'text', text: `page ${++page}` }]
        },
      }),
    )
    const agent = await h.run()
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([
      [5, shortReminder()],
      [6, detailedReminder('grep', 3, '{"pattern":"x"}')],
    ])
  })

  it(
    'a tool whose blocks are null or hold no string is compared as it ' + 'is, and its results go through unchanged',
    async () => {
      const odd = [null, { type: 'text', text: 7 }] as unknown as ContentBlock[]
      const h = await harness(turns(...times(3, { name: 'odd', args: {} })), { resultAware: true, thresholds: [3] })
      h.ctx.tools.register(
        defineContentToolFixture({
          name: 'odd',
          description: 'Odd.',
          parameters: {},
          async execute() {
            return odd
          },
        }),
      )
      const agent = await h.run()
      expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([[3, shortReminder({ sameResults: true })]])
      const results = agent.session.events.flatMap((event) =>
        event.type === 'tool/result' ? [event.data.message.content[0]!] : [],
      )
      expect(results.map((r) => [r.isError ?? false, r.content])).toEqual([
        [false, odd],
        [false, odd],
        [false, odd],
      ])
    },
  )

  it('the texts say the results repeated only for a tool that compares them', async () => {
    const agent = await runAgent(turns(...times(2, GREP)), { resultAware: ['grep'], thresholds: [2] })
    expect(injected(agent).map((r) => r.text)).toEqual([shortReminder({ sameResults: true })])
  })

  it("an empty list compares no tool's results", async () => {
    const agent = await runAgent(turns(...times(2, GREP)), { resultAware: [], thresholds: [2] })
    expect(injected(agent).map((r) => r.text)).toEqual([shortReminder()])
  })

  it('a cycle says its results repeated only when every one of its tools compares them', async () => {
    const agent = await runAgent(turns(GREP, READ, GREP, READ), {
      cycles: true,
      thresholds: [2],
      resultAware: ['grep'],
    })
    expect(injected(agent).map((r) => r.text)).toEqual([
      cycleReminder(
        [
          { tool: 'grep', preview: '{"pattern":"x"}' },
          { tool: 'read_file', preview: '{"path":"a.ts"}' },
        ],
        2,
      ),
    ])
  })
})

describe('ignoreArguments', () => {
  it('calls that differ only in an ignored argument are one run; the text names it and quotes the rest', async () => {
    const agent = await runAgent(turns(grep('a'), grep('b'), grep('c'), grep('d'), grep('e')), {
      ignoreArguments: ['grep.note'],
    })
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([
      [3, shortReminder({ omitted: ['note'] })],
      [5, detailedReminder('grep', 5, '{"pattern":"x"}', { omitted: ['note'] })],
    ])
    expect(injected(agent)[0]!.text).toBe(
      'Reminder: you are repeating the exact same tool call with identical arguments (not counting `note`). ' +
        'Study its last result. If the task is not done, change your approach ' +
        'or your arguments instead of making the same call again.',
    )
  })

  it('everything else still compares exactly: another kept argument starts a new run', async () => {
    const agent = await runAgent(turns(grep('a'), grep('b', { path: 'src' }), grep('c', { path: 'src' })), {
      ignoreArguments: ['grep.note'],
      thresholds: [2],
    })
    expect(afterCalls(agent)).toEqual([3])
  })

  it('an entry applies only to the tools its pattern matches', async () => {
    const read = (note: string): ScriptedCall => ({ name: 'read_file', args: { path: 'a.ts', note } })
    const agent = await runAgent(turns(read('a'), read('b'), read('c')), {
      ignoreArguments: ['grep.note'],
      thresholds: [2],
    })
    expect(injected(agent)).toEqual([])
  })

  it("every matching entry applies: a * pattern and a tool's own entry leave out both arguments", async () => {
    const calls = [grep('a', { why: '1' }), grep('b', { why: '2' }), grep('c', { why: '3' })]
    const agent = await runAgent(turns(...calls), { ignoreArguments: ['*.why', 'gr*.note'], thresholds: [3] })
    expect(injected(agent).map((r) => r.text)).toEqual([shortReminder({ omitted: ['note', 'why'] })])
  })

  it('a call without the ignored argument is the same as one with it', async () => {
    const agent = await runAgent(turns(GREP, grep('a'), GREP), { ignoreArguments: ['grep.note'], thresholds: [3] })
    expect(injected(agent).map((r) => r.text)).toEqual([shortReminder()])
  })

  it('arguments that are not an object compare whole', async () => {
    const raw: ScriptedCall = { name: 'grep', args: '{"pattern":' }
    const agent = await runAgent(turns(raw, raw), { ignoreArguments: ['grep.pattern'], thresholds: [2] })
    expect(afterCalls(agent)).toEqual([2])
  })

  it('a cycle quotes its calls as compared and names what was left out', async () => {
    const agent = await runAgent(turns(grep('a'), READ, grep('b'), READ), {
      cycles: true,
      thresholds: [2],
      ignoreArguments: ['grep.note'],
    })
    expect(injected(agent).map((r) => r.text)).toEqual([
      cycleReminder(
        [
          { tool: 'grep', preview: '{"pattern":"x"}' },
          { tool: 'read_file', preview: '{"path":"a.ts"}' },
        ],
        2,
        { omitted: ['note'] },
      ),
    ])
    expect(injected(agent)[0]!.text).toMatch(
      new RegExp(
        '^Reminder: you are repeating the same sequence of 2 tool calls with identical arguments ' +
          '\\(not counting `note`\\); it has now run 2 times in a row:\n',
      ),
    )
  })

  it('a cycle whose calls leave out different arguments names them all once, in order', async () => {
    const read = (alpha: string): ScriptedCall => ({ name: 'read_file', args: { path: 'a.ts', alpha, note: alpha } })
    const agent = await runAgent(turns(grep('a'), read('1'), grep('b'), read('2')), {
      cycles: true,
      thresholds: [2],
      ignoreArguments: ['grep.note', 'read_file.alpha', 'read_file.note'],
    })
    expect(injected(agent)[0]!.text).toMatch(
      new RegExp(
        '^Reminder: you are repeating the same sequence of 2 tool calls with identical arguments ' +
          '\\(not counting `alpha`, `note`\\); it has now run 2 times in a row:\n',
      ),
    )
  })

  it('a withheld result names what was left out', async () => {
    const agent = await runAgent(turns(grep('a'), grep('b')), {
      ignoreArguments: ['grep.note'],
      thresholds: [2],
      blockAt: 2,
    })
    expect(toolResults(agent).at(-1)).toEqual([true, withheldFeedback(['grep'], 2, { omitted: ['note'], ran: false })])
    expect(withheldFeedback(['grep'], 2, { omitted: ['note', 'why'] })).toContain(
      '`grep` 2 times in a row with identical arguments (not counting `note`, `why`), and the repeats',
    )
  })
})
