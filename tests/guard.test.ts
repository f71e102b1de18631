import { describe, expect, it } from 'vitest'
import { comparison } from '../src/compare.ts'
import { Config } from '../src/config.ts'
import { observeAll } from './support/guard.ts'

const text = (t: string) => [{ type: 'text' as const, text: t }]

describe('the new rules in the guard, one condition at a time', () => {
  const out = (t: string, isError = false) => ({ isError, content: text(t) })
  const run = (config: Partial<Config>, calls: [string, unknown, ReturnType<typeof out>][]) =>
    observeAll(
      config,
      calls.map(([tool, args, { isError, content }]) => ({ tool, args, text: content[0]!.text, isError })),
    )

  it(
    'a call is compared with only what its config needs: no outcome for ' +
      'the rules unless one is on, and a failure only for sameFailure',
    () => {
      const failing = out('boom\n[exit code: 1]')
      expect(comparison(Config({})).call('bash', {}, failing)).toEqual({
        tool: 'bash',
        args: {},
        ignored: [],
        outcome: undefined,
      })
      expect(comparison(Config({ rereads: true })).call('bash', {}, failing)).toMatchObject({
        failed: false,
        seen: { isError: false },
      })
      expect(comparison(Config({ sameFailure: true })).call('bash', {}, failing)).toMatchObject({ failed: true })
      expect(comparison(Config({ sameFailure: true })).call('bash', {}, out('fine'))).toMatchObject({ failed: false })
    },
  )

  it('sameFailure needs the same tool, both calls failing, the same error, and the option', () => {
    const fail = (
      name: string,
      i: number,
      result = out('quota exceeded\n[exit code: 3]'),
    ): [string, unknown, ReturnType<typeof out>] => [name, { i }, result]
    const lengths = (config: Partial<Config>, calls: ReturnType<typeof fail>[]) =>
      run(config, calls).map((o) => o.inARow)
    expect(lengths({ sameFailure: true }, [fail('bash', 1), fail('bash', 2), fail('bash', 3)])).toEqual([1, 2, 3])
    expect(lengths({}, [fail('bash', 1), fail('bash', 2)])).toEqual([1, 1])
    expect(lengths({ sameFailure: true }, [fail('bash', 1), fail('pwsh', 2)])).toEqual([1, 1])
    expect(lengths({ sameFailure: true }, [fail('bash', 1, out('quota exceeded')), fail('bash', 2)])).toEqual([1, 1])
    expect(lengths({ sameFailure: true }, [fail('bash', 1), fail('bash', 2, out('quota exceeded'))])).toEqual([1, 1])
    expect(lengths({ sameFailure: true }, [fail('bash', 1), fail('bash', 2, out('other\n[exit code: 3]'))])).toEqual([
      1, 1,
    ])
    // The same output from other arguments, no failure: no run.
    expect(lengths({ sameFailure: true }, [fail('bash', 1, out('ok')), fail('bash', 2, out('ok'))])).toEqual([1, 1])
  })

  it(
    'rereads asks only about a call that starts a run and gets no other ' +
      'reminder: the run and cycle rules come first',
    () => {
      const grep: [string, unknown, ReturnType<typeof out>] = ['grep', { pattern: 'x' }, out('X')]
      const glob: [string, unknown, ReturnType<typeof out>] = ['glob', { pattern: '*' }, out('G')]
      expect(run({ thresholds: [3], rereads: true }, [grep, grep]).map((o) => o.reminder)).toEqual([
        undefined,
        undefined,
      ])
      // The 3rd call is a reread; the 4th completes a cycle of two: its reminder is the cycle's.
      const cycle = run({ thresholds: [2], cycles: true, rereads: true }, [grep, glob, grep, glob])
      expect(cycle.map((o) => (o.reminder?.source as { summary: string } | undefined)?.summary)).toEqual([
        undefined,
        undefined,
        'grep × 2 (reread)',
        'grep → glob × 2',
      ])
      expect((cycle[3]!.reminder!.content[0] as { text: string }).text).toContain('same sequence of 2 tool calls')
    },
  )

  it('the window holds 6 calls: a call 6 back is a reread', () => {
    const calls: [string, unknown, ReturnType<typeof out>][] = [
      ['grep', { pattern: 'x' }, out('X')],
      ...Array.from({ length: 5 }, (_, i): [string, unknown, ReturnType<typeof out>] => [
        'glob',
        { p: i },
        out(String(i)),
      ]),
      ['grep', { pattern: 'x' }, out('X')],
    ]
    expect(run({ rereads: true }, calls).map((o) => o.reminder !== undefined)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ])
  })
})
