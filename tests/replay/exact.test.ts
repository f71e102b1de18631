import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { freezeMessage } from '@deepseek-ai/dsh-llm'
import { describe, expect, it } from 'vitest'
import { placed, runReplay, runReplayJson, writeSessions } from '../../support/sessions.ts'
import { GREP, READ, turns } from '../support/calls.ts'

/**
 * Append, for every tool result so far, a replacement exactly as the compaction pruner writes one:
 * a shadow price, then the result again with smaller content, citing the shadowed event.
 */
function compact(agent: Agent): void {
  const session = agent.session as unknown as {
    events: readonly { type: string; seq: number; data: { message: { content: { content: unknown[] }[] } } }[]
    append(type: string, data: unknown, meta?: unknown): unknown
  }
  for (const event of [...session.events]) {
    if (event.type !== 'tool/result') continue
    const result = event.data.message.content[0]!
    const message = freezeMessage({
      ...event.data.message,
      content: [{ ...result, content: [{ type: 'text', text: '[pruned]' }] }],
    } as never)
    session.append(
      'tool/result',
      { ...event.data, message },
      { surfaceOp: { op: 'replace', start: event.seq, end: event.seq }, sourceEventSeqs: [event.seq] },
    )
  }
}

describe('replay: exact on every log dsh writes', () => {
  it(
    'a compacted session (results replaced as the pruner does) replays ' +
      'as it ran: each call counted once, at its first result',
    async () => {
      const script = turns(GREP, GREP, GREP, GREP, GREP, READ)
      const plain = await writeSessions('none', [{ id: 's', script }])
      // The pruner runs inside a turn: here, as the step after the last tool result begins.
      const compacted = await writeSessions('none', [
        {
          id: 's',
          script,
          setup: (ctx) => {
            let done = false
            ctx.on('agent/pre-step', (payload, next) => {
              if (!done && payload.agent.session.events.filter((e) => e.type === 'tool/result').length === 6) {
                done = true
                compact(payload.agent)
              }
              return next()
            })
          },
        },
      ])
      const log = await readFile(join(compacted, '_no-cwd', 's', 'session.jsonl'), 'utf8')
      expect(log.match(/"surfaceOp":\{"op":"replace"/g)).toHaveLength(6)
      const [before] = (await runReplayJson([plain])).report.sessions
      const [after] = (await runReplayJson([compacted])).report.sessions
      expect(after).toEqual({ ...before, file: after!.file })
      expect(after).toMatchObject({
        toolCalls: 6,
        runs: [{ tool: 'grep', length: 5 }],
        configReminders: [{ afterCall: 3 }, { afterCall: 5 }],
      })
    },
  )

  it(
    'a resultAware + blockAt live run, replayed with the same config, ' +
      'reproduces its reminders and its withheld results',
    async () => {
      const live = { resultAware: true, blockAt: 8 }
      const root = await writeSessions(
        'none',
        [{ id: 'blocked', script: turns(...Array.from({ length: 10 }, () => GREP)) }],
        live,
      )
      const {
        sessions: [session],
        total,
      } = (await runReplayJson([root, '--result-aware', '--block-at', '8'])).report
      expect(placed(session!.recordedReminders)).toEqual([
        { afterCall: 3, summary: 'grep × 3' },
        { afterCall: 5, summary: 'grep × 5' },
        { afterCall: 8, summary: 'grep × 8' },
      ])
      expect(session!.configReminders).toEqual(placed(session!.recordedReminders))
      // A block the model kept hitting: the same call after each withheld result, until the prompt's calls ran out.
      expect(session!.recordedWithheld).toEqual([
        { call: 8, denied: false, effect: 'repeated' },
        { call: 9, denied: false, effect: 'repeated' },
        { call: 10, denied: false, effect: 'ended' },
      ])
      expect(session!.configWithheld).toEqual([8, 9, 10])
      // Under resultAware the result decides whether the run goes on: these calls ran, and would again.
      expect(session!.configDenied).toEqual([])
      expect(total).toMatchObject({ recordedWithheld: 3, configWithheld: 3 })
    },
  )

  it('withheld results in the log are reported next to the ones a config would produce', async () => {
    const root = await writeSessions('none', [{ id: 'blocked', script: turns(GREP, GREP, GREP, READ) }], {
      thresholds: [2],
      blockAt: 2,
    })
    const { out } = await runReplay(['replay', root])
    expect(out).toContain('  withheld results: 2 in the logs (2 denied before running), 0 with this config\n')
    expect(out).toContain(
      '  withheld in the log: calls 2 (not run, then repeated), 3 (not ' +
        'run, then changed)\n  withheld with this config: none\n',
    )
  })
})
