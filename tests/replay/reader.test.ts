import { readFile, rm, truncate, writeFile } from 'node:fs/promises'
import { zstdCompressSync } from 'node:zlib'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ScriptedTurn } from '../../support/model.ts'
import { runReplay, runReplayJson, writeSessions, type ReplayDocument } from '../../support/sessions.ts'
import { GREP, READ } from '../support/calls.ts'
import { LogReader } from '../../src/replay/reader.ts'

/** Twenty calls, one model response each: a log the writer appends to in twenty batches (twenty zstd frames). */
const SCRIPT: ScriptedTurn[] = Array.from({ length: 20 }, (_, i) => ({ calls: [i % 4 === 3 ? READ : GREP] }))

async function session(compression: 'none' | 'zstd') {
  const root = await writeSessions(compression, [{ id: 'torn', script: SCRIPT }])
  return { root, file: join(root, '_no-cwd', 'torn', compression === 'zstd' ? 'session.jsonl.zstd' : 'session.jsonl') }
}

describe('a torn log is read up to the tear and said out loud', () => {
  it.each(['none', 'zstd'] as const)(
    '%s: cut at 60% of its bytes, the calls before the tear are replayed, ' +
      'the file and the tear named on stderr and in the JSON, exit 1',
    async (compression) => {
      const { root, file } = await session(compression)
      const size = (await readFile(file)).byteLength
      const cut = Math.floor(size * 0.6)
      await truncate(file, cut)
      const { status, err, report } = await runReplayJson([root])
      expect(status).toBe(1)
      const [torn] = report.sessions
      // A plain log keeps every complete line; a zstd log every complete frame, and the writer may
      // have put many calls in one.
      expect(torn!.toolCalls).toBeGreaterThanOrEqual(compression === 'none' ? 1 : 0)
      expect(torn!.toolCalls).toBeLessThan(20)
      expect(torn!.torn!.ofBytes).toBe(cut)
      expect(torn!.torn!.afterBytes).toBeLessThanOrEqual(cut)
      const reason =
        `torn after ${torn!.torn!.afterBytes} of its ${cut} bytes, as a crash ` +
        `mid-write leaves a log: replayed the ${torn!.toolCalls} tool calls ` +
        `before the tear; what came after it is not in the report`
      expect(err).toBe(`repeat-tool-reminder replay: ${file}: ${reason}\n`)
      expect(report.errors).toEqual([{ path: file, reason }])
    },
  )

  it.each(['none', 'zstd'] as const)(
    '%s: cut at any byte past the header, never fewer calls than a shorter ' +
      'cut, never a tear unreported; whole, no tear',
    async (compression) => {
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
    },
  )

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

  it("the text report shows a torn session's numbers as usual; the line on stderr says they are a part", async () => {
    const { root, file } = await session('none')
    const size = (await readFile(file)).byteLength
    await truncate(file, Math.floor(size / 2))
    const { status, out, err } = await runReplay(['replay', root])
    expect(status).toBe(1)
    expect(out).toMatch(/^total: 1 session, 1 with loops\n/)
    expect(err).toContain(': torn after ')
  })
})

describe('a plain log corrupt in the middle is told apart from a tear, and its readable lines are kept', () => {
  /** The plain log of twenty calls, with its lines. */
  async function lines() {
    const { root, file } = await session('none')
    return { root, file, lines: (await readFile(file, 'utf8')).split('\n') }
  }

  /** The line numbers (1-based) of the tool results of the log, in order. */
  const results = (lines: string[]) => lines.flatMap((line, i) => (line.includes('"tool/result"') ? [i + 1] : []))

  it(
    'one bad line in the last turn: the calls before and after it replayed, ' +
      'the line named on stderr and in the JSON, exit 1',
    async () => {
      const { root, file, lines: all } = await lines()
      const bad = results(all)[9]!
      all[bad - 1] = '{"this is": not json'
      await writeFile(file, all.join('\n'))
      const { status, err, report } = await runReplayJson([root])
      expect(status).toBe(1)
      const [s] = report.sessions
      // The tenth call lost its result: nineteen calls remain.
      expect(s!.toolCalls).toBe(19)
      expect(s!.torn).toBeUndefined()
      expect(s!.corrupt).toEqual({ from: bad, lines: [bad] })
      const reason =
        `corrupt: line ${bad} cannot be read as events of the JSONL backend, ` +
        `yet lines after it can be read, which a crash mid-write never leaves: ` +
        `replayed the 19 tool calls of the readable lines; what the others ` +
        `held is not in the report`
      expect(err).toBe(`repeat-tool-reminder replay: ${file}: ${reason}\n`)
      expect(report.errors).toEqual([{ path: file, reason }])
    },
  )

  it(
    'bad lines before a turn ends, which the backend refuses whole, and ' +
      'a torn last line: every readable line kept, each bad one named',
    async () => {
      const { root, file, lines: all } = await lines()
      const [first, , third] = results(all)
      all[first! - 1] = 'garbage'
      all[third! - 1] = '42'
      // The log ends in the middle of a line.
      const text = `${all.join('\n').trimEnd()}\n{"type":"tool/ca`
      await writeFile(file, text)
      const { status, report, err } = await runReplayJson([root])
      expect(status).toBe(1)
      expect(report.sessions[0]!.corrupt).toEqual({
        from: first,
        lines: [first, third, all.filter((l) => l !== '').length + 1],
      })
      expect(report.sessions[0]!.toolCalls).toBe(18)
      expect(err).toContain(
        `: corrupt: lines ${first}, ${third} and ${all.filter((l) => l !== '').length + 1} ` +
          `cannot be read as events of the JSONL backend, yet lines after it can be read`,
      )
    },
  )

  it('a line removed from the middle: the events after it do not follow on, and are kept', async () => {
    const { root, file, lines: all } = await lines()
    const gone = results(all)[4]!
    all.splice(gone - 1, 1)
    await writeFile(file, all.join('\n'))
    const { status, report, err } = await runReplayJson([root])
    expect(status).toBe(1)
    expect(report.sessions[0]!.corrupt).toEqual({ from: gone, lines: [] })
    expect(report.sessions[0]!.toolCalls).toBe(19)
    expect(err).toContain(
      `: corrupt: the events of line ${gone} do not follow on from those ` +
        `before it (some are missing), yet lines after it can be read`,
    )
  })

  it('more than ten bad lines: the first ten named, and how many more', async () => {
    const { root, file, lines: all } = await lines()
    const bad = results(all).slice(0, 12)
    for (const n of bad) all[n - 1] = 'x'
    await writeFile(file, all.join('\n'))
    const { err } = await runReplay(['replay', root])
    expect(err).toContain(`: corrupt: lines ${bad.slice(0, 9).join(', ')}, ${bad[9]} and 2 more cannot be read`)
  })

  it(
    "a call's own line lost: its result, which answers a call the log " + 'no longer makes, is left out with it',
    async () => {
      const { root, file, lines: all } = await lines()
      const call = all.findIndex((line) => line.includes('"tool/call"'))
      all[call] = 'lost'
      await writeFile(file, all.join('\n'))
      const { status, report } = await runReplayJson([root])
      expect(status).toBe(1)
      expect(report.sessions[0]!.corrupt).toEqual({ from: call + 1, lines: [call + 1] })
      expect(report.sessions[0]!.toolCalls).toBe(19)
    },
  )

  it('a bad last line is still a tear: nothing readable follows it', async () => {
    const { root, file, lines: all } = await lines()
    const last = all.filter((l) => l !== '').length
    all[last - 1] = 'garbage'
    await writeFile(file, all.join('\n'))
    const { status, report } = await runReplayJson([root])
    expect(status).toBe(1)
    expect(report.sessions[0]!.torn).toBeDefined()
    expect(report.sessions[0]!.corrupt).toBeUndefined()
  })
})

describe('what the corrupt-log reader keeps apart', () => {
  it(
    'a log whose last turn never ended (no turn/end after the bad line, ' +
      'so the backend calls it torn) with readable lines after: corrupt, ' +
      'each line that is no event named',
    async () => {
      const { root, file } = await session('none')
      const all = (await readFile(file, 'utf8')).trimEnd().split('\n')
      // The turn never ended: its closing events are gone.
      const cut = all.filter((line) => !line.includes('"turn/end"'))
      const results = cut.flatMap((line, i) => (line.includes('"tool/result"') ? [i + 1] : []))
      const bad = [results[3]!, results[5]!, results[7]!]
      // An event without a type, one whose seq is no whole number, and a line that is no JSON.
      cut[bad[0]! - 1] = '{"seq":5}'
      cut[bad[1]! - 1] = '{"type":"x","seq":1.5}'
      cut[bad[2]! - 1] = 'garbage'
      await writeFile(file, `${cut.join('\n')}\n`)
      const { status, report } = await runReplayJson([root])
      expect(status).toBe(1)
      expect(report.sessions[0]!.corrupt).toEqual({ from: bad[0], lines: bad })
      expect(report.sessions[0]!.toolCalls).toBe(17)
    },
  )

  it(
    'a zstd log with a bad line before its turn ends is refused with ' +
      "the backend's reason, never read line by line",
    async () => {
      const { root, file } = await session('none')
      const lines = (await readFile(file, 'utf8')).split('\n')
      lines[5] = 'garbage'
      // The writer's layout: the header in a frame of its own, then the events.
      const zstd = Buffer.concat([zstdCompressSync(`${lines[0]}\n`), zstdCompressSync(lines.slice(1).join('\n'))])
      await rm(file)
      await writeFile(`${file}.zstd`, zstd)
      const { status, err } = await runReplay(['replay', root])
      expect(status).toBe(1)
      expect(err).toBe(
        `repeat-tool-reminder replay: ${file}.zstd: corrupt session log: unparsable committed event at line 5\n`,
      )
    },
  )

  it('the reader reads a file afresh each time: what it read around a bad line is not kept', async () => {
    const { file } = await session('none')
    const whole = await readFile(file)
    const lines = whole.toString('utf8').split('\n')
    lines[5] = 'garbage'
    await writeFile(file, lines.join('\n'))
    const reader = new LogReader()
    try {
      expect((await reader.read(file)).corrupt).toBeDefined()
      await writeFile(file, whole)
      const again = await reader.read(file)
      expect(again.corrupt).toBeUndefined()
      expect(again.events.length).toBe(whole.toString('utf8').trimEnd().split('\n').length - 1)
    } finally {
      await reader.close()
    }
  })
})
