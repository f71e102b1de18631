import { describe, expect, it } from 'vitest'
import { shortReminder } from '../src/rules/run.ts'
import { afterCalls, injected, runAgent, type Injected } from '../support/harness.ts'
import type { ScriptedCall, ScriptedTurn } from '../support/model.ts'
import { source, turns } from './support/calls.ts'
import { defineContentToolFixture } from '@deepseek-ai/dsh-tools'
import { harness, summaries } from '../support/harness.ts'
import { GREP, READ } from './support/calls.ts'

const GREP_X: ScriptedCall = { name: 'grep', args: { pattern: 'x', path: 'src' } }

describe('one call, one key', () => {
  it('object keys in any order, at any depth, are the same arguments', async () => {
    const agent = await run(
      turns(
        { name: 'grep', args: { pattern: 'x', path: 'src', opts: { a: 1, b: [1, { c: 2, d: 3 }] } } },
        { name: 'grep', args: { opts: { b: [1, { d: 3, c: 2 }], a: 1 }, path: 'src', pattern: 'x' } },
        { name: 'grep', args: { path: 'src', opts: { a: 1, b: [1, { c: 2, d: 3 }] }, pattern: 'x' } },
      ),
    )
    expect(afterCalls(agent)).toEqual([3])
  })

  it('arguments that differ in one leaf are different calls', async () => {
    const agent = await run(
      turns(
        { name: 'grep', args: { pattern: 'x', path: { deep: ['src', 1] } } },
        { name: 'grep', args: { pattern: 'x', path: { deep: ['src', 2] } } },
        { name: 'grep', args: { pattern: 'x', path: { deep: ['src', 1] } } },
      ),
    )
    expect(afterCalls(agent)).toEqual([])
  })

  it.each([
    ['a string and a number', { n: '1' }, { n: 1 }],
    ['an array and an object', { n: [] }, { n: {} }],
    ['null and a missing key', { n: null }, {}],
    ['false and 0', { n: false }, { n: 0 }],
    ['arrays in another order', { n: [1, 2] }, { n: [2, 1] }],
    ['an array with one more element', { n: [1, 2] }, { n: [1, 2, 3] }],
    ['an object with one more key', { n: { a: 1 } }, { n: { a: 1, b: 1 } }],
    ['objects with other key names', { n: { a: 1 } }, { n: { b: 1 } }],
    ['an array and an object with index keys', { n: ['a'] }, { n: { 0: 'a' } }],
    ['a malformed raw string and an object', '{"pattern":"x"', { pattern: 'x' }],
  ])('%s are never the same', async (_label, first, second) => {
    const agent = await run(
      turns({ name: 'grep', args: first }, { name: 'grep', args: second }, { name: 'grep', args: first }),
      [2],
    )
    expect(afterCalls(agent)).toEqual([])
  })

  it('large objects are compared key by key, in any key order, however often they repeat', async () => {
    const large = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]))
    const reversed = Object.fromEntries(Object.entries(large).reverse())
    const agent = await run(
      turns(
        { name: 'grep', args: large },
        { name: 'grep', args: reversed },
        { name: 'grep', args: large },
        { name: 'grep', args: { ...large, k39: -1 } },
      ),
      [2, 3, 4],
    )
    expect(afterCalls(agent)).toEqual([2, 3])
  })

  it('malformed JSON arguments are compared as their raw string', async () => {
    const agent = await run(
      turns(
        { name: 'grep', args: '{"pattern": "x"' },
        { name: 'grep', args: '{"pattern": "x"' },
        { name: 'grep', args: '{"pattern": "x"' },
      ),
    )
    expect(afterCalls(agent)).toEqual([3])
  })

  it('two malformed strings that differ are different calls', async () => {
    const agent = await run(
      turns(
        { name: 'grep', args: '{"pattern": "x"' },
        { name: 'grep', args: '{"pattern":"x"' },
        { name: 'grep', args: '{"pattern": "x"' },
      ),
      [2],
    )
    expect(afterCalls(agent)).toEqual([])
  })

  it('the same arguments under another tool name are a different call', async () => {
    const args = { path: 'a' }
    const agent = await run(
      turns({ name: 'read_file', args }, { name: 'grep', args }, { name: 'read_file', args }),
      [2],
    )
    expect(afterCalls(agent)).toEqual([])
  })
})

describe('counting', () => {
  it('a tracked call equal to the previous one adds one to the run', async () => {
    const agent = await run(turns(GREP_X, GREP_X, GREP_X))
    expect(injected(agent)).toEqual([reminder(3, shortReminder(), 'grep × 3')])
  })

  it('any other tracked call starts a new run at 1', async () => {
    const agent = await run(turns(GREP_X, GREP_X, { name: 'read_file', args: { path: 'a' } }, GREP_X, GREP_X, GREP_X))
    expect(afterCalls(agent)).toEqual([6])
  })

  it('calls in one model response count one after the other', async () => {
    const agent = await run([{ calls: [GREP_X, GREP_X, GREP_X] }])
    expect(afterCalls(agent)).toEqual([3])
  })
})

describe('untracked calls are transparent', () => {
  it('an excluded call between two equal calls neither counts nor resets', async () => {
    const todo = { name: 'todo_write', args: { todos: ['a'] } }
    const agent = await run(turns(GREP_X, todo, GREP_X), [2], { exclude: ['todo_write'] })
    expect(injected(agent)).toEqual([reminder(3, shortReminder(), 'grep × 2')])
  })

  it('excluded calls never get a reminder, however often they repeat', async () => {
    const todo = { name: 'todo_write', args: { todos: ['a'] } }
    const agent = await run(turns(todo, todo, todo, todo), [2], { exclude: ['todo_*'] })
    expect(afterCalls(agent)).toEqual([])
  })

  it('include tracks only the tools it names', async () => {
    const read = { name: 'read_file', args: { path: 'a' } }
    const agent = await run(turns(read, read, GREP_X, GREP_X), [2], { include: ['grep'] })
    expect(injected(agent).map((r) => r.source)).toEqual([source('grep × 2')])
  })

  it('exclude wins over include', async () => {
    const agent = await run(turns(GREP_X, GREP_X), [2], { include: ['gr*'], exclude: ['grep'] })
    expect(afterCalls(agent)).toEqual([])
  })

  it.each([
    ['*', 'read_file', true],
    ['read_*', 'read_file', true],
    ['*_file', 'read_file', true],
    ['r*d*e', 'read_file', true],
    ['read*file', 'read_file', true],
    ['re**le', 'read_file', true],
    ['*read_file*', 'read_file', true],
    ['read', 'read_file', false],
    ['ead_file', 'read_file', false],
    ['read_fil', 'read_file', false],
    ['*x*', 'read_file', false],
    ['read_file*e', 'read_file', false],
    ['r*d*d*e', 'read_file', false],
    ['pr.be', 'probe', false],
    ['pr.be', 'pr.be', true],
    ['p[r]obe', 'probe', false],
    ['probe?', 'probe1', false],
  ])('pattern %j matching %j is %s (whole name, only * is special)', async (pattern, tool, hit) => {
    const agent = await run(turns({ name: tool, args: {} }, { name: tool, args: {} }), [2], { include: [pattern] })
    expect(afterCalls(agent)).toEqual(hit ? [2] : [])
  })

  it('a pattern that matches no registered tool is valid', async () => {
    const agent = await run(turns(GREP_X, GREP_X), [2], { exclude: ['mcp_*'] })
    expect(afterCalls(agent)).toEqual([2])
  })

  it('matching is linear: pathological patterns against a 100,000-character name finish', async () => {
    const tool = 'a'.repeat(100_000)
    const hit = `*${'a*'.repeat(2_000)}`
    const miss = `${'a*'.repeat(2_000)}${'a'.repeat(50_000)}b*a`
    const agent = await run(turns({ name: tool, args: {} }, { name: tool, args: {} }), [2], {
      include: [hit],
      exclude: [miss],
    })
    expect(afterCalls(agent)).toEqual([2])
  })
})

function run(turns: ScriptedTurn[], thresholds = [3], config: Record<string, unknown> = {}) {
  return runAgent(turns, { thresholds, ...config })
}

function reminder(afterCall: number, text: string, summary: string): Injected {
  return { afterCall, text, source: source(summary) }
}

describe('parallel calls in one step', () => {
  it('the loop runs them in a pool and they finish out of order; the guard counts them in model order', async () => {
    const finished: number[] = []
    const waiting: (() => void)[] = []
    const call = (id: number, key: string): ScriptedCall => ({ name: 'slow', args: { key, id } })
    const h = await harness([{ calls: [call(1, 'a'), call(2, 'a'), call(3, 'b'), call(4, 'a')] }], {
      thresholds: [2, 3],
      ignoreArguments: ['slow.id'],
    })
    h.ctx.tools.register(
      defineContentToolFixture({
        name: 'slow',
        description: 'A parallel-safe call that waits until every call of the step has started.',
        parameters: { key: { type: 'string' }, id: { type: 'number' } },
        isConcurrencySafe: () => true,
        async execute(args) {
          const { promise, resolve } = Promise.withResolvers<void>()
          waiting.push(resolve)
          // Once all four run at once, release them last-started first: 3, 2 and 1 finish before 4,
          // which releases them.
          if (waiting.length === 4) for (const release of waiting.reverse()) release()
          await promise
          finished.push(args.id!)
          return [{ type: 'text', text: `done ${args.key}` }]
        },
      }),
    )
    const agent = await h.run()
    expect(finished).toEqual([3, 2, 1, 4])
    // In model order a, a, b, a: one run of two. In the order they finished (b, a, a, a) it would be a run of three.
    expect(summaries(agent)).toEqual(['slow × 2'])
  })

  it('identical calls in one response count one each, in the order the model wrote them', async () => {
    const agent = await runAgent([{ calls: [GREP, GREP, GREP, READ] }])
    // A step's result contexts follow all of its results.
    expect(injected(agent).map((r) => [r.afterCall, r.text, (r.source as { summary: string }).summary])).toEqual([
      [4, shortReminder(), 'grep × 3'],
    ])
  })
})
