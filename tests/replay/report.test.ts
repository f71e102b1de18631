import { describe, expect, it } from 'vitest'
import { Config } from '../../src/config.ts'
import { transcribe } from '../../src/replay/transcript.ts'
import { report as replay } from '../../src/replay/report.ts'
import { tally } from '../../src/replay/tally.ts'
import type { ScriptedTurn } from '../../support/model.ts'
import { runReplay, runReplayJson, writeSessions } from '../../support/sessions.ts'
import { GREP, READ, times, turns } from '../support/calls.ts'
import { events, LOGGED_GREP } from '../support/events.ts'

describe("one session's report", () => {
  it('two separate cycles of the same calls are two cycles', () => {
    const A = { tool: 'grep', args: { p: 'a' } }
    const B = { tool: 'read', args: { p: 'b' } }
    const C = { tool: 'edit', args: {} }
    const report = replay(
      transcribe(events(A, B, A, B, C, A, B, A, B, A), []),
      Config({ cycles: true, thresholds: [2] }),
    )
    expect(report.cycles).toEqual([
      { tools: ['grep', 'read'], start: 1, length: 2 },
      { tools: ['grep', 'read'], start: 6, length: 2 },
    ])
  })

  it('the tools that loop most: most repeated calls first, then by name', () => {
    const b = { tool: 'b_tool', args: {} }
    const a = { tool: 'a_tool', args: {} }
    const z = { tool: 'z_tool', args: {} }
    const report = replay(transcribe(events(z, z, b, b, a, a, z, z, z), []), Config({}))
    expect(report.tools).toEqual([
      { tool: 'z_tool', runs: 2, repeatedCalls: 3 },
      { tool: 'a_tool', runs: 1, repeatedCalls: 1 },
      { tool: 'b_tool', runs: 1, repeatedCalls: 1 },
    ])
  })

  it(
    'loops are stretches of calls each repeating the one before: earlier ' +
      "thresholds keep the baseline's loops on other calls",
    () => {
      const session = transcribe(
        events(
          LOGGED_GREP,
          LOGGED_GREP,
          LOGGED_GREP,
          LOGGED_GREP,
          LOGGED_GREP,
          { tool: 'read', args: {} },
          { ...LOGGED_GREP, result: 'a' },
          { ...LOGGED_GREP, result: 'b' },
          { ...LOGGED_GREP, result: 'c' },
        ),
        [],
      )
      const baseline = tally(session, Config({}), { baseline: { loops: new Set(), repeated: new Set() } })
      expect(baseline.reminded).toEqual({ loops: new Set([1, 7]), repeated: new Set([1]) })
      const earlier = tally(session, Config({ thresholds: [2, 4, 7], resultAware: true }), {
        baseline: baseline.reminded,
      })
      expect(earlier.reminded).toEqual({ loops: new Set([1]), repeated: new Set([1]) })
      expect(earlier.tally).toMatchObject({ baselineLoopsKept: 1, baselineRepeatedLoopsLost: 0 })
    },
  )

  it('a reminder on the last call of an eight-call cycle whose results repeat counts as on repeated results', () => {
    const cycle = Array.from({ length: 8 }, (_, i) => ({ tool: 'grep', args: { p: i } }))
    const result = tally(
      transcribe(events(...cycle, ...cycle), []),
      Config({ cycles: true, maxCyclePeriod: 8, thresholds: [2] }),
      { baseline: { loops: new Set([16, 3]), repeated: new Set([16, 5]) } },
    )
    expect(result).toEqual({
      tally: {
        reminders: 1,
        withheld: 0,
        denied: 0,
        onRepeatedResults: 1,
        onChangedResults: 0,
        unremindedLoopCalls: 0,
        baselineLoopsKept: 1,
        baselineRepeatedLoopsLost: 1,
      },
      reminded: { loops: new Set([16]), repeated: new Set([16]) },
    })
  })
})

describe('loops priced in the tokens the log recorded', () => {
  const usage = (i: number) => ({ inputTokens: 1000 + 100 * i, outputTokens: 20 + i })

  it('the responses that made repeated calls, each once: their input and output tokens', async () => {
    const script: ScriptedTurn[] = [
      ...times(4, GREP).map((c, i) => ({ calls: [c], usage: usage(i) })),
      { calls: [READ, READ], usage: usage(4) },
      { text: 'done', usage: usage(5) },
    ]
    const root = await writeSessions('none', [{ id: 'priced', script }])
    const { report } = await runReplayJson([root])
    // Calls 2-4 repeat grep (responses 1-3); call 6 repeats read in the same response as call 5
    // (response 4), which counts once.
    expect(report.sessions[0]!.cost).toEqual({
      calls: 4,
      argumentChars: 3 * JSON.stringify(GREP.args).length + JSON.stringify(READ.args).length,
      resultChars:
        3 * '[{"type":"text","text":"no match for x"}]'.length + '[{"type":"text","text":"contents of a.ts"}]'.length,
      responses: 4,
      inputTokens: 1100 + 1200 + 1300 + 1400,
      outputTokens: 21 + 22 + 23 + 24,
    })
    expect(report.total.cost).toMatchObject({
      responses: 4,
      inputTokens: 5000,
      outputTokens: 90,
      sessionsWithoutUsage: 0,
    })
    const { out } = await runReplay(['replay', root])
    expect(out).toContain(
      '  cost of looping: 4 repeated calls carrying 60 characters of arguments and 166 of results; 4 model\n' +
        '      responses using 5,000 input and 90 output tokens\n',
    )
  })

  it('a log without usage says so, in the session and in the totals beside the sessions that have it', async () => {
    const root = await writeSessions('none', [
      { id: 'priced', script: times(2, GREP).map((c, i) => ({ calls: [c], usage: usage(i) })) },
      { id: 'unpriced', script: turns(...times(2, GREP)) },
    ])
    const { report } = await runReplayJson([root])
    expect(report.sessions.map((s) => [s.id, s.cost.inputTokens, s.cost.outputTokens])).toEqual([
      ['priced', 1100, 21],
      ['unpriced', null, null],
    ])
    const { out } = await runReplay(['replay', root])
    expect(report.total.cost).toMatchObject({ calls: 2, argumentChars: 30, resultChars: 82 })
    expect(out).toContain(
      '  cost of looping: 2 repeated calls carrying 30 characters of arguments and 82 of results; 1 model\n' +
        '      response using 1,100 input and 21 output tokens; token usage not recorded in 1 session\n',
    )
    expect(report.sessions[1]!.cost).toMatchObject({ calls: 1, argumentChars: 15, resultChars: 41 })
    expect(out).toContain(
      '  cost of looping: 1 repeated call carrying 15 characters of arguments and 41 of results; token\n' +
        '      usage not recorded in the log\n',
    )
  })
})
