import { readFile, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ScriptedTurn } from '../support/model.ts'
import { runReplay, runReplayJson, writeSessions, type ReplayDocument } from '../support/sessions.ts'
import { GREP, READ } from './support/calls.ts'

/** Twenty calls, one model response each: a log the writer appends to in twenty batches (twenty zstd frames). */
const SCRIPT: ScriptedTurn[] = Array.from({ length: 20 }, (_, i) => ({ calls: [i % 4 === 3 ? READ : GREP] }))

async function session(compression: 'none' | 'zstd') {
  const root = await writeSessions(compression, [{ id: 'torn', script: SCRIPT }])
  return { root, file: join(root, '_no-cwd', 'torn', compression === 'zstd' ? 'session.jsonl.zstd' : 'session.jsonl') }
}

describe('a torn log is read up to the tear and said out loud', () => {
  it.each(['none', 'zstd'] as const)('%s: cut at 60% of its bytes, the calls before the tear are replayed, the file and the tear named on stderr and in the JSON, exit 1', async (compression) => {
    const { root, file } = await session(compression)
    const size = (await readFile(file)).byteLength
    const cut = Math.floor(size * 0.6)
    await truncate(file, cut)
    const { status, err, report } = await runReplayJson([root])
    expect(status).toBe(1)
    const [torn] = report.sessions
    // A plain log keeps every complete line; a zstd log every complete frame, and the writer may have put many calls in one.
    expect(torn!.toolCalls).toBeGreaterThanOrEqual(compression === 'none' ? 1 : 0)
    expect(torn!.toolCalls).toBeLessThan(20)
    expect(torn!.torn!.ofBytes).toBe(cut)
    expect(torn!.torn!.afterBytes).toBeLessThanOrEqual(cut)
    const reason = `torn after ${torn!.torn!.afterBytes} of its ${cut} bytes, as a crash mid-write leaves a log: replayed the ${torn!.toolCalls} tool calls before the tear; what came after it is not in the report`
    expect(err).toBe(`repeat-tool-reminder replay: ${file}: ${reason}\n`)
    expect(report.errors).toEqual([{ path: file, reason }])
  })

  it.each(['none', 'zstd'] as const)('%s: cut at any byte past the header, never fewer calls than a shorter cut, never a tear unreported; whole, no tear', async (compression) => {
    const { root, file } = await session(compression)
    const whole = await readFile(file)
    const header = whole.indexOf('\n') + 1
    let before = 0
    const step = Math.max(1, Math.floor(whole.byteLength / 40))
    for (let cut = compression === 'zstd' ? 64 : header; cut < whole.byteLength; cut += step) {
      await writeFile(file, whole.subarray(0, cut))
      const { status, out, err } = await runReplay(['replay', root, '--json'])
      if (out === '') {
        // The header frame itself is cut: no session to report, and that is said on stderr.
        expect(status).toBe(1)
        expect(err.split('\n')).toHaveLength(2)
        continue
      }
      const [s] = (JSON.parse(out) as ReplayDocument).sessions
      // A plain log cut right after a line is a whole log of fewer events: nothing in its bytes tells it was cut.
      if (compression === 'none' && whole[cut - 1] === 0x0a) {
        expect(status).toBe(0)
        expect(s!.torn).toBeUndefined()
      } else {
        expect(status).toBe(1)
        expect(s!.torn).toEqual({ afterBytes: expect.any(Number), ofBytes: cut })
      }
      expect(s!.toolCalls).toBeGreaterThanOrEqual(before)
      before = s!.toolCalls
    }
    await writeFile(file, whole)
    const { status, report } = await runReplayJson([root])
    expect(status).toBe(0)
    expect(report.sessions[0]!.torn).toBeUndefined()
    expect(report.sessions[0]!.toolCalls).toBe(20)
  })

  it('torn after one call: the line on stderr says one tool call, in the singular', async () => {
    const { root, file } = await session('none')
    const whole = await readFile(file)
    // Cut a few bytes into the line after the first call's result.
    const result = whole.indexOf('"tool/result"')
    const cut = whole.indexOf('\n', result) + 1 + 5
    await truncate(file, cut)
    const { status, report, err } = await runReplayJson([root])
    expect([status, report.sessions[0]!.toolCalls]).toEqual([1, 1])
    expect(err).toContain(': replayed the 1 tool call before the tear; ')
  })

  it('the text report shows a torn session\'s numbers as usual; the line on stderr says they are a part', async () => {
    const { root, file } = await session('none')
    const size = (await readFile(file)).byteLength
    await truncate(file, Math.floor(size / 2))
    const { status, out, err } = await runReplay(['replay', root])
    expect(status).toBe(1)
    expect(out).toMatch(/^total: 1 session, 1 with loops\n/)
    expect(err).toContain(': torn after ')
  })
})
