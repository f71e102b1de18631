import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Config } from '../../src/config.ts'
import type { LoggedCall } from '../../src/replay/transcript.ts'
import { addProgress, candidates, progressTools, type ProgressStats } from '../../src/replay/candidates.ts'
import { patchSnippet, recommend, recommendScored } from '../../src/replay/recommend.ts'
import type { Suggestion } from '../../src/replay/tally.ts'
import type { Score } from '../../src/replay/score.ts'
import { known, knownLines } from '../support/suggest.ts'
import { runReplay, writeSessions } from '../../support/sessions.ts'
import { pagerAndFailingTests, SCROLL, TEST } from '../support/pager.ts'
import { times, turns } from '../support/calls.ts'
import { changesAfterDetailed, GREP } from '../support/calls.ts'
import { runReplayJson } from '../../support/sessions.ts'

/** Evidence that proposes no escalation. */
const NO_EVIDENCE = { followed: 0, of: 0, escalate: false }

async function sessions() {
  return writeSessions('none', [
    { id: 'paging', script: turns(...times(8, SCROLL)), setup: pagerAndFailingTests },
    { id: 'stuck', script: turns(...times(6, TEST)), setup: pagerAndFailingTests },
  ])
}

describe('replay --suggest: advice from the evidence', () => {
  it(
    'a pager whose results change and a failing call whose results repeat: ' +
      'resultAware keeps the real loop and drops the paging',
    async () => {
      const root = await sessions()
      const { status, out } = await runReplay(['replay', root, '--suggest', '--json'])
      expect(status).toBe(0)
      const { suggestions } = JSON.parse(out) as { suggestions: Suggestion[] }
      const rows = known(suggestions, (s) => s.name).map(
        ({ name, reminders, onRepeatedResults, onChangedResults, unremindedLoopCalls, baseline, recommended }) => ({
          name,
          reminders,
          onRepeatedResults,
          onChangedResults,
          unremindedLoopCalls,
          baseline,
          recommended,
        }),
      )
      expect(rows).toEqual([
        {
          name: 'the config given (baseline)',
          reminders: 5,
          onRepeatedResults: 2,
          onChangedResults: 3,
          unremindedLoopCalls: 3,
          baseline: true,
          recommended: undefined,
        },
        {
          name: 'resultAware',
          reminders: 2,
          onRepeatedResults: 2,
          onChangedResults: 0,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: true,
        },
        {
          name: 'ignoreArguments: the prose fields',
          reminders: 5,
          onRepeatedResults: 2,
          onChangedResults: 3,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'exclude scroll_down',
          reminders: 2,
          onRepeatedResults: 2,
          onChangedResults: 0,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'resultAware for scroll_down only',
          reminders: 2,
          onRepeatedResults: 2,
          onChangedResults: 0,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'thresholds 5, 7, 10',
          reminders: 3,
          onRepeatedResults: 1,
          onChangedResults: 2,
          unremindedLoopCalls: 4,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'thresholds 2, 4, 7',
          reminders: 5,
          onRepeatedResults: 2,
          onChangedResults: 3,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'thresholds 2, 4, 7, resultAware',
          reminders: 2,
          onRepeatedResults: 2,
          onChangedResults: 0,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'thresholds 2, 4, 7, resultAware, cycles, the prose fields',
          reminders: 2,
          onRepeatedResults: 2,
          onChangedResults: 0,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'thresholds 2, 4, 7, resultAware, cycles, the prose fields, rereads',
          reminders: 2,
          onRepeatedResults: 2,
          onChangedResults: 0,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'relapse',
          reminders: 5,
          onRepeatedResults: 2,
          onChangedResults: 3,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'sameFailure',
          reminders: 5,
          onRepeatedResults: 2,
          onChangedResults: 3,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'cycles',
          reminders: 5,
          onRepeatedResults: 2,
          onChangedResults: 3,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'rereads',
          reminders: 5,
          onRepeatedResults: 2,
          onChangedResults: 3,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'resultAware, maskNoise',
          reminders: 2,
          onRepeatedResults: 2,
          onChangedResults: 0,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'blockAt 10',
          reminders: 5,
          onRepeatedResults: 2,
          onChangedResults: 3,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
        {
          name: 'remindEvery 3',
          reminders: 5,
          onRepeatedResults: 2,
          onChangedResults: 3,
          unremindedLoopCalls: 3,
          baseline: undefined,
          recommended: undefined,
        },
      ])
      expect(suggestions[1]!.config).toMatchObject({ resultAware: true, exclude: [] })
      expect(suggestions.find((c) => c.name.startsWith('exclude'))!.config).toMatchObject({
        resultAware: false,
        exclude: ['scroll_down'],
      })
      expect(suggestions.find((c) => c.name.endsWith(' only'))!.config).toMatchObject({
        resultAware: ['scroll_down'],
        exclude: [],
      })
    },
  )

  it(
    "a candidate is credited only with the baseline's loops it keeps, " +
      'not with the loops it reminds that the baseline did not',
    async () => {
      const root = await writeSessions('none', [
        { id: 'stuck', script: turns(...times(6, TEST)), setup: pagerAndFailingTests },
        { id: 'short', script: turns(...times(2, TEST)), setup: pagerAndFailingTests },
      ])
      const { suggestions } = JSON.parse((await runReplay(['replay', root, '--suggest', '--json'])).out) as {
        suggestions: Suggestion[]
      }
      const kept = (name: string) => suggestions.find((s) => s.name === name)!.baselineLoopsKept
      // The defaults remind the six-call loop only; thresholds from 2 remind the two-call one too.
      expect([kept('the config given (baseline)'), kept('thresholds 2, 4, 7')]).toEqual([1, 1])
      expect(suggestions.find((s) => s.name === 'thresholds 2, 4, 7')!.reminders).toBe(3)
    },
  )

  it(
    'a withheld result of a tool whose outcomes are compared is counted ' +
      'as withheld, not as denied: that call runs',
    async () => {
      const root = await writeSessions('none', [
        { id: 'stuck', script: turns(...times(6, TEST)), setup: pagerAndFailingTests },
      ])
      const { suggestions } = JSON.parse(
        (
          await runReplay([
            'replay',
            root,
            '--result-aware',
            '--thresholds',
            '2,3',
            '--block-at',
            '3',
            '--suggest',
            '--json',
          ])
        ).out,
      ) as { suggestions: Suggestion[] }
      expect([suggestions[0]!.withheld, suggestions[0]!.denied]).toEqual([4, 0])
    },
  )

  it('the text report shows the table, says why, and prints the patch to paste', async () => {
    const root = await sessions()
    const { out } = await runReplay(['replay', root, '--suggest'])
    expect(knownLines(out)).toContain(
      [
        '    repeated past most often: run_tests (2 reminders), scroll_down (2 reminders)',
        '',
        "advice (--suggest): where each config's reminders land",
        '  config                                          on repeated  after new  loop calls',
        '                                       reminders      results     output  unreminded  withheld',
        '    the config given (baseline)                5            2          3           3         0',
        '  * resultAware                                2            2          0           3         0',
        '    ignoreArguments: the prose fields          5            2          3           3         0',
        '    exclude scroll_down                        2            2          0           3         0',
        '    resultAware for scroll_down only           2            2          0           3         0',
        '    thresholds 5, 7, 10                        3            1          2           4         0',
        '    thresholds 2, 4, 7                         5            2          3           3         0',
        '    thresholds 2, 4, 7, resultAware            2            2          0           3         0',
        '    thresholds 2, 4, 7, resultAware,           2            2          0           3         0',
        '    cycles, the prose fields',
        '    thresholds 2, 4, 7, resultAware,           2            2          0           3         0',
        '    cycles, the prose fields,',
        '    rereads',
        '    thresholds 2, 4, 7, resultAware,           2            2          0           3         0',
        '    cycles, the prose fields,',
        '    rereads, reruns',
        '    relapse                                    5            2          3           3         0',
        '    sameFailure                                5            2          3           3         0',
        '    cycles                                     5            2          3           3         0',
        '    rereads                                    5            2          3           3         0',
        '    resultAware, maskNoise                     2            2          0           3         0',
        '    blockAt 10                                 5            2          3           3         0',
        '    remindEvery 3                              5            2          3           3         0',
        '',
        'escalation: the same call followed 1 of 1 detailed reminders on repeated results, so blockAt and',
        '    remindEvery are listed; compare what they withhold before you turn one on',
        'recommended (*): resultAware: fewest reminders after new output (likely progress), reminding every',
        '    loop the config given reminded on repeated results',
        '  # ~/.dsh/profiles/<name>/cordis.patch.yml',
        '  - id: repeat-tool-reminder',
        '    config:',
        '      thresholds: [3, 5, 8]',
        '      resultAware: true',
        '',
      ].join('\n'),
    )
  })

  it(
    'with blockAt, withheld results are counted per config and the later ' +
      'thresholds keep blockAt at or above their last',
    async () => {
      const root = await sessions()
      const { out } = await runReplay(['replay', root, '--suggest', '--block-at', '8', '--json'])
      const { suggestions } = JSON.parse(out) as { suggestions: Suggestion[] }
      expect(known(suggestions, (s) => s.name).map((s) => [s.name, s.withheld, s.denied])).toEqual([
        ['the config given (baseline)', 1, 1],
        ['resultAware', 0, 0],
        ['ignoreArguments: the prose fields', 1, 1],
        ['exclude scroll_down', 0, 0],
        ['resultAware for scroll_down only', 0, 0],
        ['thresholds 5, 7, 10', 0, 0],
        ['thresholds 2, 4, 7', 1, 1],
        ['thresholds 2, 4, 7, resultAware', 0, 0],
        ['thresholds 2, 4, 7, resultAware, cycles, the prose fields', 0, 0],
        ['thresholds 2, 4, 7, resultAware, cycles, the prose fields, rereads', 0, 0],
        ['relapse', 1, 1],
        ['sameFailure', 1, 1],
        ['cycles', 1, 1],
        ['rereads', 1, 1],
        ['resultAware, maskNoise', 0, 0],
        ['remindEvery 3', 1, 1],
      ])
      const text = (await runReplay(['replay', root, '--suggest', '--block-at', '8'])).out
      expect(
        text
          .split('\n')
          .find((line) => line.includes('the config given (baseline)'))!
          .endsWith('  1 (1 not run)'),
      ).toBe(true)
      expect(suggestions.find((c) => c.name === 'thresholds 5, 7, 10')!.config).toMatchObject({
        thresholds: [5, 7, 10],
        blockAt: 10,
      })
      expect(suggestions.find((c) => c.name === 'thresholds 2, 4, 7')!.config).toMatchObject({
        thresholds: [2, 4, 7],
        blockAt: 8,
      })
    },
  )

  it('a session that could not be read is reported once and left out of the comparison', async () => {
    const root = await sessions()
    await writeFile(join(root, '_no-cwd', 'paging', 'session.jsonl'), 'garbage\n')
    const { status, out, err } = await runReplay(['replay', root, '--suggest', '--json'])
    expect(status).toBe(1)
    expect(err.split('\n').filter((line) => line !== '')).toHaveLength(1)
    const { suggestions } = JSON.parse(out) as { suggestions: Suggestion[] }
    expect(known(suggestions, (s) => s.name).map((s) => s.name)).toEqual([
      'the config given (baseline)',
      'resultAware',
      'ignoreArguments: the prose fields',
      'thresholds 5, 7, 10',
      'thresholds 2, 4, 7',
      'thresholds 2, 4, 7, resultAware',
      'thresholds 2, 4, 7, resultAware, cycles, the prose fields',
      'thresholds 2, 4, 7, resultAware, cycles, the prose fields, rereads',
      'relapse',
      'sameFailure',
      'cycles',
      'rereads',
      'resultAware, maskNoise',
      'blockAt 10',
      'remindEvery 3',
    ])
    expect(suggestions[0]).toMatchObject({ reminders: 2, onRepeatedResults: 2, onChangedResults: 0, recommended: true })
  })

  it('when nothing does better, the config given stays recommended', async () => {
    const root = await writeSessions('none', [
      { id: 'stuck', script: turns(...times(6, TEST)), setup: pagerAndFailingTests },
    ])
    const { out } = await runReplay(['replay', root, '--suggest', '--result-aware'])
    expect(out).toContain(
      'recommended (*): keep the config given: no candidate drops reminders after new output while\n' +
        '    reminding every loop it reminded on repeated results\n',
    )
    expect(out).toContain('  * the config given (baseline)')
  })
})

describe('the advice, as pure functions', () => {
  const tally = (
    onRepeatedResults: number,
    onChangedResults: number,
    unremindedLoopCalls = 0,
    baselineLoopsKept = 1,
    baselineRepeatedLoopsLost = 0,
  ) => ({
    reminders: onRepeatedResults + onChangedResults,
    withheld: 0,
    denied: 0,
    onRepeatedResults,
    onChangedResults,
    unremindedLoopCalls,
    baselineLoopsKept,
    baselineRepeatedLoopsLost,
  })
  const baseline = Config({})

  it('a tool is progress when more than half of its repeats returned a new result; exactly half is not', () => {
    const stats: ProgressStats = new Map([
      ['pager', { repeats: 4, changed: 3 }],
      ['poll', { repeats: 4, changed: 2 }],
      ['fail', { repeats: 4, changed: 0 }],
      ['b_pager', { repeats: 1, changed: 1 }],
    ])
    expect(progressTools(stats)).toEqual(['b_pager', 'pager'])
  })

  it('only repeats of the call right before count, and a repeat whose result changed counts as changed', () => {
    const stats: ProgressStats = new Map()
    const call = (repeatsCall: boolean, repeatsResult: boolean) =>
      ({ tool: 't', repeatsCall, repeatsResult }) as LoggedCall
    for (const c of [call(false, false), call(true, true), call(true, false), call(false, true)]) addProgress(stats, c)
    expect(stats.get('t')).toEqual({ repeats: 2, changed: 1 })
  })

  it('the candidates: the baseline first; none listed twice; the exclusion only with progress tools', () => {
    expect(names(candidates(baseline, [], NO_EVIDENCE))).toEqual([
      'the config given (baseline)',
      'resultAware',
      'ignoreArguments: the prose fields',
      'thresholds 5, 7, 10',
      'thresholds 2, 4, 7',
      'thresholds 2, 4, 7, resultAware',
      'thresholds 2, 4, 7, resultAware, cycles, the prose fields',
      'thresholds 2, 4, 7, resultAware, cycles, the prose fields, rereads',
      'relapse',
      'sameFailure',
      'cycles',
      'rereads',
      'resultAware, maskNoise',
    ])
    const given = Config({
      resultAware: true,
      cycles: true,
      relapse: true,
      ignoreArguments: [
        '*.justification',
        'bash.description',
        'pwsh.description',
        'run_code.description',
        'job_kill.reason',
        'update_plan.explanation',
      ],
      exclude: ['todo_write'],
      blockAt: 12,
    })
    const list = candidates(given, ['pager'], NO_EVIDENCE)
    expect(names(list)).toEqual([
      'the config given (baseline)',
      'exclude pager',
      'thresholds 5, 7, 10',
      'thresholds 2, 4, 7',
      'thresholds 2, 4, 7, resultAware, cycles, the prose fields, rereads',
      'sameFailure',
      'rereads',
      'resultAware, maskNoise',
    ])
    expect(list[1]!.config.exclude).toEqual(['todo_write', 'pager'])
    // The chain from 2 ends with reruns, a rule added later: the rows above leave it out.
    const chain = candidates(baseline, [], NO_EVIDENCE).find((c) => c.name.endsWith('rereads, reruns'))
    expect(chain?.name).toBe('thresholds 2, 4, 7, resultAware, cycles, the prose fields, rereads, reruns')
    expect(chain?.config).toMatchObject({ thresholds: [2, 4, 7], resultAware: true, rereads: true, reruns: true })
    expect(list[2]!.config).toMatchObject({ thresholds: [5, 7, 10], blockAt: 12 })
    expect(list[0]).toEqual({ name: 'the config given (baseline)', config: given, baseline: true })
    const progress = candidates(baseline, ['pager', 'poll'], NO_EVIDENCE)
    expect(progress.map((c) => c.name)).toContain('resultAware for pager, poll only')
    expect(progress.find((c) => c.name === 'exclude pager, poll')!.config.exclude).toEqual(['pager', 'poll'])
    expect(progress.find((c) => c.name === 'ignoreArguments: the prose fields')!.config.ignoreArguments).toEqual([
      'bash.description',
      'pwsh.description',
      'run_code.description',
      '*.justification',
      'job_kill.reason',
      'update_plan.explanation',
    ])
    expect(progress.find((c) => c.name === 'relapse')!.config.relapse).toBe(true)
    const scoped = candidates(
      Config({ resultAware: ['job_output'], ignoreArguments: ['bash.description'] }),
      ['pager'],
      NO_EVIDENCE,
    )
    expect(scoped.find((c) => c.name === 'resultAware for pager only')!.config.resultAware).toEqual([
      'job_output',
      'pager',
    ])
    expect(scoped.find((c) => c.name === 'ignoreArguments: the prose fields')!.config.ignoreArguments).toEqual([
      'bash.description',
      'pwsh.description',
      'run_code.description',
      '*.justification',
      'job_kill.reason',
      'update_plan.explanation',
    ])
    expect(candidates(baseline, [], NO_EVIDENCE).find((c) => c.name === 'thresholds 5, 7, 10')!.config).toMatchObject({
      thresholds: [5, 7, 10],
      blockAt: 0,
    })
    // A candidate that comes to the baseline is left out even after another one is listed.
    expect(names(candidates(Config({ cycles: true }), [], NO_EVIDENCE))).toEqual([
      'the config given (baseline)',
      'resultAware',
      'ignoreArguments: the prose fields',
      'thresholds 5, 7, 10',
      'thresholds 2, 4, 7',
      'thresholds 2, 4, 7, resultAware',
      'thresholds 2, 4, 7, resultAware, cycles, the prose fields',
      'thresholds 2, 4, 7, resultAware, cycles, the prose fields, rereads',
      'relapse',
      'sameFailure',
      'rereads',
      'resultAware, maskNoise',
    ])
  })

  it(
    'the earlier thresholds start at 2 and keep the gaps, alone, with ' +
      'resultAware, and with resultAware, cycles and the prose fields; ' +
      'none when the first is 2 already',
    () => {
      const list = candidates(Config({ thresholds: [4, 6], ignoreArguments: ['edit.note'] }), [], NO_EVIDENCE)
      expect(
        list
          .filter((c) => c.name.startsWith('thresholds 2, 4'))
          .slice(0, 3)
          .map((c) => [c.name, c.config.thresholds, c.config.resultAware, c.config.cycles, c.config.ignoreArguments]),
      ).toEqual([
        ['thresholds 2, 4', [2, 4], false, false, ['edit.note']],
        ['thresholds 2, 4, resultAware', [2, 4], true, false, ['edit.note']],
        [
          'thresholds 2, 4, resultAware, cycles, the prose fields',
          [2, 4],
          true,
          true,
          [
            'edit.note',
            'bash.description',
            'pwsh.description',
            'run_code.description',
            '*.justification',
            'job_kill.reason',
            'update_plan.explanation',
          ],
        ],
      ])
      expect(
        candidates(Config({ thresholds: [2, 3] }), [], NO_EVIDENCE)
          .map((c) => c.name)
          .filter((l) => l.startsWith('thresholds 2')),
      ).toEqual([])
      expect(candidates(Config({ thresholds: [3] }), [], NO_EVIDENCE).map((c) => c.name)).toContain('thresholds 2')
    },
  )

  it(
    'recommends the fewest reminders on changed results among those reminding ' +
      'every loop the baseline reminded on repeated results',
    () => {
      const pick = (...rows: ReturnType<typeof tally>[]) =>
        recommend(
          rows.map((t, i) => ({
            name: `c${i}`,
            config: baseline,
            ...(i === 0 ? { baseline: true as const } : {}),
            ...t,
          })),
        ).flatMap((s) => (s.recommended ? [s.name] : []))
      expect(pick(tally(10, 5), tally(10, 0))).toEqual(['c1'])
      expect(pick(tally(10, 5), tally(9, 0, 0, 1, 1))).toEqual(['c0'])
      // Fewer reminders on repeated results, but on every loop the baseline reminded: earlier thresholds, say.
      expect(pick(tally(10, 5), tally(9, 0))).toEqual(['c1'])
      expect(pick(tally(10, 5), tally(11, 4))).toEqual(['c1'])
      expect(pick(tally(10, 5), tally(10, 5))).toEqual(['c0'])
      expect(pick(tally(10, 5), tally(10, 1), tally(11, 1))).toEqual(['c2'])
      expect(pick(tally(10, 5), tally(10, 1, 3), tally(10, 1, 2))).toEqual(['c2'])
      expect(pick(tally(10, 5), tally(10, 1, 2), tally(10, 1, 2))).toEqual(['c1'])
      expect(pick(tally(0, 3), tally(0, 0))).toEqual(['c1'])
    },
  )

  it("never recommends a config that keeps none of the baseline's loops, unless the baseline reminded none", () => {
    const pick = (...rows: ReturnType<typeof tally>[]) =>
      recommend(
        rows.map((t, i) => ({
          name: `c${i}`,
          config: baseline,
          ...(i === 0 ? { baseline: true as const } : {}),
          ...t,
        })),
      ).flatMap((s) => (s.recommended ? [s.name] : []))
    expect(pick(tally(0, 3, 0, 3), tally(0, 0, 0, 0))).toEqual(['c0'])
    expect(pick(tally(0, 3, 0, 3), tally(0, 0, 0, 0), tally(0, 1, 0, 1))).toEqual(['c2'])
    expect(pick(tally(0, 0, 0, 0), tally(0, 0, 0, 0))).toEqual(['c0'])
    expect(pick(tally(0, 0, 2, 0), tally(1, 0, 1, 0))).toEqual(['c1'])
  })

  it(
    'on labels: the highest F1, then the larger share of wasted calls ' +
      'saved (unknown counts as none), then the fewer reminders, then the earlier',
    () => {
      const scored = (f1: number, shareOfWasted: number | null, reminders: number) => ({
        ...tally(reminders, 0),
        score: { f1, shareOfWasted } as Score,
      })
      const pick = (...rows: ReturnType<typeof scored>[]) =>
        recommendScored(rows.map((t, i) => ({ name: `c${i}`, config: baseline, ...t }))).flatMap((s) =>
          s.recommended ? [s.name] : [],
        )
      expect(pick(scored(0.5, 0.5, 3), scored(0.6, 0.1, 9))).toEqual(['c1'])
      expect(pick(scored(0.5, 0.5, 3), scored(0.5, 0.6, 9))).toEqual(['c1'])
      expect(pick(scored(0.5, null, 3), scored(0.5, 0, 2))).toEqual(['c1'])
      expect(pick(scored(0.5, 0.1, 3), scored(0.5, null, 2))).toEqual(['c0'])
      expect(pick(scored(0.5, 0.5, 3), scored(0.5, 0.5, 3))).toEqual(['c0'])
    },
  )

  it('on labels: a candidate is never picked when one of its opt-ins lowers precision, whatever its F1', () => {
    const bundle = Config({ thresholds: [2, 4, 7], resultAware: true, cycles: true })
    const scored = (name: string, config: Config, f1: number, precision: number | null) => ({
      ...tally(0, 0),
      name,
      config,
      score: { f1, shareOfWasted: 0, precision } as Score,
    })
    const pick = (...rows: ReturnType<typeof scored>[]) =>
      recommendScored(rows).flatMap((s) => (s.recommended ? [s.name] : []))
    const rereads = { ...bundle, rereads: true }
    expect(pick(scored('bundle', bundle, 0.78, 0.93), scored('+rereads', rereads, 0.79, 0.89))).toEqual(['bundle'])
    expect(pick(scored('bundle', bundle, 0.78, 0.93), scored('+rereads', rereads, 0.79, 0.93))).toEqual(['+rereads'])
    // No labeled reminder at all is no wrong one.
    expect(pick(scored('bundle', bundle, 0.78, null), scored('+rereads', rereads, 0.79, 0.99))).toEqual(['bundle'])
    // Only an opt-in turned off compares: other thresholds, or an opt-in the other has too, are another config.
    const later = Config({ ...rereads, thresholds: [3, 5, 8] })
    expect(pick(scored('bundle', bundle, 0.78, 0.93), scored('later', later, 0.79, 0.89))).toEqual(['later'])
    const both = Config({ ...rereads, sameFailure: true })
    expect(pick(scored('+rereads', rereads, 0.78, 0.93), scored('+both', both, 0.79, 0.89))).toEqual(['+rereads'])
    expect(pick(scored('+both', both, 0.79, 0.89), scored('bundle', bundle, 0.78, 0.93))).toEqual(['bundle'])
    // The same config is not one with fewer opt-ins; nor is one whose option is off where the other's is a list, or
    // a list where the other's is on.
    expect(pick(scored('bundle', bundle, 0.78, 0.93), scored('again', bundle, 0.79, 0.89))).toEqual(['again'])
    const listed = Config({ ...rereads, resultAware: ['x'] })
    const off = Config({ ...bundle, resultAware: false })
    expect(pick(scored('off', off, 0.78, 0.93), scored('listed', listed, 0.79, 0.89))).toEqual(['listed'])
    const scoped = Config({ ...bundle, resultAware: ['x'] })
    expect(pick(scored('scoped', scoped, 0.78, 0.93), scored('+rereads', rereads, 0.79, 0.89))).toEqual(['+rereads'])
  })

  it('the patch: thresholds always, every other option only when it is not its default, in YAML flow style', () => {
    expect(patchSnippet(Config({ include: ['grep', 'read_*'], resultAware: true, remindEvery: 10 }), baseline)).toBe(
      [
        '# ~/.dsh/profiles/<name>/cordis.patch.yml',
        '- id: repeat-tool-reminder',
        '  config:',
        '    thresholds: [3, 5, 8]',
        '    include: ["grep", "read_*"]',
        '    resultAware: true',
        '    remindEvery: 10',
      ].join('\n'),
    )
  })
})

describe('--suggest escalates only on evidence', () => {
  it(
    'the same call followed the detailed reminders on repeated results: ' +
      'blockAt and remindEvery are listed with that evidence, not recommended',
    async () => {
      const root = await writeSessions('none', [{ id: 'ignores', script: turns(...times(12, GREP)) }])
      const { report } = await runReplayJson([root, '--suggest'])
      expect(report.escalation).toEqual({ followed: 2, of: 2, escalate: true })
      const listed = report
        .suggestions!.slice(-2)
        .map((s) => [s.name, s.config.blockAt, s.config.remindEvery, s.withheld, s.reminders, s.recommended ?? false])
      expect(listed).toEqual([
        ['blockAt 10', 10, 0, 3, 3, false],
        ['remindEvery 3', 0, 3, 0, 4, true],
      ])
      const { out } = await runReplay(['replay', root, '--suggest'])
      expect(out).toContain(
        '\nescalation: the same call followed 2 of 2 detailed reminders on repeated results, so blockAt and\n' +
          '    remindEvery are listed; compare what they withhold before you turn one on\n',
      )
    },
  )

  it('reminders that worked: it says so and proposes no escalation', async () => {
    const root = await writeSessions('none', [{ id: 'listens', script: changesAfterDetailed }])
    const { report } = await runReplayJson([root, '--suggest'])
    expect(report.escalation).toEqual({ followed: 0, of: 1, escalate: false })
    expect(report.suggestions!.map((s) => s.name).filter((name) => /blockAt|remindEvery/.test(name))).toEqual([])
    const { out } = await runReplay(['replay', root, '--suggest'])
    expect(out).toContain(
      '\nescalation: reminders mostly worked (the same call followed 0 of 1 detailed reminders on repeated\n' +
        '    results); none proposed\n',
    )
  })

  it('no detailed reminder in the logs is no evidence: nothing is proposed on reminder counts alone', async () => {
    const root = await writeSessions('none', [{ id: 'short', script: turns(...times(4, GREP)) }])
    const { report } = await runReplayJson([root, '--suggest'])
    expect(report.escalation).toEqual({ followed: 0, of: 0, escalate: false })
    const { out } = await runReplay(['replay', root, '--suggest'])
    expect(out).toContain(
      '\nescalation: no detailed reminder on a repeated result in the logs, so no evidence that reminders\n' +
        '    were ignored; none proposed\n',
    )
  })

  it(
    'half is not most: one followed of two proposes nothing; a config ' +
      'that already escalates gets no second escalation',
    async () => {
      const root = await writeSessions('none', [
        { id: 'ignores-one', script: turns(...times(6, GREP)) },
        { id: 'listens', script: changesAfterDetailed },
      ])
      const { report } = await runReplayJson([root, '--suggest'])
      expect(report.escalation).toEqual({ followed: 1, of: 2, escalate: false })
      expect(report.suggestions!.map((s) => s.name).filter((name) => /^(blockAt|remindEvery) /.test(name))).toEqual([])
      const escalated = await writeSessions('none', [{ id: 'ignores', script: turns(...times(12, GREP)) }])
      const labels = (
        await runReplayJson([escalated, '--suggest', '--block-at', '9', '--remind-every', '2'])
      ).report.suggestions!.map((s) => s.name)
      expect(labels.filter((label) => /^(blockAt|remindEvery) /.test(label))).toEqual([])
    },
  )
})

/** The names of candidates, those of rules added to the registry later left out. */
function names(list: readonly { name: string }[]): string[] {
  return known(list, (c) => c.name).map((c) => c.name)
}
