import { describe, expect, it } from 'vitest'
import type { ScriptedCall } from '../../support/model.ts'
import { runReplay, runReplayJson, writeSessions } from '../../support/sessions.ts'
import { changesAfterDetailed, GREP, READ, times, turns } from '../support/calls.ts'
import { Config } from '../../src/config.ts'
import { report as replay } from '../../src/replay/report.ts'
import { transcribe } from '../../src/replay/transcript.ts'
import { effectsWith, events, LOGGED_GREP, message, reminder } from '../support/events.ts'

const effectsOf = (session: { recordedReminders: { afterCall: number; kind: string; effect: string }[] }) =>
  session.recordedReminders.map(({ afterCall, kind, effect }) => [afterCall, kind, effect])

describe('what followed each recorded reminder', () => {
  it('a model that ignores every reminder: twelve identical calls, each reminder repeated past', async () => {
    const root = await writeSessions('none', [{ id: 'ignores', script: turns(...times(12, GREP)) }])
    const { report } = await runReplayJson([root])
    expect(effectsOf(report.sessions[0]!)).toEqual([
      [3, 'short', 'repeated'],
      [5, 'detailed', 'repeated'],
      [8, 'detailed', 'repeated'],
    ])
    expect(report.total.effects.short).toEqual({ repeated: 1, waited: 0, relapsed: 0, changed: 0, ended: 0 })
    expect(report.total.effects.detailed).toEqual({ repeated: 2, waited: 0, relapsed: 0, changed: 0, ended: 0 })
    expect(report.total.repeatedPast).toEqual([{ tool: 'grep', reminders: 3 }])
  })

  it('a model that repeats after the first reminder and changes course after the detailed one', async () => {
    const root = await writeSessions('none', [{ id: 'listens', script: changesAfterDetailed }])
    const { report } = await runReplayJson([root])
    expect(effectsOf(report.sessions[0]!)).toEqual([
      [3, 'short', 'repeated'],
      [5, 'detailed', 'changed'],
    ])
    expect(report.total.effects).toEqual(effectsWith({ short: { repeated: 1 }, detailed: { changed: 1 } }))
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
    expect(report.sessions.map((s) => [s.id, effectsOf(s)])).toEqual([
      ['prompted', [[3, 'short', 'ended']]],
      ['stops', [[3, 'short', 'ended']]],
    ])
  })

  it(
    'a model that changes course and never comes back before the next ' +
      'prompt: changed, even when it comes back after the prompt',
    async () => {
      const root = await writeSessions('none', [
        { id: 'changes', script: [...turns(...times(3, GREP), READ), { text: 'ok' }, ...turns(GREP)], prompts: 2 },
      ])
      const { report } = await runReplayJson([root])
      expect(effectsOf(report.sessions[0]!)).toEqual([[3, 'short', 'changed']])
    },
  )

  it('a cycle reminder is repeated past when the model goes on with the cycle', async () => {
    const root = await writeSessions(
      'none',
      [{ id: 'cycles', script: turns(GREP, READ, GREP, READ, GREP, READ, GREP, READ) }],
      { cycles: true, thresholds: [2, 3] },
    )
    const { report } = await runReplayJson([root, '--cycles', '--thresholds', '2,3'])
    expect(effectsOf(report.sessions[0]!)).toEqual([
      [4, 'cycle', 'repeated'],
      [6, 'cycle', 'repeated'],
    ])
  })

  it('a withheld result the model keeps hitting: each block repeated past, the last one ended', async () => {
    const root = await writeSessions('none', [{ id: 'blocked', script: turns(...times(7, GREP)) }], {
      thresholds: [3, 5],
      blockAt: 5,
    })
    const { report } = await runReplayJson([root, '--thresholds', '3,5', '--block-at', '5'])
    expect(report.sessions[0]!.recordedWithheld).toEqual([
      { call: 5, denied: true, effect: 'repeated' },
      { call: 6, denied: true, effect: 'repeated' },
      { call: 7, denied: true, effect: 'ended' },
    ])
    expect(report.total.effects.withheld).toEqual({ repeated: 2, waited: 0, relapsed: 0, changed: 0, ended: 1 })
  })

  it('calls are compared as the config compares them: an ignored argument does not make a call new', async () => {
    const note = (n: string): ScriptedCall => ({ name: 'grep', args: { pattern: 'x', note: n } })
    const root = await writeSessions(
      'none',
      [{ id: 'noted', script: turns(note('a'), note('b'), note('c'), note('d')) }],
      { ignoreArguments: ['grep.note'] },
    )
    const { report } = await runReplayJson([root, '--ignore-arguments', 'grep.note'])
    expect(effectsOf(report.sessions[0]!)).toEqual([[3, 'short', 'repeated']])
    // The run is quoted as compared, as the reminders quote it.
    expect(report.sessions[0]!.runs).toEqual([{ tool: 'grep', arguments: '{"pattern":"x"}', start: 1, length: 4 }])
  })

  it(
    'the text report: a "did the reminders work" section in the totals, ' + "and each reminder's effect in the session",
    async () => {
      const root = await writeSessions('none', [
        { id: 'ignores', script: turns(...times(12, GREP)) },
        { id: 'listens', script: changesAfterDetailed },
      ])
      const { out } = await runReplay(['replay', root])
      expect(out).toContain(
        [
          '  did the reminders work (what the model did next):',
          '    short reminders (2): 2 repeated, 0 waited, 0 relapsed, 0 changed, 0 ended',
          '    detailed reminders (3): 2 repeated, 0 waited, 0 relapsed, 1 changed, 0 ended',
          '    repeated past most often: grep (4 reminders)',
          '',
        ].join('\n'),
      )
      expect(out).toContain(
        '  reminders in the log: after call 3 (grep × 3, then repeated), after call 5 (grep × 5, then\n' +
          '      changed)\n',
      )
    },
  )
})

describe('what followed a reminder, from its summary', () => {
  it('a summary that names no call made: the reminder is about the call it follows', () => {
    const read = { tool: 'read', args: { p: 'r' } }
    const log = [...events(LOGGED_GREP, read, read)]
    const at = log.length
    const report = replay(
      transcribe([...log.slice(0, 4), reminder(at, 'cut off… × 3'), ...log.slice(4)], []),
      Config({}),
    )
    expect(report.recordedReminders.map((r) => [r.afterCall, r.effect])).toEqual([[2, 'repeated']])
  })

  it(
    'a cycle summary longer than the calls before it: the reminder is ' +
      'about its call, and repeated when that call comes again',
    () => {
      const log = [...events(LOGGED_GREP, LOGGED_GREP)]
      const report = replay(
        transcribe([...log.slice(0, 2), reminder(50, 'a → b → grep × 2'), ...log.slice(2)], []),
        Config({}),
      )
      expect(report.recordedReminders.map((r) => [r.afterCall, r.kind, r.effect])).toEqual([[1, 'cycle', 'repeated']])
    },
  )

  it('an untracked call in between is transparent: the next tracked call decides', () => {
    const todo = { tool: 'todo', args: {} }
    const log = [...events(LOGGED_GREP, todo, LOGGED_GREP)]
    const report = replay(
      transcribe([...log.slice(0, 2), reminder(50, 'grep × 1'), ...log.slice(2)], []),
      Config({ exclude: ['todo'] }),
    )
    expect(report.recordedReminders.map((r) => r.effect)).toEqual(['repeated'])
    const counted = replay(transcribe([...log.slice(0, 2), reminder(50, 'grep × 1'), ...log.slice(2)], []), Config({}))
    expect(counted.recordedReminders.map((r) => r.effect)).toEqual(['relapsed'])
  })

  it(
    'many reminders waiting on one call all relapse when it comes back; ' +
      'a plugin message from another plugin settles nothing',
    () => {
      const a = { tool: 'grep', args: { p: 'a' } }
      const b = { tool: 'grep', args: { p: 'b' } }
      const log = events(a, b, a)
      const report = replay(
        transcribe(
          [
            ...log.slice(0, 2),
            reminder(50, 'grep × 1'),
            reminder(51, 'grep × 1'),
            ...log.slice(2, 4),
            message(52, { kind: 'plugin', plugin: 'other' }),
            ...log.slice(4),
          ],
          [],
        ),
        Config({}),
      )
      expect(report.recordedReminders.map((r) => [r.afterCall, r.effect])).toEqual([
        [1, 'relapsed'],
        [1, 'relapsed'],
      ])
    },
  )
})
