import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { describe, expect, it } from 'vitest'
import { Config } from '../../src/config.ts'
import { withheldFeedback } from '../../src/texts.ts'
import type { EpisodeScore } from '../../src/replay/score.ts'
import { render } from '../../src/replay/render.ts'
import { report, type SessionReport } from '../../src/replay/report.ts'
import { emptyTotals } from '../../src/replay/totals.ts'
import { transcribe } from '../../src/replay/transcript.ts'
import { scratch } from '../../support/scratch.ts'
import { runReplay, writeSessions } from '../../support/sessions.ts'
import { GREP, times, turns } from '../support/calls.ts'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'

const CALLS = 300_000

/** `n` calls of grep, each answered with this plugin's withheld text of a call denied before it ran. */
function deniedEvents(n: number): SessionEvent[] {
  const denied = withheldFeedback(['grep'], 3, { ran: false })
  return Array.from(
    { length: n },
    (_, i): SessionEvent[] =>
      [
        { type: 'tool/call', seq: 2 * i, data: { callId: `c${i}`, name: 'grep', arguments: '{"pattern":"x"}' } },
        {
          type: 'tool/result',
          seq: 2 * i + 1,
          data: {
            message: {
              content: [
                { type: 'tool-result', toolCallId: `c${i}`, isError: true, content: [{ type: 'text', text: denied }] },
              ],
            },
          },
        },
      ] as unknown as SessionEvent[],
  ).flat()
}

// Hundreds of thousands of calls: a slow run on a busy machine is not a wrong one, but a quadratic one never ends.
describe("replay's work grows with its input, not with its square", { timeout: 30_000 }, () => {
  it(`a log that recorded ${CALLS.toLocaleString('en-US')} denied calls: each is reported as denied`, () => {
    const r = report(transcribe(deniedEvents(CALLS), []), Config({}))
    expect(r.recordedWithheld).toHaveLength(CALLS)
    expect(r.recordedWithheld.every((w) => w.denied)).toBe(true)
  })

  it(`the text report of a session with ${CALLS.toLocaleString('en-US')} withheld results, every one denied`, () => {
    const r = report(transcribe(deniedEvents(CALLS), []), Config({ thresholds: [2], blockAt: 2 }))
    expect(r.configDenied).toHaveLength(CALLS - 1)
    const s: SessionReport = { file: 'f', id: 's', ...r }
    const text = render({ total: { ...emptyTotals(), sessions: 1 }, sessions: [s], hidden: 0, advice: undefined })
    expect(text).toContain(
      `  withheld with this config: calls 2 (not run), 3 (not run), 4 (not ` +
        `run), 5 (not run), 6 (not run),\n      7 (not run), 8 (not run), ` +
        `9 (not run), 10 (not run), 11 (not run), and ${CALLS - 11} more\n`,
    )
  })

  it('a config that ignores 24,000 arguments, the most a --config file holds, over 100,000 calls', () => {
    const entries = Array.from({ length: 24_000 }, (_, i) => `*.a${i}`)
    const events = Array.from(
      { length: 100_000 },
      (_, i): SessionEvent[] =>
        [
          {
            type: 'tool/call',
            seq: 2 * i,
            data: { callId: `c${i}`, name: 'grep', arguments: `{"pattern":"x","a7":${i},"path":"src"}` },
          },
          {
            type: 'tool/result',
            seq: 2 * i + 1,
            data: {
              message: {
                content: [{ type: 'tool-result', toolCallId: `c${i}`, content: [{ type: 'text', text: 'none' }] }],
              },
            },
          },
        ] as unknown as SessionEvent[],
    ).flat()
    const r = report(transcribe(events, entries), Config({ ignoreArguments: entries, resultAware: true }))
    // a7 is left out: one run of every call.
    expect(r.runs).toEqual([{ tool: 'grep', arguments: '{"path":"src","pattern":"x"}', start: 1, length: 100_000 }])
  })

  it('130,000 labeled episodes listed under --all', () => {
    const episodes: EpisodeScore[] = Array.from({ length: 130_000 }, (_, i) => ({
      session: 's',
      first: i + 1,
      last: i + 1,
      label: 'unclear',
      from: null,
      line: i + 1,
      reread: false,
      firstReminder: null,
      caughtAt: null,
      saved: 0,
    }))
    const score = {
      episodes: { stuck: 0, 'busy-poll': 0, productive: 0, unclear: 130_000 },
      caught: { stuck: 0, 'busy-poll': 0 },
      recall: { stuck: null, 'busy-poll': null, overall: null },
      right: 0,
      wrong: 0,
      precision: null,
      f1: 0,
      wasted: 0,
      saved: 0,
      shareOfWasted: null,
      latency: null,
      rereads: { episodes: { stuck: 0, 'busy-poll': 0, productive: 0, unclear: 0 }, caught: 0, recall: null },
    }
    const text = render({
      total: { ...emptyTotals(), sessions: 1 },
      sessions: [],
      hidden: 0,
      advice: undefined,
      labels: { file: 'l', score, episodes },
      episodes: true,
    })
    expect(text.endsWith('  s calls 130000–130000 unclear: no reminder\n')).toBe(true)
  })

  it(
    "--suggest on a config of 40,000 thresholds: each candidate's label " + 'names the first eight and how many',
    async () => {
      const path = join(await scratch('scale'), 'config.json')
      await writeFile(path, JSON.stringify({ thresholds: Array.from({ length: 40_000 }, (_, i) => i + 2) }))
      const root = await writeSessions('none', [{ id: 'grep', script: turns(...times(3, GREP)) }])
      const { status, out } = await runReplay(['replay', root, '--config', path, '--suggest'])
      expect(status).toBe(0)
      expect(out).toContain('\n    thresholds 4, 5, 6, 7, 8, 9, 10,           0')
      expect(out).toContain('\n    11, … (40,000 in all)\n')
    },
  )
})
