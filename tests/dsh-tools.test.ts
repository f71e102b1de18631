import { known } from './support/suggest.ts'
import { describe, expect, it } from 'vitest'
import { detailedReminder, shortReminder } from '../src/rules/run.ts'
import { bashSuite, mountBash } from './support/dsh-tools.ts'
import { harness, reminders, toolResults } from '../support/harness.ts'
import type { ScriptedCall, ScriptedTurn } from '../support/model.ts'
import { placed, runReplayJson, writeSessions } from '../support/sessions.ts'
import { source, turns } from './support/calls.ts'

bashSuite()

/** The loop every coding agent falls into: the same failing test, run again and again. */
const FAILING = 'printf "FAIL test_retry: expected 4, got 3\\n"; exit 1'
/**
 * The same failing command, but its output (109 kB) is longer than bash keeps in memory and the
 * spill policy keeps inline.
 */
const LONG = 'seq 1 20000; exit 1'
const REWORDED = [
  'Run the test suite',
  'Run the tests again',
  'Re-run the test suite to check',
  'Run tests from project root',
  'Run tests from correct directory',
  'Run the suite once more',
]

const bash = (command: string, description: string): ScriptedCall => ({ name: 'bash', args: { command, description } })
const reworded = (command: string) => turns(...REWORDED.map((d) => bash(command, d)))

async function runBash(script: ScriptedTurn[], config: Parameters<typeof harness>[1]) {
  const h = await harness(script, config)
  await mountBash(h.ctx)
  const agent = await h.run()
  return agent
}

describe("dsh's bash tool, as dsh-base composes it", () => {
  it('with the defaults, a re-run whose description is reworded is a new call each time: no reminder', async () => {
    const agent = await runBash(reworded(FAILING), {})
    expect(toolResults(agent)).toEqual(
      REWORDED.map(() => [false, 'FAIL test_retry: expected 4, got 3\n[exit code: 1]']),
    )
    expect(reminders(agent)).toEqual([])
  })

  it(
    'ignoreArguments bash.description: the reworded re-runs are one run, ' +
      'reminded at 3 and 5, quoting the command as compared',
    async () => {
      const agent = await runBash(reworded(FAILING), { ignoreArguments: ['bash.description'] })
      const compared = JSON.stringify({ command: FAILING })
      expect(reminders(agent).map((r) => [r.afterCall, r.text, r.source])).toEqual([
        [3, shortReminder({ omitted: ['description'] }), source('bash × 3')],
        [5, detailedReminder('bash', 5, compared, { omitted: ['description'] }), source('bash × 5')],
      ])
      expect(reminders(agent)[1]!.text).toBe(
        'Reminder: you have called `bash` 5 times in a row with identical arguments (not counting `description`):\n' +
          `${compared}\n` +
          'These repeats are making no progress. Do not call this tool with these exact arguments again. ' +
          'Inspect the latest result and choose a different action or different ' +
          'arguments, or finish if you already have enough evidence.',
      )
    },
  )

  it(
    'resultAware: a long output that repeats is reminded at its thresholds, ' +
      'though every result names a new spill file',
    async () => {
      const agent = await runBash(turns(...Array.from({ length: 6 }, () => bash(LONG, 'Run it'))), {
        thresholds: [3, 5],
        resultAware: true,
      })
      const results = toolResults(agent).map(([, text]) => text)
      // Each result is cut by the spill policy and points at a file of its own.
      const locators = results.map((text) => text.slice(text.lastIndexOf(' stored at: ')))
      expect(new Set(locators).size).toBe(6)
      expect(results.every((text) => text.includes('\n[exit code: 1]\n\n(Omitted '))).toBe(true)
      expect(reminders(agent).map((r) => [r.afterCall, r.text])).toEqual([
        [3, shortReminder({ sameResults: true })],
        [
          5,
          detailedReminder('bash', 5, JSON.stringify({ command: LONG, description: 'Run it' }), { sameResults: true }),
        ],
      ])
    },
  )

  it(
    'relapse: bash ×3, read, bash ×3 is reminded after call 3 and, as ' + "the run's fifth call, after call 6",
    async () => {
      const call = bash(FAILING, 'Run the tests')
      const agent = await runBash(
        turns(call, call, call, { name: 'read_file', args: { path: 'test_retry.py' } }, call, call, call),
        { relapse: true },
      )
      expect(reminders(agent).map((r) => [r.afterCall, r.text, (r.source as { summary: string }).summary])).toEqual([
        [3, shortReminder(), 'bash × 3'],
        [
          6,
          detailedReminder('bash', 5, JSON.stringify({ command: FAILING, description: 'Run the tests' }), {
            resumed: true,
          }),
          'bash × 5',
        ],
      ])
    },
  )
})

describe("replaying sessions recorded with dsh's bash tool", () => {
  it(
    'reproduces the live reminders of a long repeated output, and --suggest ' +
      'counts them on repeated results and keeps them',
    async () => {
      const script = turns(...Array.from({ length: 6 }, () => bash(LONG, 'Run it')))
      const root = await writeSessions(
        'none',
        [
          {
            id: 'long',
            script,
            setup: async (ctx) => {
              await mountBash(ctx)
            },
          },
        ],
        { thresholds: [3, 5] },
      )
      const { report } = await runReplayJson([root, '--thresholds', '3,5', '--suggest'])
      const [session] = report.sessions
      expect(session!.recordedReminders).toEqual([
        { afterCall: 3, summary: 'bash × 3', kind: 'short', effect: 'repeated', repeatedResult: true },
        { afterCall: 5, summary: 'bash × 5', kind: 'detailed', effect: 'repeated', repeatedResult: true },
      ])
      expect(session!.configReminders).toEqual(placed(session!.recordedReminders))
      const [baseline] = report.suggestions!
      expect(baseline).toMatchObject({ reminders: 2, onRepeatedResults: 2, onChangedResults: 0 })
      const recommended = report.suggestions!.find((s) => s.recommended)!
      expect(recommended.onRepeatedResults).toBe(2)
      const resultAware = report.suggestions!.find((s) => s.name === 'resultAware')!
      expect(resultAware).toMatchObject({ reminders: 2, onRepeatedResults: 2, onChangedResults: 0 })
    },
  )

  it(
    'a session recorded with resultAware replays with --result-aware ' +
      'to the same reminders: the logged results carry both locators',
    async () => {
      const script = turns(...Array.from({ length: 6 }, () => bash(LONG, 'Run it')))
      const root = await writeSessions(
        'none',
        [
          {
            id: 'aware',
            script,
            setup: async (ctx) => {
              await mountBash(ctx)
            },
          },
        ],
        { thresholds: [3, 5], resultAware: true },
      )
      const { report } = await runReplayJson([root, '--thresholds', '3,5', '--result-aware'])
      const [session] = report.sessions
      expect(placed(session!.recordedReminders)).toEqual([
        { afterCall: 3, summary: 'bash × 3' },
        { afterCall: 5, summary: 'bash × 5' },
      ])
      expect(session!.configReminders).toEqual(placed(session!.recordedReminders))
    },
  )

  it(
    'reworded re-runs recorded with the defaults: --suggest recommends ' +
      'leaving the prose fields out, which reminds them',
    async () => {
      const root = await writeSessions('none', [
        {
          id: 'reworded',
          script: reworded(FAILING),
          setup: async (ctx) => {
            await mountBash(ctx)
          },
        },
      ])
      const { report } = await runReplayJson([root, '--suggest'])
      expect(report.sessions[0]!.recordedReminders).toEqual([])
      const rows = known(report.suggestions!, (s) => s.name).map((s) => [
        s.name,
        s.reminders,
        s.onRepeatedResults,
        s.onChangedResults,
        s.unremindedLoopCalls,
        s.recommended ?? false,
      ])
      expect(rows).toEqual([
        ['the config given (baseline)', 0, 0, 0, 5, false],
        ['resultAware', 0, 0, 0, 5, false],
        ['ignoreArguments: the prose fields', 2, 2, 0, 3, true],
        ['thresholds 5, 7, 10', 0, 0, 0, 5, false],
        ['thresholds 2, 4, 7', 0, 0, 0, 5, false],
        ['thresholds 2, 4, 7, resultAware', 0, 0, 0, 5, false],
        ['thresholds 2, 4, 7, resultAware, cycles, the prose fields', 2, 2, 0, 3, false],
        ['thresholds 2, 4, 7, resultAware, cycles, the prose fields, rereads', 2, 2, 0, 3, false],
        ['relapse', 0, 0, 0, 5, false],
        // The same failure whatever the description: reminded at its 3rd and 5th call, as the prose
        // fields left out would be.
        ['sameFailure', 2, 2, 0, 3, false],
        ['cycles', 0, 0, 0, 5, false],
        ['rereads', 0, 0, 0, 5, false],
        ['resultAware, maskNoise', 0, 0, 0, 5, false],
      ])
      const live = (await runReplayJson([root, '--ignore-arguments', 'bash.description'])).report.sessions[0]!
      expect(live.configReminders).toEqual([
        { afterCall: 3, summary: 'bash × 3' },
        { afterCall: 5, summary: 'bash × 5' },
      ])
    },
  )
})
