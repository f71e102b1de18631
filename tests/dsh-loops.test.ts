import { defineContentToolFixture } from '@deepseek-ai/dsh-tools'
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import { describe, expect, it } from 'vitest'
import { RELAPSE_MEMORY } from '../src/guard.ts'
import { cycleReminder, detailedReminder, shortReminder, withheldFeedback } from '../src/reminders.ts'
import { afterCalls, harness, injected, runAgent, summaries, toolResults } from '../support/harness.ts'
import type { ScriptedCall, ScriptedTurn } from '../support/model.ts'
import { GREP, READ, times, turns } from './support/calls.ts'

const grep = (note: string, extra: Record<string, unknown> = {}): ScriptedCall => ({ name: 'grep', args: { pattern: 'x', note, ...extra } })

describe('ignoreArguments', () => {
  it('calls that differ only in an ignored argument are one run; the text names it and quotes the rest', async () => {
    const agent = await runAgent(turns(grep('a'), grep('b'), grep('c'), grep('d'), grep('e')), { ignoreArguments: ['grep.note'] })
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([
      [3, shortReminder(false, { omitted: ['note'] })],
      [5, detailedReminder('grep', 5, '{"pattern":"x"}', false, { omitted: ['note'] })],
    ])
    expect(injected(agent)[0]!.text).toBe('Reminder: you are repeating the exact same tool call with identical arguments (not counting `note`). '
      + 'Study its last result. If the task is not done, change your approach or your arguments instead of making the same call again.')
  })

  it('everything else still compares exactly: another kept argument starts a new run', async () => {
    const agent = await runAgent(turns(grep('a'), grep('b', { path: 'src' }), grep('c', { path: 'src' })), { ignoreArguments: ['grep.note'], thresholds: [2] })
    expect(afterCalls(agent)).toEqual([3])
  })

  it('an entry applies only to the tools its pattern matches', async () => {
    const read = (note: string): ScriptedCall => ({ name: 'read_file', args: { path: 'a.ts', note } })
    const agent = await runAgent(turns(read('a'), read('b'), read('c')), { ignoreArguments: ['grep.note'], thresholds: [2] })
    expect(injected(agent)).toEqual([])
  })

  it('every matching entry applies: a * pattern and a tool\'s own entry leave out both arguments', async () => {
    const calls = [grep('a', { why: '1' }), grep('b', { why: '2' }), grep('c', { why: '3' })]
    const agent = await runAgent(turns(...calls), { ignoreArguments: ['*.why', 'gr*.note'], thresholds: [3] })
    expect(injected(agent).map((r) => r.text)).toEqual([shortReminder(false, { omitted: ['note', 'why'] })])
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
    const agent = await runAgent(turns(grep('a'), READ, grep('b'), READ), { cycles: true, thresholds: [2], ignoreArguments: ['grep.note'] })
    expect(injected(agent).map((r) => r.text)).toEqual([
      cycleReminder([{ tool: 'grep', preview: '{"pattern":"x"}' }, { tool: 'read_file', preview: '{"path":"a.ts"}' }], 2, false, { omitted: ['note'] }),
    ])
    expect(injected(agent)[0]!.text).toMatch(/^Reminder: you are repeating the same sequence of 2 tool calls with identical arguments \(not counting `note`\); it has now run 2 times in a row:\n/)
  })

  it('a cycle whose calls leave out different arguments names them all once, in order', async () => {
    const read = (alpha: string): ScriptedCall => ({ name: 'read_file', args: { path: 'a.ts', alpha, note: alpha } })
    const agent = await runAgent(turns(grep('a'), read('1'), grep('b'), read('2')), { cycles: true, thresholds: [2], ignoreArguments: ['grep.note', 'read_file.alpha', 'read_file.note'] })
    expect(injected(agent)[0]!.text).toMatch(/^Reminder: you are repeating the same sequence of 2 tool calls with identical arguments \(not counting `alpha`, `note`\); it has now run 2 times in a row:\n/)
  })

  it('a withheld result names what was left out', async () => {
    const agent = await runAgent(turns(grep('a'), grep('b')), { ignoreArguments: ['grep.note'], thresholds: [2], blockAt: 2 })
    expect(toolResults(agent).at(-1)).toEqual([true, withheldFeedback(['grep'], 2, false, { omitted: ['note'] }, false)])
    expect(withheldFeedback(['grep'], 2, false, { omitted: ['note', 'why'] })).toContain('`grep` 2 times in a row with identical arguments (not counting `note`, `why`), and the repeats')
  })
})

describe('resultAware for some tools', () => {
  it('a list applies it to the matching tools only: the pager is not a loop, the grep still is', async () => {
    const h = await harness(turns(...times(3, { name: 'scroll', args: {} }), ...times(3, GREP)), { resultAware: ['scr*'], thresholds: [2, 3] })
    let page = 0
    h.ctx.tools.register(defineContentToolFixture({ name: 'scroll', description: 'Next page.', parameters: {}, async execute() { return [{ type: 'text', text: `page ${++page}` }] } }))
    const agent = await h.run()
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([[5, shortReminder()], [6, detailedReminder('grep', 3, '{"pattern":"x"}')]])
  })

  it('a tool whose blocks are null or hold no string is compared as it is, and its results go through unchanged', async () => {
    const odd = [null, { type: 'text', text: 7 }] as unknown as ContentBlock[]
    const h = await harness(turns(...times(3, { name: 'odd', args: {} })), { resultAware: true, thresholds: [3] })
    h.ctx.tools.register(defineContentToolFixture({ name: 'odd', description: 'Odd.', parameters: {}, async execute() { return odd } }))
    const agent = await h.run()
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([[3, shortReminder(true)]])
    const results = agent.session.events.flatMap((event) => event.type === 'tool/result' ? [event.data.message.content[0]!] : [])
    expect(results.map((r) => [r.isError ?? false, r.content])).toEqual([[false, odd], [false, odd], [false, odd]])
  })

  it('the texts say the results repeated only for a tool that compares them', async () => {
    const agent = await runAgent(turns(...times(2, GREP)), { resultAware: ['grep'], thresholds: [2] })
    expect(injected(agent).map((r) => r.text)).toEqual([shortReminder(true)])
  })

  it('an empty list compares no tool\'s results', async () => {
    const agent = await runAgent(turns(...times(2, GREP)), { resultAware: [], thresholds: [2] })
    expect(injected(agent).map((r) => r.text)).toEqual([shortReminder()])
  })

  it('a cycle says its results repeated only when every one of its tools compares them', async () => {
    const agent = await runAgent(turns(GREP, READ, GREP, READ), { cycles: true, thresholds: [2], resultAware: ['grep'] })
    expect(injected(agent).map((r) => r.text)).toEqual([cycleReminder([{ tool: 'grep', preview: '{"pattern":"x"}' }, { tool: 'read_file', preview: '{"path":"a.ts"}' }], 2)])
  })
})

describe('relapse', () => {
  it('grep ×3, read, grep ×3: short after call 3, detailed after call 6, which says the run came back', async () => {
    const agent = await runAgent(turns(...times(3, GREP), READ, ...times(3, GREP)), { relapse: true })
    expect(injected(agent).map((r) => [r.afterCall, r.text, (r.source as { summary: string }).summary])).toEqual([
      [3, shortReminder(), 'grep × 3'],
      [6, detailedReminder('grep', 5, '{"pattern":"x"}', false, { resumed: true }), 'grep × 5'],
    ])
    expect(injected(agent)[1]!.text).toBe('Reminder: you have called `grep` 5 times, coming back to it after other calls, with identical arguments:\n{"pattern":"x"}\n'
      + 'These repeats are making no progress. Do not call this tool with these exact arguments again. '
      + 'Inspect the latest result and choose a different action or different arguments, or finish if you already have enough evidence.')
  })

  it('without it (the default) the interrupted run starts over: both reminders are the short one', async () => {
    const agent = await runAgent(turns(...times(3, GREP), READ, ...times(3, GREP)))
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([[3, shortReminder()], [7, shortReminder()]])
  })

  it('a run resumed at the first threshold gets the short text, saying it came back', async () => {
    const agent = await runAgent(turns(GREP, READ, GREP, GREP), { relapse: true })
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([[4, shortReminder(false, { resumed: true })]])
    expect(injected(agent)[0]!.text).toMatch(/^Reminder: you are repeating the exact same tool call with identical arguments, coming back to it after other calls\. /)
  })

  it('the interrupting calls keep their own runs, which resume too', async () => {
    const agent = await runAgent(turns(GREP, READ, GREP, READ, GREP, READ), { relapse: true, thresholds: [3] })
    expect(summaries(agent)).toEqual(['grep × 3', 'read_file × 3'])
    expect(afterCalls(agent)).toEqual([5, 6])
  })

  it(`each agent remembers its ${RELAPSE_MEMORY} latest interrupted runs: a call back after ${RELAPSE_MEMORY} other calls still resumes, after ${RELAPSE_MEMORY + 1} it starts over`, async () => {
    expect(RELAPSE_MEMORY).toBe(8)
    const others = (n: number) => Array.from({ length: n }, (_, i): ScriptedCall => ({ name: 'read_file', args: { path: `${i}.ts` } }))
    const kept = await runAgent(turns(GREP, GREP, ...others(RELAPSE_MEMORY), GREP), { relapse: true, thresholds: [3] })
    expect(afterCalls(kept)).toEqual([RELAPSE_MEMORY + 3])
    const lost = await runAgent(turns(GREP, GREP, ...others(RELAPSE_MEMORY + 1), GREP), { relapse: true, thresholds: [3] })
    expect(injected(lost)).toEqual([])
  })

  it('a user prompt forgets the interrupted runs', async () => {
    const h = await harness([...turns(GREP, GREP, READ), { text: 'pause' }, ...turns(GREP)], { relapse: true, thresholds: [3] })
    const { agent } = await h.agent()
    await h.prompt(agent, 'one')
    await h.prompt(agent, 'two')
    expect(injected(agent)).toEqual([])
  })

  it('with resultAware, a call back whose result changed starts over', async () => {
    const h = await harness(turns(...times(2, { name: 'poll', args: {} }), READ, { name: 'poll', args: {} }), { relapse: true, resultAware: true, thresholds: [3] })
    const outputs = ['1%', '1%', '40%']
    h.ctx.tools.register(defineContentToolFixture({ name: 'poll', description: 'Poll.', parameters: {}, async execute() { return [{ type: 'text', text: outputs.shift()! }] } }))
    const agent = await h.run()
    expect(injected(agent)).toEqual([])
  })

  it('blockAt counts the resumed run, and the withheld feedback says it came back', async () => {
    const agent = await runAgent(turns(GREP, GREP, READ, GREP), { relapse: true, thresholds: [2], blockAt: 3 })
    expect(toolResults(agent).at(-1)).toEqual([true, withheldFeedback(['grep'], 3, false, { resumed: true }, false)])
    expect(withheldFeedback(['grep'], 3, false, { resumed: true })).toContain('you have made this exact call to `grep` 3 times, coming back to it after other calls, with identical arguments, and the repeats')
  })

  it('with cycles, a repeating cycle is still reminded as a cycle, not as the relapse of its calls', async () => {
    const agent = await runAgent(turns(GREP, READ, GREP, READ, GREP, READ), { relapse: true, cycles: true, thresholds: [3] })
    expect(summaries(agent)).toEqual(['grep → read_file × 3'])
  })
})

describe('parallel calls in one step', () => {
  it('the loop runs them in a pool and they finish out of order; the guard counts them in model order', async () => {
    const finished: number[] = []
    const waiting: (() => void)[] = []
    const call = (id: number, key: string): ScriptedCall => ({ name: 'slow', args: { key, id } })
    const h = await harness([{ calls: [call(1, 'a'), call(2, 'a'), call(3, 'b'), call(4, 'a')] }], { thresholds: [2, 3], ignoreArguments: ['slow.id'] })
    h.ctx.tools.register(defineContentToolFixture({
      name: 'slow',
      description: 'A parallel-safe call that waits until every call of the step has started.',
      parameters: { key: { type: 'string' }, id: { type: 'number' } },
      isConcurrencySafe: () => true,
      async execute(args) {
        const { promise, resolve } = Promise.withResolvers<void>()
        waiting.push(resolve)
        // Once all four run at once, release them last-started first: 3, 2 and 1 finish before 4, which releases them.
        if (waiting.length === 4) for (const release of waiting.reverse()) release()
        await promise
        finished.push(args.id!)
        return [{ type: 'text', text: `done ${args.key}` }]
      },
    }))
    const agent = await h.run()
    expect(finished).toEqual([3, 2, 1, 4])
    // In model order a, a, b, a: one run of two. In the order they finished (b, a, a, a) it would be a run of three.
    expect(summaries(agent)).toEqual(['slow × 2'])
  })

  it('identical calls in one response count one each, in the order the model wrote them', async () => {
    const agent = await runAgent([{ calls: [GREP, GREP, GREP, READ] }])
    // A step's result contexts follow all of its results.
    expect(injected(agent).map((r) => [r.afterCall, r.text, (r.source as { summary: string }).summary])).toEqual([[4, shortReminder(), 'grep × 3']])
  })
})
