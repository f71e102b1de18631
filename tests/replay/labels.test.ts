import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { known } from '../support/suggest.ts'
import { describe, expect, it } from 'vitest'
import { readLabels } from '../../src/replay/labels.ts'
import { Scorer, type Score } from '../../src/replay/score.ts'
import type { Suggestion } from '../../src/replay/tally.ts'
import { scratch } from '../../support/scratch.ts'
import { runReplay, writeSessions } from '../../support/sessions.ts'
import { pagerAndFailingTests, SCROLL, TEST } from '../support/pager.ts'
import { times, turns } from '../support/calls.ts'

/**
 * Two sessions recorded through the real loop: a failing test run repeated six times (stuck from
 * the 2nd), and paging through eight pages (productive).
 */
async function sessions(): Promise<string> {
  return writeSessions('none', [
    { id: 'stuck', script: turns(...times(6, TEST)), setup: pagerAndFailingTests },
    { id: 'paging', script: turns(...times(8, SCROLL)), setup: pagerAndFailingTests },
  ])
}

const STUCK = {
  session: 'stuck',
  first: 1,
  last: 6,
  label: 'stuck',
  from: 2,
  why: 'the same failing run, nothing changed',
}
const PAGING = { session: 'paging', first: 1, last: 8, label: 'productive', from: null }

/** A labels file with these lines, in a scratch folder removed after the test. */
async function labelsFile(...lines: (object | string)[]): Promise<string> {
  const file = join(await scratch('labels'), 'labels.jsonl')
  await writeFile(file, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n'))
  return file
}

describe('replay --labels: scoring on labeled loops recorded through the real loop', () => {
  it(
    'the defaults: the loop caught at its first threshold, the pager ' + 'reminded wrongly; exact figures in the JSON',
    async () => {
      const root = await sessions()
      const file = await labelsFile(STUCK, '', '   ', PAGING)
      const { status, out, err } = await runReplay(['replay', root, '--labels', file, '--json'])
      expect(err).toBe('')
      expect(status).toBe(0)
      const { labels } = JSON.parse(out) as { labels: { file: string; score: Score; episodes: unknown[] } }
      expect(labels.file).toBe(file)
      expect(labels.score).toEqual({
        episodes: { stuck: 1, 'busy-poll': 0, productive: 1, unclear: 0 },
        caught: { stuck: 1, 'busy-poll': 0 },
        recall: { stuck: 1, 'busy-poll': null, overall: 1 },
        right: 1,
        wrong: 1,
        precision: 0.5,
        f1: 2 / 3,
        wasted: 5,
        saved: 3,
        shareOfWasted: 0.6,
        latency: 1,
        rereads: { episodes: { stuck: 0, 'busy-poll': 0, productive: 0, unclear: 0 }, caught: 0, recall: null },
      })
      expect(labels.episodes).toEqual([
        {
          session: 'stuck',
          first: 1,
          last: 6,
          label: 'stuck',
          from: 2,
          line: 1,
          reread: false,
          firstReminder: 3,
          caughtAt: 3,
          saved: 3,
        },
        {
          session: 'paging',
          first: 1,
          last: 8,
          label: 'productive',
          from: null,
          line: 4,
          reread: false,
          firstReminder: 3,
          caughtAt: null,
          saved: 0,
        },
      ])
    },
  )

  it('the text report: the score after the totals, and every episode under --all', async () => {
    const root = await sessions()
    const file = await labelsFile(STUCK, PAGING)
    const { out } = await runReplay(['replay', root, '--labels', file, '--all'])
    // The scratch path's length varies with the process id, and with it where the first line wraps: join it back.
    expect(out.replaceAll('\n    ', ' ')).toContain(
      [
        '',
        `scored on labeled loops (${file}: 2 episodes; 1 stuck, 0 busy-poll, 1 productive, 0 unclear):`,
        '  recall 1.00 (stuck 1 of 1, busy-poll 0 of 0), precision 0.50 (1 right, 1 wrong), F1 0.67',
        '  wasted calls 5, of which a reminder could have saved 3 (0.60); latency 1 call (median)',
        '  stuck calls 1–6 stuck from 2: caught at 3, 3 calls saved',
        '  paging calls 1–8 productive: reminder at 3 (wrong)',
        '',
      ].join('\n'),
    )
    const top = (await runReplay(['replay', root, '--labels', file])).out
    expect(top).toContain('latency 1 call (median)\n\nevery session, most looping first:')
  })

  it('--suggest with labels scores a withheld result as a reminder: one at or past from catches a loop', async () => {
    const root = await sessions()
    // The stuck run's one reminder, at 3, comes before `from`; the results withheld from 4 on catch the loop.
    const file = await labelsFile({ ...STUCK, from: 4 })
    const { out } = await runReplay([
      'replay',
      root,
      '--labels',
      file,
      '--suggest',
      '--json',
      '--thresholds',
      '3',
      '--block-at',
      '4',
    ])
    const [baseline] = (JSON.parse(out) as { suggestions: Suggestion[] }).suggestions
    expect(baseline).toMatchObject({ reminders: 2, withheld: 8 })
    expect(baseline!.score).toMatchObject({ caught: { stuck: 1, 'busy-poll': 0 }, right: 0, wrong: 1, saved: 3 })
  })

  it(
    '--suggest with labels scores every candidate and recommends the ' +
      'highest F1, ties to the larger share of wasted calls saved',
    async () => {
      const root = await sessions()
      const file = await labelsFile(STUCK, PAGING)
      const { out } = await runReplay(['replay', root, '--labels', file, '--suggest', '--json'])
      const { suggestions } = JSON.parse(out) as { suggestions: Suggestion[] }
      const rows = known(suggestions, (s) => s.name).map((s) => [
        s.name,
        s.score!.f1,
        s.score!.shareOfWasted,
        s.reminders,
        s.recommended ?? false,
      ])
      expect(rows).toEqual([
        ['the config given (baseline)', 2 / 3, 0.6, 5, false],
        ['resultAware', 1, 0.6, 2, false],
        ['ignoreArguments: the prose fields', 2 / 3, 0.6, 5, false],
        ['exclude scroll_down', 1, 0.6, 2, false],
        ['resultAware for scroll_down only', 1, 0.6, 2, false],
        ['thresholds 5, 7, 10', 2 / 3, 0.2, 3, false],
        ['thresholds 2, 4, 7', 2 / 3, 0.8, 5, false],
        ['thresholds 2, 4, 7, resultAware', 1, 0.8, 2, true],
        ['thresholds 2, 4, 7, resultAware, cycles, the prose fields', 1, 0.8, 2, false],
        ['thresholds 2, 4, 7, resultAware, cycles, the prose fields, rereads', 1, 0.8, 2, false],
        ['relapse', 2 / 3, 0.6, 5, false],
        ['sameFailure', 2 / 3, 0.6, 5, false],
        ['cycles', 2 / 3, 0.6, 5, false],
        ['rereads', 2 / 3, 0.6, 5, false],
        ['resultAware, maskNoise', 1, 0.6, 2, false],
        ['blockAt 10', 2 / 3, 0.6, 5, false],
        ['remindEvery 3', 2 / 3, 0.6, 5, false],
      ])
      const text = (await runReplay(['replay', root, '--labels', file, '--suggest'])).out
      expect(text).toContain(
        [
          '  config',
          '                                       reminders  recall  precision    F1  saved  withheld',
          '    the config given (baseline)                5    1.00       0.50  0.67   0.60         0',
        ].join('\n'),
      )
      expect(text).toContain(
        '  * thresholds 2, 4, 7, resultAware            2    1.00       1.00  1.00   0.80         0\n',
      )
      expect(text).toContain(
        '    thresholds 2, 4, 7, resultAware,           2    1.00       1.00  ' +
          '1.00   0.80         0\n    cycles, the prose fields\n',
      )
      expect(text).toContain('recommended (*): thresholds 2, 4, 7, resultAware: the highest F1 on the labeled loops\n')
    },
  )

  it('when no candidate scores higher, the config given stays recommended', async () => {
    const root = await sessions()
    const file = await labelsFile(STUCK, PAGING)
    const { out } = await runReplay([
      'replay',
      root,
      '--labels',
      file,
      '--suggest',
      '--result-aware',
      '--thresholds',
      '2,4,7',
    ])
    expect(out).toContain('recommended (*): keep the config given: the highest F1 on the labeled loops\n')
  })
})

describe(
  'replay --labels: a labels file that cannot be used is an error naming ' + 'the line, and nothing is scored',
  () => {
    const bad: [string, (object | string)[], string][] = [
      ['not JSON', ['{"session":'], 'line 1: not a JSON object'],
      ['not an object', ['[1, 2]'], 'line 1: not a JSON object'],
      [
        'an unknown key',
        [{ ...STUCK, label2: 'x' }],
        'line 1: unknown key "label2" (an episode has session, first, last, label, from and why)',
      ],
      ['a missing key', [{ session: 'stuck', first: 1, last: 6, label: 'stuck' }], 'line 1: no "from"'],
      ['an empty session', [{ ...STUCK, session: '' }], 'line 1: "session" must be a session id (a non-empty string)'],
      [
        'a session that is no text',
        [{ ...STUCK, session: 7 }],
        'line 1: "session" must be a session id (a non-empty string)',
      ],
      [
        'a first that is no call number',
        [{ ...STUCK, first: 0 }],
        'line 1: "first" must be a call number (an integer from 1 to 9007199254740991), not 0',
      ],
      [
        'a last that is no call number',
        [{ ...STUCK, last: 2.5 }],
        'line 1: "last" must be a call number (an integer from 1 to 9007199254740991), not 2.5',
      ],
      ['first after last', [{ ...STUCK, first: 4, last: 3, from: 3 }], 'line 1: "first" (4) is after "last" (3)'],
      [
        'a bad label',
        [{ ...STUCK, label: 'loop' }],
        'line 1: "label" must be one of "stuck", "busy-poll", "productive", "unclear", not "loop"',
      ],
      ['a why that is not a text', [{ ...STUCK, why: 3 }], 'line 1: "why" must be a text when given'],
      [
        'from outside the span',
        [PAGING, { ...STUCK, from: 7 }],
        'line 2: "from" must be a call number from "first" to "last" (1–6) for a stuck episode, not 7',
      ],
      [
        'from before the span',
        [{ ...STUCK, first: 2, from: 1 }],
        'line 1: "from" must be a call number from "first" to "last" (2–6) for a stuck episode, not 1',
      ],
      [
        'a loop without from',
        [{ ...STUCK, label: 'busy-poll', from: null }],
        'line 1: "from" must be a call number from "first" to "last" (1–6) for a busy-poll episode, not null',
      ],
      [
        'from on a productive episode',
        [{ ...PAGING, from: 2 }],
        'line 1: "from" must be null for a productive episode, not 2',
      ],
      [
        'overlapping episodes',
        [STUCK, PAGING, { ...STUCK, first: 6, last: 7, label: 'unclear', from: null }],
        'line 3: calls 6–7 overlap the episode on line 1 (calls 1–6) of the same session',
      ],
      [
        'episodes that share their one call, the later first',
        [
          { ...STUCK, first: 6, last: 7, from: 6 },
          { ...STUCK, first: 2, last: 6, from: 3 },
        ],
        'line 2: calls 2–6 overlap the episode on line 1 (calls 6–7) of the same session',
      ],
    ]

    it.each(bad)('%s', async (_what, lines, problem) => {
      const root = await sessions()
      const file = await labelsFile(...lines)
      const { status, out, err } = await runReplay(['replay', root, '--labels', file, '--json'])
      expect(status).toBe(2)
      expect(out).toBe('')
      expect(err).toBe(`repeat-tool-reminder replay: ${file}: ${problem}\n`)
    })

    it('a labels file that does not exist', async () => {
      const root = await sessions()
      const file = join(await scratch('labels'), 'none.jsonl')
      const { status, err } = await runReplay(['replay', root, '--labels', file])
      expect(status).toBe(2)
      expect(err).toBe(`repeat-tool-reminder replay: ${file}: no such file or directory\n`)
    })

    const unfit: [string, (object | string)[], string[]][] = [
      [
        'a label for a call past the end of its session',
        [STUCK, { ...PAGING, last: 9 }],
        ['line 2: call 9 is past the end of session "paging", which has 8 tool calls'],
      ],
      [
        'a session the replayed logs do not contain',
        [{ ...STUCK, session: 'gone' }, STUCK],
        ['line 1: session "gone" is in none of the replayed logs'],
      ],
    ]

    it.each(unfit)('%s: reported after the replay, exit 1, no score', async (_what, lines, problems) => {
      const root = await sessions()
      const file = await labelsFile(...lines)
      const { status, out, err } = await runReplay(['replay', root, '--labels', file, '--suggest', '--json'])
      expect(status).toBe(1)
      expect(err).toBe(problems.map((p) => `repeat-tool-reminder replay: ${file}: ${p}\n`).join(''))
      const document = JSON.parse(out) as { labels?: unknown; suggestions: Suggestion[]; errors: unknown[] }
      expect(document.labels).toBeUndefined()
      expect(document.suggestions.every((s) => s.score === undefined)).toBe(true)
      expect(document.errors).toEqual(problems.map((reason) => ({ path: file, reason })))
    })

    it('a session in two of the replayed logs', async () => {
      const one = await sessions()
      const other = await writeSessions('none', [
        { id: 'stuck', script: turns(...times(6, TEST)), setup: pagerAndFailingTests },
      ])
      const file = await labelsFile(STUCK)
      const { status, err } = await runReplay(['replay', one, other, '--labels', file])
      expect(status).toBe(1)
      expect(err).toBe(
        `repeat-tool-reminder replay: ${file}: line 1: session "stuck" is in more than one of the replayed logs\n`,
      )
    })
  },
)

describe('the score, as the loop benchmark defines it', () => {
  const labels = (...lines: object[]) => readLabels('labels.jsonl', lines.map((l) => JSON.stringify(l)).join('\n'))
  const loop = (first: number, last: number, from: number, label = 'stuck') => ({
    session: 's',
    first,
    last,
    label,
    from,
  })
  const calm = (first: number, last: number, label = 'productive') => ({ session: 's', first, last, label, from: null })

  it('an episode of one call is fine; marks count in call order, however they were given', () => {
    const scorer = new Scorer(labels(loop(4, 4, 4), loop(6, 9, 7)))
    expect(
      scorer.add('s', 9, { reminders: [8, 4], withheld: [7] })!.map((e) => [e.firstReminder, e.caughtAt, e.saved]),
    ).toEqual([
      [4, 4, 0],
      [7, 7, 3],
    ])
  })

  it('F1 is the harmonic mean of recall and precision', () => {
    const scorer = new Scorer(labels(loop(1, 3, 2), loop(5, 7, 6)))
    scorer.add('s', 7, { reminders: [2], withheld: [] })
    expect(scorer.score()).toMatchObject({ recall: { overall: 0.5 }, precision: 1, f1: 2 / 3 })
  })

  it('a withheld result saves its own call too; a reminder only the calls after it', () => {
    const reminded = new Scorer(labels(loop(1, 10, 3)))
    reminded.add('s', 10, { reminders: [4], withheld: [] })
    expect(reminded.score()).toMatchObject({ wasted: 8, saved: 6, latency: 1 })
    const withheld = new Scorer(labels(loop(1, 10, 3)))
    withheld.add('s', 10, { reminders: [], withheld: [4] })
    expect(withheld.score()).toMatchObject({ wasted: 8, saved: 7, latency: 1 })
  })

  it('a first reminder before from is wrong, though a later one catches the loop', () => {
    const scorer = new Scorer(labels(loop(1, 10, 5)))
    expect(scorer.add('s', 10, { reminders: [3, 6], withheld: [] })).toEqual([
      {
        session: 's',
        first: 1,
        last: 10,
        label: 'stuck',
        from: 5,
        line: 1,
        reread: false,
        firstReminder: 3,
        caughtAt: 6,
        saved: 4,
      },
    ])
    expect(scorer.score()).toMatchObject({
      right: 0,
      wrong: 1,
      precision: 0,
      f1: 0,
      caught: { stuck: 1, 'busy-poll': 0 },
    })
  })

  it(
    'a reminder outside every episode is wrong; inside an unclear one ' +
      'it is not judged; one session unlabeled is not scored',
    () => {
      const scorer = new Scorer(labels(loop(1, 4, 2, 'busy-poll'), calm(6, 8, 'unclear')))
      expect(scorer.add('other', 9, { reminders: [2], withheld: [] })).toBeUndefined()
      scorer.add('s', 12, { reminders: [2, 3, 7, 11], withheld: [11] })
      expect(scorer.score()).toEqual({
        episodes: { stuck: 0, 'busy-poll': 1, productive: 0, unclear: 1 },
        caught: { stuck: 0, 'busy-poll': 1 },
        recall: { stuck: null, 'busy-poll': 1, overall: 1 },
        right: 1,
        wrong: 1,
        precision: 0.5,
        f1: 2 / 3,
        wasted: 3,
        saved: 2,
        shareOfWasted: 2 / 3,
        latency: 0,
        rereads: { episodes: { stuck: 0, 'busy-poll': 0, productive: 0, unclear: 0 }, caught: 0, recall: null },
      })
    },
  )

  it('no reminder at all: precision and latency unknown, F1 0; no loop: recall and share unknown', () => {
    const quiet = new Scorer(labels(loop(1, 4, 2)))
    quiet.add('s', 4, { reminders: [], withheld: [] })
    expect(quiet.score()).toMatchObject({ precision: null, f1: 0, latency: null, recall: { overall: 0 } })
    const calmOnly = new Scorer(labels(calm(1, 3)))
    calmOnly.add('s', 3, { reminders: [], withheld: [] })
    expect(calmOnly.score()).toMatchObject({ recall: { overall: null }, shareOfWasted: null, f1: 0 })
  })

  it('latency is the median: the middle one, or the mean of the middle two', () => {
    const lines = [loop(1, 5, 1), { ...loop(1, 5, 1), session: 't' }, { ...loop(1, 5, 1), session: 'u' }]
    const odd = new Scorer(labels(...lines))
    odd.add('s', 5, { reminders: [1], withheld: [] })
    odd.add('t', 5, { reminders: [4], withheld: [] })
    odd.add('u', 5, { reminders: [2], withheld: [] })
    expect(odd.score().latency).toBe(1)
    const even = new Scorer(labels(...lines.slice(0, 2)))
    even.add('s', 5, { reminders: [1], withheld: [] })
    even.add('t', 5, { reminders: [4], withheld: [] })
    expect(even.score().latency).toBe(1.5)
  })

  it(
    'what does not fit is listed in line order: a call past the end (of ' +
      'a one-call session too), sessions no log has',
    () => {
      const scorer = new Scorer(
        labels(
          { ...calm(1, 2), session: 'a' },
          { ...calm(1, 2), session: 'b' },
          { ...calm(1, 2), session: 'c' },
          { ...calm(4, 5), session: 'a' },
        ),
      )
      expect(scorer.add('c', 1, { reminders: [], withheld: [] })).toBeUndefined()
      expect(scorer.problems().map((p) => p.message)).toEqual([
        'labels.jsonl: line 1: session "a" is in none of the replayed logs',
        'labels.jsonl: line 2: session "b" is in none of the replayed logs',
        'labels.jsonl: line 3: call 2 is past the end of session "c", which has 1 tool call',
      ])
    },
  )

  it("episodes are listed in the order of the file, each session's scored in call order", () => {
    const scorer = new Scorer(labels(loop(6, 8, 7), { ...calm(1, 2), session: 't' }, calm(1, 3)))
    scorer.add('t', 2, { reminders: [], withheld: [] })
    scorer.add('s', 8, { reminders: [], withheld: [] })
    expect(scorer.episodes().map((e) => [e.session, e.line])).toEqual([
      ['s', 1],
      ['t', 2],
      ['s', 3],
    ])
  })
})
