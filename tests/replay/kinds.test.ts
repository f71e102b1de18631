import { describe, expect, it } from 'vitest'
import type { ScriptedCall } from '../../support/model.ts'
import { runReplayJson, writeSessions } from '../../support/sessions.ts'
import { GREP, READ, times, turns } from '../support/calls.ts'
import { bashSuite, mountBash } from '../support/dsh-tools.ts'

/** What replay reads back of the reminders a live session recorded: each one's summary and kind. */
async function recorded(script: ScriptedCall[], config: object, bash = false) {
  const setup = bash ? { setup: async (ctx: Parameters<typeof mountBash>[0]) => void (await mountBash(ctx)) } : {}
  const root = await writeSessions('none', [{ id: 'kinds', script: turns(...script), ...setup }], config)
  const { report } = await runReplayJson([root])
  return report.sessions[0]?.recordedReminders.map((r) => [r.summary, r.kind])
}

describe('a recorded reminder of each kind reads back as that kind, by its summary', () => {
  it('an identical run: the short text, then a detailed one', async () => {
    expect(await recorded(times(5, GREP), {})).toEqual([
      ['grep × 3', 'short'],
      ['grep × 5', 'detailed'],
    ])
  })

  it('a cycle', async () => {
    expect(await recorded([GREP, READ, GREP, READ], { cycles: true, thresholds: [2] })).toEqual([
      ['grep → read_file × 2', 'cycle'],
    ])
  })

  it('a reread', async () => {
    const other: ScriptedCall = { name: 'read_file', args: { path: 'b.ts' } }
    expect(await recorded([GREP, other, GREP], { rereads: true, readOnlyTools: ['grep', 'read_file'] })).toEqual([
      ['grep × 2 (reread)', 'reread'],
    ])
  })
})

describe('a recorded reminder of a failure run reads back as one, through dsh bash', () => {
  bashSuite()
  it('the same error from other arguments', async () => {
    const fail = (n: number): ScriptedCall => ({
      name: 'bash',
      args: { command: `echo quota exceeded >&2; exit 3 # try ${n}`, description: 'Fetch' },
    })
    expect(await recorded([1, 2, 3].map(fail), { sameFailure: true, thresholds: [2] }, true)).toEqual([
      ['bash × 3 (same failure)', 'failure'],
    ])
  })
})
