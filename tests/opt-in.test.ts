import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { defineContentToolFixture, type PostToolDecision } from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import { cycleReminder, detailedReminder, shortReminder, withheldFeedback } from '../src/texts.ts'
import { afterCalls, harness, injected, runAgent, summaries, toolResults } from '../support/harness.ts'
import type { ScriptedCall } from '../support/model.ts'
import { GREP, READ, source, TODO, turns } from './support/calls.ts'
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import { RELAPSE_MEMORY } from '../src/rules/relapse.ts'
import { times } from './support/calls.ts'

const POLL: ScriptedCall = { name: 'poll', args: { job: 7 } }
/** A grep carrying a prose `note` (and more arguments), as `ignoreArguments` and `relapse` compare it. */
const grep = (note: string, extra: Record<string, unknown> = {}): ScriptedCall => ({
  name: 'grep',
  args: { pattern: 'x', note, ...extra },
})
const cycle = (times: number, ...calls: ScriptedCall[]) => turns(...Array.from({ length: times }, () => calls).flat())

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

describe('remindEvery', () => {
  it('past the last threshold, the detailed reminder comes back every N repeats', async () => {
    const agent = await runAgent(turns(...Array.from({ length: 10 }, () => GREP)), {
      thresholds: [2, 3],
      remindEvery: 3,
    })
    expect(afterCalls(agent)).toEqual([2, 3, 6, 9])
    expect(injected(agent)[3]?.text).toBe(detailedReminder('grep', 9, '{"pattern":"x"}'))
  })

  it('remindEvery 10 reminds at 18 and 28 after the defaults', async () => {
    const agent = await runAgent(turns(...Array.from({ length: 28 }, () => GREP)), { remindEvery: 10 })
    expect(afterCalls(agent)).toEqual([3, 5, 8, 18, 28])
  })

  it('remindEvery 1 reminds at every call past the last threshold, and only there', async () => {
    const agent = await runAgent(turns(...Array.from({ length: 10 }, () => GREP)), { remindEvery: 1 })
    expect(afterCalls(agent)).toEqual([3, 5, 8, 9, 10])
  })

  it('applies to cycles too', async () => {
    const agent = await runAgent(cycle(5, GREP, READ), { cycles: true, thresholds: [2], remindEvery: 2 })
    expect(summaries(agent)).toEqual(['grep → read_file × 2', 'grep → read_file × 4'])
  })
})

describe('blockAt', () => {
  it(
    'from blockAt on, every further call of the run is denied before ' +
      'it runs, with feedback; reminders due at the same count still come',
    async () => {
      const agent = await runAgent(turns(GREP, GREP, GREP, GREP, READ), { thresholds: [2, 3], blockAt: 3 })
      expect(toolResults(agent)).toEqual([
        [false, 'no match for x'],
        [false, 'no match for x'],
        [true, withheldFeedback(['grep'], 3, { ran: false })],
        [true, withheldFeedback(['grep'], 4, { ran: false })],
        [false, 'contents of a.ts'],
      ])
      expect(afterCalls(agent)).toEqual([2, 3])
    },
  )

  it('the feedback says what was withheld and what to do instead', () => {
    expect(withheldFeedback(['grep'], 8)).toBe(
      'Result withheld by repeat-tool-reminder: you have made this exact call to `grep` 8 times in a row ' +
        'with identical arguments, and the repeats are making no progress. ' +
        'The call did run, but its result is not shown again. ' +
        'Do not repeat it with the same arguments: use the results you already ' +
        'have, take a different action or different arguments, or finish.',
    )
    expect(withheldFeedback(['grep'], 8, { ran: false })).toBe(
      'Result withheld by repeat-tool-reminder: you have made this exact call to `grep` 8 times in a row ' +
        'with identical arguments, and the repeats are making no progress. ' +
        'This time the call was not run, so whatever it does has not happened again. ' +
        'Do not repeat it with the same arguments: use the results you already ' +
        'have, take a different action or different arguments, or finish.',
    )
    expect(withheldFeedback(['grep', 'read_file'], 8)).toContain(
      'you have repeated the same sequence of calls (grep → read_file) 8 times in a row',
    )
  })

  it(
    'after a call that ran (resultAware), a downstream block or replacement ' +
      'is respected; the reminder still comes first',
    async () => {
      const h = await harness(turns(GREP, GREP, GREP), { thresholds: [2, 3], blockAt: 3, resultAware: true })
      h.ctx.on('tools/post-execute', async () => ({ kind: 'accept', content: [{ type: 'text', text: 'redacted' }] }))
      const agent = await h.run()
      expect(toolResults(agent)).toEqual([
        [false, 'redacted'],
        [false, 'redacted'],
        [false, 'redacted'],
      ])
      expect(afterCalls(agent)).toEqual([2, 3])
    },
  )

  it.each<[string, PostToolDecision, [boolean, string]]>([
    [
      'a block keeps its own feedback',
      { kind: 'block', feedback: [{ type: 'text', text: 'denied by policy' }] },
      [true, 'denied by policy'],
    ],
    [
      'a replaced value is kept, not turned into a block',
      { kind: 'accept', value: [{ type: 'text', text: 'kept' }] },
      [false, 'kept'],
    ],
  ])(
    'after a call that ran (resultAware), downstream, %s; the reminder still comes',
    async (_label, decision, result) => {
      const h = await harness(turns(GREP, GREP), { thresholds: [2], blockAt: 2, resultAware: true })
      h.ctx.on('tools/post-execute', async () => decision)
      const agent = await h.run()
      expect(toolResults(agent)).toEqual([result, result])
      expect(afterCalls(agent)).toEqual([2])
    },
  )

  it('a block keeps the contexts a downstream listener attached', async () => {
    const h = await harness(turns(GREP, GREP), { thresholds: [2], blockAt: 2 })
    h.ctx.on('tools/post-execute', async (exec, _result, next) => {
      const decision = await next()
      const note = createUserMessage({
        content: [{ type: 'text', text: `note ${exec.callId}` }],
        source: { kind: 'plugin', plugin: 'policy' },
      })
      return { ...decision, additionalContexts: [note] }
    })
    const agent = await h.run()
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([
      [1, 'note call-1-1'],
      [2, shortReminder()],
      [2, 'note call-2-1'],
    ])
    expect(toolResults(agent).map(([isError]) => isError)).toEqual([false, true])
  })

  it('withholds a cycle from blockAt complete repetitions on, each call denied before it runs', async () => {
    const agent = await runAgent(cycle(3, GREP, READ), { cycles: true, thresholds: [2], blockAt: 2 })
    expect(toolResults(agent).map(([isError]) => isError)).toEqual([false, false, false, true, true, true])
    expect(toolResults(agent).slice(3)).toEqual([
      [true, withheldFeedback(['grep', 'read_file'], 2, { ran: false })],
      [true, withheldFeedback(['grep', 'read_file'], 2, { ran: false })],
      [true, withheldFeedback(['grep', 'read_file'], 3, { ran: false })],
    ])
  })
})

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

describe('relapse', () => {
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
