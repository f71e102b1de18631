import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readLabels, withRereads } from '../../src/replay/labels.ts'
import { Scorer } from '../../src/replay/score.ts'
import { runReplay, writeSessions } from '../../support/sessions.ts'
import { scratch } from '../../support/scratch.ts'
import { GREP, times, turns } from '../support/calls.ts'

describe('scoring rereads, as the loop benchmark says', () => {
  const loops = (...lines: object[]) => readLabels('loops.jsonl', lines.map((l) => JSON.stringify(l)).join('\n'))
  const rereads = (...lines: object[]) =>
    readLabels('rereads.jsonl', lines.map((l) => JSON.stringify(l)).join('\n'), true)

  it('precision over both files, recall over the loops, reread recall apart', () => {
    const labels = withRereads(
      loops({ session: 's', first: 1, last: 3, label: 'stuck', from: 2 }),
      rereads(
        { session: 's', first: 5, last: 7, label: 'stuck', from: 7 },
        { session: 's', first: 9, last: 10, label: 'productive', from: null },
        { session: 's', first: 11, last: 12, label: 'unclear', from: null },
        { session: 't', first: 1, last: 3, label: 'stuck', from: 3 },
        { session: 'u', first: 1, last: 3, label: 'busy-poll', from: 3 },
        { session: 'v', first: 1, last: 2, label: 'stuck', from: 2 },
      ),
    )
    const scorer = new Scorer(labels)
    // Scored out of file order: the episodes are listed in it all the same.
    scorer.add('u', 3, { reminders: [3], withheld: [] })
    scorer.add('s', 12, { reminders: [2, 6, 7, 10, 12], withheld: [] })
    scorer.add('t', 3, { reminders: [], withheld: [] })
    scorer.add('v', 2, { reminders: [2], withheld: [] })
    // Right: the loop's, u's and v's first marks (at from); wrong: the reread's before from, the productive one's.
    expect(scorer.score()).toMatchObject({
      recall: { overall: 1 },
      right: 3,
      wrong: 2,
      rereads: { episodes: { stuck: 3, 'busy-poll': 1, productive: 1, unclear: 1 }, caught: 2, recall: 2 / 3 },
    })
    expect(scorer.episodes().map((e) => [e.reread, e.line, e.caughtAt])).toEqual([
      [false, 1, 2],
      [true, 1, 7],
      [true, 2, null],
      [true, 3, null],
      [true, 4, null],
      [true, 5, 3],
      [true, 6, 2],
    ])
  })

  it('what does not fit names the file it is in', () => {
    const scorer = new Scorer(
      withRereads(
        loops({ session: 's', first: 1, last: 2, label: 'stuck', from: 2 }),
        rereads({ session: 'gone', first: 1, last: 2, label: 'stuck', from: 2 }),
      ),
    )
    scorer.add('s', 2, { reminders: [], withheld: [] })
    expect(scorer.problems().map((p) => p.message)).toEqual([
      'rereads.jsonl: line 1: session "gone" is in none of the replayed logs',
    ])
  })

  it('a reread that shares a call with a loop episode is refused, naming both lines', () => {
    expect(() =>
      withRereads(
        loops({ session: 's', first: 1, last: 4, label: 'stuck', from: 2 }),
        rereads({ session: 's', first: 4, last: 6, label: 'stuck', from: 6 }),
      ),
    ).toThrow('line 1: calls 4–6 overlap the loop episode on line 1 of loops.jsonl (calls 1–4)')
  })

  it('replay --reread-labels: the score and the reread recall in the text report; mistakes said as usual', async () => {
    const root = await writeSessions('none', [{ id: 's', script: turns(...times(3, GREP)) }])
    const dir = await scratch('reread-labels')
    const loopsFile = join(dir, 'loops.jsonl')
    const rereadsFile = join(dir, 'rereads.jsonl')
    await writeFile(loopsFile, JSON.stringify({ session: 's', first: 1, last: 2, label: 'stuck', from: 2 }))
    await writeFile(rereadsFile, JSON.stringify({ session: 's', first: 3, last: 3, label: 'stuck', from: 3 }))
    const { status, out } = await runReplay([
      'replay',
      root,
      '--labels',
      loopsFile,
      '--reread-labels',
      rereadsFile,
      '--thresholds',
      '2,3',
    ])
    expect(status).toBe(0)
    // The scratch path's length varies with the process id, and with it where the line wraps: join it back.
    expect(out.replaceAll('\n      ', ' ')).toContain(
      `  with the rereads (${rereadsFile}: 1 stuck, 0 productive, 0 unclear) judged for precision too; ` +
        'reread recall 1.00 (stuck 1 of 1)\n',
    )
    expect(await runReplay(['replay', root, '--reread-labels', rereadsFile])).toMatchObject({
      status: 2,
      err: 'repeat-tool-reminder replay: --reread-labels needs --labels\n',
    })
    expect(
      (await runReplay(['replay', root, '--labels', loopsFile, '--reread-labels', join(dir, 'none.jsonl')])).status,
    ).toBe(2)
    await writeFile(rereadsFile, JSON.stringify({ session: 's', first: 2, last: 3, label: 'stuck', from: 3 }))
    expect(await runReplay(['replay', root, '--labels', loopsFile, '--reread-labels', rereadsFile])).toMatchObject({
      status: 2,
      err:
        `repeat-tool-reminder replay: ${rereadsFile}: line 1: calls 2–3 overlap ` +
        `the loop episode on line 1 of ${loopsFile} (calls 1–2)\n`,
    })
  })
})
