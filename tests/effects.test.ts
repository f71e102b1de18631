import type { GenerateOptions } from '@deepseek-ai/dsh-llm'
import { describe, expect, it } from 'vitest'
import { requestContext } from '../support/harness.ts'
import type { ScriptedCall, ScriptedTurn } from '../support/model.ts'
import { runReplay, runReplayJson, writeSessions } from '../support/sessions.ts'
import { GREP, READ, times, turns, shown } from './support/calls.ts'


/** The reminders in the request the model is answering, newest last. */
const reminders = (request: GenerateOptions) => requestContext(request).filter((text) => text.startsWith('Reminder: '))

/** A model that greps until it has read a detailed reminder, then reads the file once and answers. */
function changesAfterDetailed(request: GenerateOptions): ScriptedTurn {
  const seen = reminders(request)
  const detailed = seen.some((text) => text.includes('\n'))
  const read = request.messages.some((m) => m.content.some((b) => b.type === 'tool-result' && JSON.stringify(b).includes('contents of a.ts')))
  if (read) return { text: 'MAX_ATTEMPTS is 4' }
  return { calls: [detailed ? READ : GREP] }
}

const effectsOf = (session: { recordedReminders: { afterCall: number, kind: string, effect: string }[] }) => session.recordedReminders.map(({ afterCall, kind, effect }) => [afterCall, kind, effect])

describe('what followed each recorded reminder', () => {
  it('a model that ignores every reminder: twelve identical calls, each reminder repeated past', async () => {
    const root = await writeSessions('none', [{ id: 'ignores', script: turns(...times(12, GREP)) }])
    const { report } = await runReplayJson([root])
    expect(effectsOf(report.sessions[0]!)).toEqual([[3, 'short', 'repeated'], [5, 'detailed', 'repeated'], [8, 'detailed', 'repeated']])
    expect(report.total.effects.short).toEqual({ repeated: 1, waited: 0, relapsed: 0, changed: 0, ended: 0 })
    expect(report.total.effects.detailed).toEqual({ repeated: 2, waited: 0, relapsed: 0, changed: 0, ended: 0 })
    expect(report.total.repeatedPast).toEqual([{ tool: 'grep', reminders: 3 }])
  })

  it('a model that repeats after the first reminder and changes course after the detailed one', async () => {
    const root = await writeSessions('none', [{ id: 'listens', script: changesAfterDetailed }])
    const { report } = await runReplayJson([root])
    expect(effectsOf(report.sessions[0]!)).toEqual([[3, 'short', 'repeated'], [5, 'detailed', 'changed']])
    expect(report.total.effects).toEqual({
      short: { repeated: 1, waited: 0, relapsed: 0, changed: 0, ended: 0 },
      detailed: { repeated: 0, waited: 0, relapsed: 0, changed: 1, ended: 0 },
      cycle: { repeated: 0, waited: 0, relapsed: 0, changed: 0, ended: 0 },
      withheld: { repeated: 0, waited: 0, relapsed: 0, changed: 0, ended: 0 },
    })
  })

  it('a model that switches once and comes back: relapsed', async () => {
    const root = await writeSessions('none', [{ id: 'relapses', script: turns(...times(3, GREP), READ, GREP) }])
    const { report } = await runReplayJson([root])
    expect(effectsOf(report.sessions[0]!)).toEqual([[3, 'short', 'relapsed']])
  })

  it('a model that stops after a reminder: ended; a user prompt ends what follows too', async () => {
    const root = await writeSessions('none', [
      { id: 'stops', script: turns(...times(3, GREP)) },
      { id: 'prompted', script: [...turns(...times(3, GREP)), { text: 'stuck' }, ...turns(GREP)], prompts: 2 },
    ])
    const { report } = await runReplayJson([root])
    expect(report.sessions.map((s) => [s.id, effectsOf(s)])).toEqual([['prompted', [[3, 'short', 'ended']]], ['stops', [[3, 'short', 'ended']]]])
  })

  it('a model that changes course and never comes back before the next prompt: changed, even when it comes back after the prompt', async () => {
    const root = await writeSessions('none', [{ id: 'changes', script: [...turns(...times(3, GREP), READ), { text: 'ok' }, ...turns(GREP)], prompts: 2 }])
    const { report } = await runReplayJson([root])
    expect(effectsOf(report.sessions[0]!)).toEqual([[3, 'short', 'changed']])
  })

  it('a cycle reminder is repeated past when the model goes on with the cycle', async () => {
    const root = await writeSessions('none', [{ id: 'cycles', script: turns(GREP, READ, GREP, READ, GREP, READ, GREP, READ) }], { cycles: true, thresholds: [2, 3] })
    const { report } = await runReplayJson([root, '--cycles', '--thresholds', '2,3'])
    expect(effectsOf(report.sessions[0]!)).toEqual([[4, 'cycle', 'repeated'], [6, 'cycle', 'repeated']])
  })

  it('a withheld result the model keeps hitting: each block repeated past, the last one ended', async () => {
    const root = await writeSessions('none', [{ id: 'blocked', script: turns(...times(7, GREP)) }], { thresholds: [3, 5], blockAt: 5 })
    const { report } = await runReplayJson([root, '--thresholds', '3,5', '--block-at', '5'])
    expect(report.sessions[0]!.recordedWithheld).toEqual([{ call: 5, denied: true, effect: 'repeated' }, { call: 6, denied: true, effect: 'repeated' }, { call: 7, denied: true, effect: 'ended' }])
    expect(report.total.effects.withheld).toEqual({ repeated: 2, waited: 0, relapsed: 0, changed: 0, ended: 1 })
  })

  it('calls are compared as the config compares them: an ignored argument does not make a call new', async () => {
    const note = (n: string): ScriptedCall => ({ name: 'grep', args: { pattern: 'x', note: n } })
    const root = await writeSessions('none', [{ id: 'noted', script: turns(note('a'), note('b'), note('c'), note('d')) }], { ignoreArguments: ['grep.note'] })
    const { report } = await runReplayJson([root, '--ignore-arguments', 'grep.note'])
    expect(effectsOf(report.sessions[0]!)).toEqual([[3, 'short', 'repeated']])
    // The run is quoted as compared, as the reminders quote it.
    expect(report.sessions[0]!.runs).toEqual([{ tool: 'grep', arguments: '{"pattern":"x"}', start: 1, length: 4 }])
  })

  it('the text report: a "did the reminders work" section in the totals, and each reminder\'s effect in the session', async () => {
    const root = await writeSessions('none', [{ id: 'ignores', script: turns(...times(12, GREP)) }, { id: 'listens', script: changesAfterDetailed }])
    const { out } = await runReplay(['replay', root])
    expect(out).toContain([
      '  did the reminders work (what the model did next):',
      '    short reminders (2): 2 repeated, 0 waited, 0 relapsed, 0 changed, 0 ended',
      '    detailed reminders (3): 2 repeated, 0 waited, 0 relapsed, 1 changed, 0 ended',
      '    repeated past most often: grep (4 reminders)',
      '',
    ].join('\n'))
    expect(out).toContain(`${shown('  reminders in the log: after call 3 (grep × 3, then repeated), after call 5 (grep × 5, then changed)')}\n`)
  })
})

describe('loops priced in the tokens the log recorded', () => {
  const usage = (i: number) => ({ inputTokens: 1000 + 100 * i, outputTokens: 20 + i })

  it('the responses that made repeated calls, each once: their input and output tokens', async () => {
    const script: ScriptedTurn[] = [...times(4, GREP).map((c, i) => ({ calls: [c], usage: usage(i) })), { calls: [READ, READ], usage: usage(4) }, { text: 'done', usage: usage(5) }]
    const root = await writeSessions('none', [{ id: 'priced', script }])
    const { report } = await runReplayJson([root])
    // Calls 2-4 repeat grep (responses 1-3); call 6 repeats read in the same response as call 5 (response 4), which counts once.
    expect(report.sessions[0]!.cost).toEqual({
      calls: 4,
      argumentChars: 3 * JSON.stringify(GREP.args).length + JSON.stringify(READ.args).length,
      resultChars: 3 * '[{"type":"text","text":"no match for x"}]'.length + '[{"type":"text","text":"contents of a.ts"}]'.length,
      responses: 4,
      inputTokens: 1100 + 1200 + 1300 + 1400,
      outputTokens: 21 + 22 + 23 + 24,
    })
    expect(report.total.cost).toMatchObject({ responses: 4, inputTokens: 5000, outputTokens: 90, sessionsWithoutUsage: 0 })
    const { out } = await runReplay(['replay', root])
    expect(out).toContain(`${shown(`  cost of looping: 4 repeated calls carrying ${report.sessions[0]!.cost.argumentChars} characters of arguments and ${report.sessions[0]!.cost.resultChars} of results; 4 model responses using 5,000 input and 90 output tokens`)}\n`)
  })

  it('a log without usage says so, in the session and in the totals beside the sessions that have it', async () => {
    const root = await writeSessions('none', [
      { id: 'priced', script: times(2, GREP).map((c, i) => ({ calls: [c], usage: usage(i) })) },
      { id: 'unpriced', script: turns(...times(2, GREP)) },
    ])
    const { report } = await runReplayJson([root])
    expect(report.sessions.map((s) => [s.id, s.cost.inputTokens, s.cost.outputTokens])).toEqual([['priced', 1100, 21], ['unpriced', null, null]])
    const { out } = await runReplay(['replay', root])
    const cost = report.total.cost
    expect(out).toContain(`${shown(`  cost of looping: ${cost.calls} repeated calls carrying ${cost.argumentChars} characters of arguments and ${cost.resultChars} of results; 1 model response using 1,100 input and 21 output tokens; token usage not recorded in 1 session`)}\n`)
    const unpriced = report.sessions[1]!.cost
    expect(out).toContain(`${shown(`  cost of looping: 1 repeated call carrying ${unpriced.argumentChars} characters of arguments and ${unpriced.resultChars} of results; token usage not recorded in the log`)}\n`)
  })
})

describe('--suggest escalates only on evidence', () => {
  it('the same call followed the detailed reminders on repeated results: blockAt and remindEvery are listed with that evidence, not recommended', async () => {
    const root = await writeSessions('none', [{ id: 'ignores', script: turns(...times(12, GREP)) }])
    const { report } = await runReplayJson([root, '--suggest'])
    expect(report.escalation).toEqual({ followed: 2, of: 2, escalate: true })
    const listed = report.suggestions!.slice(-2).map((s) => [s.label, s.config.blockAt, s.config.remindEvery, s.withheld, s.reminders, s.recommended ?? false])
    expect(listed).toEqual([
      ['blockAt 10', 10, 0, 3, 3, false],
      ['remindEvery 3', 0, 3, 0, 4, true],
    ])
    const { out } = await runReplay(['replay', root, '--suggest'])
    expect(out).toContain(`\n${shown('escalation: the same call followed 2 of 2 detailed reminders on repeated results, so blockAt and remindEvery are listed; compare what they withhold before you turn one on')}\n`)
  })

  it('reminders that worked: it says so and proposes no escalation', async () => {
    const root = await writeSessions('none', [{ id: 'listens', script: changesAfterDetailed }])
    const { report } = await runReplayJson([root, '--suggest'])
    expect(report.escalation).toEqual({ followed: 0, of: 1, escalate: false })
    expect(report.suggestions!.map((s) => s.label).filter((label) => /blockAt|remindEvery/.test(label))).toEqual([])
    const { out } = await runReplay(['replay', root, '--suggest'])
    expect(out).toContain(`\n${shown('escalation: reminders mostly worked (the same call followed 0 of 1 detailed reminders on repeated results); none proposed')}\n`)
  })

  it('no detailed reminder in the logs is no evidence: nothing is proposed on reminder counts alone', async () => {
    const root = await writeSessions('none', [{ id: 'short', script: turns(...times(4, GREP)) }])
    const { report } = await runReplayJson([root, '--suggest'])
    expect(report.escalation).toEqual({ followed: 0, of: 0, escalate: false })
    const { out } = await runReplay(['replay', root, '--suggest'])
    expect(out).toContain(`\n${shown('escalation: no detailed reminder on a repeated result in the logs, so no evidence that reminders were ignored; none proposed')}\n`)
  })

  it('half is not most: one followed of two proposes nothing; a config that already escalates gets no second escalation', async () => {
    const root = await writeSessions('none', [{ id: 'ignores-one', script: turns(...times(6, GREP)) }, { id: 'listens', script: changesAfterDetailed }])
    const { report } = await runReplayJson([root, '--suggest'])
    expect(report.escalation).toEqual({ followed: 1, of: 2, escalate: false })
    expect(report.suggestions!.map((s) => s.label).filter((label) => /^(blockAt|remindEvery) /.test(label))).toEqual([])
    const escalated = await writeSessions('none', [{ id: 'ignores', script: turns(...times(12, GREP)) }])
    const labels = (await runReplayJson([escalated, '--suggest', '--block-at', '9', '--remind-every', '2'])).report.suggestions!.map((s) => s.label)
    expect(labels.filter((label) => /^(blockAt|remindEvery) /.test(label))).toEqual([])
  })
})
