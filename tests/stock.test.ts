import * as Stock from 'reference-reminder'
import { describe, expect, it } from 'vitest'
import * as Reminder from '../src/index.ts'
import { bootHarness, injected, prompt, PROVIDER, toolResults } from '../support/harness.ts'
import { ScriptedModel, type ScriptedCall, type ScriptedTurn } from '../support/model.ts'
import { SessionId } from '@deepseek-ai/dsh-session'
import { GREP, READ, times, turns } from './support/calls.ts'

const described = (description: string): ScriptedCall => ({ name: 'grep', args: { pattern: 'x', description } })

/**
 * Where a plugin, with its default config, speaks to the model on `script` and
 * what the calls return: each plugin-sourced message's place and source, and
 * every result. The words are each plugin's own, so they are left out.
 */
async function seen(plugin: object, script: ScriptedTurn[]) {
  const ctx = await bootHarness({ invariants: false })
  await ctx.plugin(plugin as typeof Reminder, {})
  ctx.llm.registerAdapter([PROVIDER], new ScriptedModel(script))
  const { agent } = await ctx.agents.create({
    sessionId: SessionId('stock'),
    agentOptions: { provider: PROVIDER, model: 'm' },
  })
  await prompt(ctx, agent, 'go')
  const view = {
    injected: injected(agent).map(({ afterCall, source }) => ({ afterCall, source })),
    results: toolResults(agent),
  }
  await ctx.fiber.dispose()
  return view
}

describe('with the defaults, the model is reminded where and as the stock plugin reminds it', () => {
  it.each<[string, ScriptedTurn[], number[]]>([
    ['nine identical calls', turns(...times(9, GREP)), [3, 5, 8]],
    ['a run interrupted once', turns(...times(3, GREP), READ, ...times(3, GREP)), [3, 7]],
    ['a reworded description', turns(described('a'), described('b'), described('c')), []],
    ['identical calls in one response', [{ calls: times(4, GREP) }], [4]],
    ['an A-B cycle', turns(...times(4, GREP).flatMap((c) => [c, READ])), []],
  ])('%s', async (_label, script, reminded) => {
    const ours = await seen(Reminder, script)
    expect(ours.injected.map((r) => r.afterCall)).toEqual(reminded)
    expect(ours).toEqual(await seen(Stock, script))
    expect(ours.results).toHaveLength(script.flatMap((turn) => ('calls' in turn ? turn.calls : [])).length)
  })
})

/** How many listeners each event has in a harness, once `plugin` is mounted with its defaults. */
async function listeners(plugin: object | undefined): Promise<Record<string, number>> {
  const ctx = await bootHarness({ invariants: false })
  if (plugin !== undefined) await ctx.plugin(plugin as typeof Reminder, {})
  const counts = Object.fromEntries(Object.entries(ctx.events._hooks).map(([event, hooks]) => [event, hooks.length]))
  await ctx.fiber.dispose()
  return counts
}

describe('with the defaults, it listens where the stock plugin listens', () => {
  it('the same events, as many listeners each: no pre-execute or execute listener without blockAt', async () => {
    const [alone, stock, reminder] = await Promise.all([listeners(undefined), listeners(Stock), listeners(Reminder)])
    const added = (counts: Record<string, number>) =>
      Object.fromEntries(Object.entries(counts).filter(([event, n]) => n !== (alone[event] ?? 0)))
    expect(added(reminder)).toEqual(added(stock))
    expect(Object.keys(added(reminder)).sort()).toEqual(['agent/pre-step', 'tools/post-execute'])
  })
})
