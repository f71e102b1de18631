import { defineContentToolFixture } from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import { detailedReminder, shortReminder } from '../src/rules/run.ts'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { harness, injected, runAgent as run } from '../support/harness.ts'
import type { ScriptedTurn } from '../support/model.ts'
import { times, turns } from './support/calls.ts'

const DEPTH = 100_001

// Seconds of work each on a busy machine (100,001 levels, 5 MB strings, through the real loop, its log and the
// canonical form): a slow run is not a wrong one, so each test gets 30 s instead of 5.
describe('hostile arguments', { timeout: 30_000 }, () => {
  it(`objects nested ${DEPTH.toLocaleString('en')} levels deep are compared and previewed`, async () => {
    const deep = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`
    const agent = await run(turns(...times(3, { name: 'grep', args: deep })), {
      thresholds: [2, 3],
      argumentsPreviewChars: 12,
    })
    expect(injected(agent).map((r) => r.text)).toEqual([
      shortReminder(),
      detailedReminder('grep', 3, `{"a":{"a":{"… (${deep.length - 12} more chars)`),
    ])
  })

  it('deep values that differ only at the bottom are different calls', async () => {
    const deep = (leaf: number) => `${'['.repeat(DEPTH)}${leaf}${']'.repeat(DEPTH)}`
    const agent = await run(
      [deep(1), deep(2), deep(1)].map((args) => grep(args)),
      { thresholds: [2] },
    )
    expect(injected(agent)).toEqual([])
  })

  it('multi-megabyte strings that need escaping are compared exactly and previewed by length', async () => {
    const content = 'line "quoted" \\ tab\t\n'.repeat(250_000)
    const agent = await run(turns(...times(3, { name: 'grep', args: { pattern: content } })), {
      thresholds: [2, 3],
      argumentsPreviewChars: 20,
    })
    const canonicalLength = JSON.stringify({ pattern: content }).length
    expect(content.length).toBeGreaterThan(5_000_000)
    expect(injected(agent).map((r) => r.text)).toEqual([
      shortReminder(),
      detailedReminder('grep', 3, `{"pattern":"line \\"q… (${canonicalLength - 20} more chars)`),
    ])
  })

  it('multi-megabyte strings that differ in their last character are different calls', async () => {
    const big = 'x'.repeat(4_000_000)
    const agent = await run(
      [`${big}a`, `${big}b`, `${big}a`].map((pattern) => grep({ pattern })),
      { thresholds: [2] },
    )
    expect(injected(agent)).toEqual([])
  })

  it('any key names, including __proto__ and constructor, are plain keys', async () => {
    const hostile = '{"__proto__":{"polluted":1},"constructor":{"prototype":2},"hasOwnProperty":3,"":4,"toString":5}'
    const agent = await run(
      [hostile, hostile, hostile].map((args) => grep(args)),
      { thresholds: [2, 3] },
    )
    expect(injected(agent).map((r) => r.text)).toEqual([
      shortReminder(),
      detailedReminder(
        'grep',
        3,
        '{"":4,"__proto__":{"polluted":1},"constructor":{"prototype":2},"hasOwnProperty":3,"toString":5}',
      ),
    ])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('an own __proto__ key is not the same as no key at all', async () => {
    const agent = await run(
      ['{"__proto__":{}}', '{}', '{"__proto__":{}}'].map((args) => grep(args)),
      { thresholds: [2] },
    )
    expect(injected(agent)).toEqual([])
  })

  it('empty arguments are the empty object, as the loop parses them', async () => {
    const agent = await run(
      ['', '{}'].map((args) => grep(args)),
      { thresholds: [2] },
    )
    expect(injected(agent).map((r) => r.afterCall)).toEqual([2])
  })

  it('malformed JSON of any shape never breaks a call', async () => {
    const shapes = ['{', '}}}', '[1,', 'null null', '\u0000', '{"a":1}}', 'undefined']
    const agent = await run(
      shapes.flatMap((args) => [grep(args), grep(args)]),
      { thresholds: [2] },
    )
    expect(injected(agent).map((r) => r.afterCall)).toEqual([2, 4, 6, 8, 10, 12, 14])
  })
})

/** A grep call with `args` as written, in a model response of its own. */
function grep(args: unknown): ScriptedTurn {
  return turns({ name: 'grep', args })[0]!
}

describe('arguments no harness delivers', () => {
  it(
    'arguments that throw when read: every listener goes on as for an ' +
      'untracked call, and nothing throws into the pipeline',
    async () => {
      const h = await harness([], { thresholds: [2], cycles: true, blockAt: 3 })
      const { agent } = await h.agent()
      const result = { isError: false as const, value: null, content: [{ type: 'text' as const, text: 'none' }] }
      for (let i = 0; i < 3; i++) {
        const hostile = new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error('no keys')
            },
          },
        )
        const exec = { agent, name: 'grep', arguments: hostile, callId: `c${i}` } as unknown as ToolExecution
        await expect(
          h.ctx.waterfall('tools/pre-execute', exec, async () => ({ kind: 'allow' as const })),
        ).resolves.toEqual({ kind: 'allow' })
        await expect(
          h.ctx.waterfall('tools/post-execute', exec, result, async () => ({ kind: 'accept' as const })),
        ).resolves.toEqual({ kind: 'accept' })
      }
    },
  )
})

describe('hostile results', { timeout: 30_000 }, () => {
  it('a result of 6 million digits, twice, under maskNoise: compared and reminded, not dropped', async () => {
    const digits = '7'.repeat(6_000_000)
    const h = await harness(turns(...times(2, { name: 'bignum', args: {} })), {
      thresholds: [2],
      resultAware: true,
      maskNoise: true,
    })
    h.ctx.tools.register(
      defineContentToolFixture({
        name: 'bignum',
        description: 'Print a big number.',
        parameters: {},
        async execute() {
          return [{ type: 'text', text: digits }]
        },
      }),
    )
    const agent = await h.run()
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([[2, shortReminder({ sameResults: true })]])
  })
})
