import { createUserMessage } from '@deepseek-ai/dsh-llm'
import type { PostToolDecision } from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import { detailedReminder, shortReminder } from '../src/rules/run.ts'
import { withheldFeedback } from '../src/texts.ts'
import { afterCalls, harness, injected, runAgent, summaries, toolResults } from '../support/harness.ts'
import type { ScriptedCall } from '../support/model.ts'
import { GREP, READ, turns } from './support/calls.ts'
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

  it('a call is compared with only what its config needs: its outcome only where outcomes are compared', () => {
    const failing = out('boom\n[exit code: 1]')
    for (const config of [{}, { rereads: true }, { sameFailure: true }])
      expect(comparison(Config(config)).call('bash', {}, failing)).toEqual({
        tool: 'bash',
        args: {},
        ignored: [],
        outcome: undefined,
      })
    // The rules that judge every result ask for the outcome when they need it, noise masked as configured.
    const noisy = out('took 5ms')
    const call = comparison(Config({})).call('bash', {}, noisy)
    expect(comparison(Config({})).outcome(call, noisy)).toEqual({ isError: false, content: noisy.content })
    const masked = comparison(Config({ maskNoise: true }))
    expect(masked.outcome(call, noisy)).toEqual({
      isError: false,
      content: [{ type: 'text', text: 'took <duration>' }],
    })
    // Worked out once per call: a second rule asking for the same call gets the same outcome.
    expect(masked.outcome(call, out('other'))).toBe(masked.outcome(call, noisy))
  })

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

const cycle = (times: number, ...calls: ScriptedCall[]) => turns(...Array.from({ length: times }, () => calls).flat())

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
