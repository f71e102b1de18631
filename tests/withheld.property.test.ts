import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Config } from '../src/config.ts'
import { createGuard } from '../src/guard.ts'

/** One call of a random sequence: a tool, an item, and what it returned. */
interface Step {
  tool: string
  item: number
  result: { isError: boolean; text: string }
}

const steps = fc.array(
  fc.record({
    tool: fc.constantFrom('download', 'fetch'),
    item: fc.integer({ min: 0, max: 2 }),
    result: fc.constantFrom(
      { isError: false, text: 'downloaded' },
      { isError: false, text: 'other' },
      { isError: true, text: 'error: quota exceeded' },
      { isError: true, text: 'error: disk full' },
    ),
  }),
  { maxLength: 24 },
)

const same = (a: Step, b: Step) => a.tool === b.tool && a.item === b.item

/**
 * Whether a withheld text's claim holds of the calls it speaks of (`calls`, oldest first, the call in
 * hand last): identical arguments for a run, the same sequence for a cycle, the same error for a
 * failure run.
 */
function claimHolds(text: string, calls: readonly Step[]): boolean {
  const count = Number(/ (\d+) (?:times|calls)/.exec(text)![1])
  if (text.includes('failed with the same error')) {
    const run = calls.slice(-count)
    return run.length === count && run.every((c) => c.tool === run[0]!.tool && c.result.isError)
  }
  if (text.includes('this exact call')) {
    const run = calls.slice(-count)
    const resultsToo = text.includes('identical results')
    return (
      run.length === count &&
      run.every((c) => same(c, run.at(-1)!) && (!resultsToo || c.result.text === run.at(-1)!.result.text))
    )
  }
  const period = /\(([^)]*)\)/.exec(text)![1]!.split(' → ').length
  const cycle = calls.slice(-count * period)
  return cycle.length === count * period && cycle.every((c, i) => i < period || same(c, cycle[i - period]!))
}

describe('withheld results and denials tell the truth (property-based)', () => {
  it.each([false, true])(
    'every opt-in and blockAt on (resultAware %s): no call is denied unless the calls before it are what the ' +
      'text says, and no withheld text claims identical arguments that were not',
    (resultAware) => {
      fc.assert(
        fc.property(steps, (sequence) => {
          const guard = createGuard(
            Config({
              thresholds: [2, 3],
              blockAt: 3,
              resultAware,
              cycles: true,
              sameFailure: true,
              maskNoise: true,
              rereads: true,
              remindEvery: 1,
            }),
          )
          const agent = {} as never
          const seen: Step[] = []
          for (const step of sequence) {
            const exec = { agent, name: step.tool, arguments: { item: step.item } }
            const reason = guard.deny(exec)
            if (reason !== undefined) {
              // Denied before it ran: the run it continues is one of identical calls or a cycle, never of failures.
              expect(reason).not.toContain('failed with the same error')
              expect(claimHolds(reason, [...seen, { ...step, result: seen.at(-1)!.result }])).toBe(true)
            }
            const content = [{ type: 'text' as const, text: step.result.text }]
            const observed = guard.observe(exec, { isError: step.result.isError, content }, reason === undefined)
            seen.push(step)
            const withheld = observed?.withheld?.[0] as { text: string } | undefined
            if (withheld !== undefined) expect(claimHolds(withheld.text, seen)).toBe(true)
          }
        }),
        { numRuns: 2_000 },
      )
    },
  )

  it(
    'deny is certain for every combination of relapse, cycles, sameFailure and blockAt: a call it denies is one ' +
      'the guard would withhold had it run, whatever it returned',
    () => {
      const options = fc.record({
        thresholds: fc.constantFrom([2], [2, 3], [2, 4]),
        extra: fc.integer({ min: 0, max: 2 }),
        relapse: fc.boolean(),
        cycles: fc.boolean(),
        sameFailure: fc.boolean(),
        remindEvery: fc.constantFrom(0, 1),
      })
      fc.assert(
        fc.property(options, steps, ({ thresholds, extra, ...opt_ins }, sequence) => {
          const config = Config({ thresholds: [...thresholds], blockAt: thresholds.at(-1)! + extra, ...opt_ins })
          // The guard that denies, and one that lets every call run: whether a call ran changes no loop's measure.
          const guard = createGuard(config)
          const ran = createGuard(config)
          const agent = {} as never
          for (const step of sequence) {
            const exec = { agent, name: step.tool, arguments: { item: step.item } }
            const result = {
              isError: step.result.isError,
              content: [{ type: 'text' as const, text: step.result.text }],
            }
            const reason = guard.deny(exec)
            guard.observe(exec, result, reason === undefined)
            const withheld = ran.observe({ ...exec }, result)?.withheld
            if (reason !== undefined) expect(withheld).toBeDefined()
          }
        }),
        { numRuns: 3_000 },
      )
    },
  )

  it('the call a failure could have ended is not denied: fetch a, fetch a, fetch b fails, fetch a', () => {
    for (const opt_in of [{ relapse: true }, { cycles: true }]) {
      const guard = createGuard(Config({ thresholds: [2], blockAt: 3, sameFailure: true, ...opt_in }))
      const agent = {} as never
      const fetch = (item: string) => ({ agent, name: 'fetch', arguments: { item } })
      const ok = { isError: false, content: [{ type: 'text' as const, text: 'fetched' }] }
      const failed = { isError: true, content: [{ type: 'text' as const, text: 'error: quota exceeded' }] }
      for (const [exec, result] of [
        [fetch('a'), ok],
        [fetch('a'), ok],
        [fetch('b'), failed],
      ] as const) {
        expect(guard.deny(exec)).toBeUndefined()
        guard.observe(exec, result)
      }
      const again = fetch('a')
      expect(guard.deny(again)).toBeUndefined()
      // Its failure ends the run of identical calls in a run of failures, whose second call is fair.
      expect(guard.observe(again, failed)?.withheld).toBeUndefined()
    }
  })

  it('with sameFailure, a call is denied where any result is withheld: a failure again, or another tool failed', () => {
    const agent = {} as never
    const failed = { isError: true, content: [{ type: 'text' as const, text: 'error: quota exceeded' }] }
    const ok = { isError: false, content: [{ type: 'text' as const, text: 'fetched' }] }
    const guard = createGuard(Config({ thresholds: [2], blockAt: 3, sameFailure: true }))
    const fetch = { agent, name: 'fetch', arguments: { item: 'a' } }
    for (const _ of [1, 2]) {
      expect(guard.deny(fetch)).toBeUndefined()
      guard.observe(fetch, failed)
    }
    expect(guard.deny(fetch)).toBeDefined()
    // Another tool's failure cannot be one a fetch goes on with.
    const relapsing = createGuard(Config({ thresholds: [2], blockAt: 3, sameFailure: true, relapse: true }))
    for (const [exec, result] of [
      [fetch, ok],
      [fetch, ok],
      [{ agent, name: 'download', arguments: { item: 'x' } }, failed],
    ] as const)
      relapsing.observe(exec, result)
    expect(relapsing.deny(fetch)).toBeDefined()
  })
})
