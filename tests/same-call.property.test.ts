import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { harness, injected } from '../support/harness.ts'
import type { ScriptedTurn } from '../support/model.ts'
import { turns } from './support/calls.ts'

describe('one call, one key (property-based)', () => {
  it('two calls are the same exactly when their arguments are equal JSON values, in any key order', async () => {
    const queue: ScriptedTurn[] = []
    const h = await harness(() => queue.shift() ?? { text: 'done' }, { thresholds: [2] })
    const { agent } = await h.agent()
    const pairs = fc.oneof(
      fc.jsonValue().chain((v) => fc.tuple(fc.constant(v), reordered(v))),
      fc.tuple(fc.jsonValue(), fc.jsonValue()),
      fc.jsonValue().chain((v) =>
        fc.tuple(
          fc.constant(v),
          fc.jsonValue().map((leaf) => ({ wrapped: v, leaf })),
        ),
      ),
    )
    await fc.assert(
      fc.asyncProperty(pairs, async ([first, second]) => {
        const before = injected(agent).length
        queue.push(probe(first), probe(second))
        await h.prompt(agent)
        const reminded = injected(agent).length - before === 1
        expect(reminded).toBe(reference(first) === reference(second))
      }),
      { numRuns: 200 },
    )
  }, 60_000)
})

/** A probe call with `args` written as JSON text, in a model response of its own. */
function probe(args: unknown): ScriptedTurn {
  return turns({ name: 'probe', args: JSON.stringify(args) })[0]!
}

/** The same JSON value written with every object's keys in a shuffled order. */
function reordered(value: unknown): fc.Arbitrary<unknown> {
  if (Array.isArray(value)) return fc.tuple(...value.map(reordered)).map((items) => items)
  if (value === null || typeof value !== 'object') return fc.constant(value)
  const entries = Object.entries(value)
  return fc
    .tuple(fc.shuffledSubarray(entries, { minLength: entries.length }), ...entries.map(([, v]) => reordered(v)))
    .map(([order, ...values]) => {
      const byKey = new Map(entries.map(([k], i) => [k, values[i]]))
      return Object.fromEntries(order.map(([k]) => [k, byKey.get(k)]))
    })
}

/** An independent, recursive reference for the canonical form (small values only). */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  const keys = Object.keys(value).sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`).join(',')}}`
}
