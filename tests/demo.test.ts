import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main, type Entry } from '../demo/demo.ts'
import { flagsHelp } from '../src/flags.ts'
import { detailedReminder, shortReminder } from '../src/rules/run.ts'
import * as Reminder from '../src/index.ts'
import * as ReminderInvariant from '../src/invariant.ts'
import { scratch } from '../support/scratch.ts'
import { placed, runReplayJson } from '../support/sessions.ts'

const SEARCH = '{"pattern":"retryLimit","path":"src"}'
const CANONICAL = '{"path":"src","pattern":"retryLimit"}'

describe('npm start demo', () => {
  it('default options: short after call 3, detailed after call 5, then the model changes course', async () => {
    const { status, entries } = await demoJson([])
    expect(status).toBe(0)
    expect(entries.filter((e) => e.type === 'call').map((e) => `${e.name} ${e.arguments}`)).toEqual([
      ...Array.from({ length: 5 }, () => `search_files ${SEARCH}`),
      'read_file {"path":"src/retry.ts"}',
    ])
    expect(entries.filter((e) => e.type === 'reminder')).toEqual([
      { type: 'reminder', afterCall: 3, summary: 'search_files × 3', text: shortReminder() },
      {
        type: 'reminder',
        afterCall: 5,
        summary: 'search_files × 5',
        text: detailedReminder('search_files', 5, CANONICAL),
      },
    ])
    expect(entries.at(-2)).toEqual({
      type: 'answer',
      text: 'It retries up to 4 times: MAX_ATTEMPTS in src/retry.ts, with exponential backoff.',
    })
    expect(entries.at(-1)).toEqual({ type: 'summary', calls: 6, longestRun: 5, reminders: [3, 5] })
  })

  it('custom thresholds and preview move the reminders and cut the quoted arguments', async () => {
    const { entries } = await demoJson(['--thresholds', '2,4', '--arguments-preview-chars', '10'])
    expect(entries.filter((e) => e.type === 'reminder')).toEqual([
      { type: 'reminder', afterCall: 2, summary: 'search_files × 2', text: shortReminder() },
      {
        type: 'reminder',
        afterCall: 4,
        summary: 'search_files × 4',
        text: detailedReminder('search_files', 4, '{"path":"s… (27 more chars)'),
      },
    ])
  })

  it('with the search tool excluded the model never hears from the guard and gives up after --repeats', async () => {
    const { entries } = await demoJson(['--exclude', 'search_*', '--repeats', '4'])
    expect(entries.at(-1)).toEqual({ type: 'summary', calls: 4, longestRun: 4, reminders: [] })
    expect(entries.at(-2)).toEqual({ type: 'answer', text: 'I could not find the retry setting.' })
  })

  it('--include of another tool leaves the search untracked', async () => {
    const { entries } = await demoJson(['--include', 'read_file', '--repeats', '3'])
    expect(entries.filter((e) => e.type === 'reminder')).toEqual([])
  })

  it('prints a readable transcript without colour by default', async () => {
    const { status, out } = await demo([])
    expect(status).toBe(0)
    expect(out).toContain('    ┏ repeat-tool-reminder · search_files × 3')
    expect(out).toContain(`  5 → search_files ${SEARCH}`)
    expect(out.at(-1)).toBe('6 tool calls · longest identical run 5 · 2 reminders (after calls 3, 5)')
    expect(out.join('\n')).not.toContain('\x1b[')
  })

  it('every line of the transcript fits 100 columns: the reminders are wrapped inside their box', async () => {
    const { out } = await demo(['--thresholds', '2,3'])
    expect(Math.max(...out.map((line) => [...line].length))).toBeLessThanOrEqual(100)
    expect(out).toContain('    ┃ same call again.')
  })

  it('colours the transcript when asked to', async () => {
    const { out } = await demo(['--thresholds', '2'], true)
    expect(out.join('\n')).toContain('\x1b[33m┏ repeat-tool-reminder · search_files × 2\x1b[0m')
    expect(out.at(-1)).toContain('1 reminder (after call 2)')
  })

  it('--help prints the usage', async () => {
    const { status, out } = await demo(['--help'])
    expect(status).toBe(0)
    expect(out).toEqual([
      'Usage: npm start -- [options]',
      '',
      'Watch repeat-tool-reminder break a loop inside a real dsh agent.',
      '',
      'Options:',
      // The config flags, asserted line by line in tests/flags.test.ts.
      ...flagsHelp(32).split('\n'),
      '  --repeats N                   Most identical searches the stuck model makes. Default 12.',
      "  --sessions DIR                Also write the session's log there, as dsh does, to try replay on.",
      '  --json                        Print the transcript as JSON lines and nothing else.',
      '  --help                        Show this help.',
    ])
  })

  it(
    "--sessions writes the demo's log as dsh does: replay reads it and " + 'finds the reminders the demo gave',
    async () => {
      const root = await scratch('demo-sessions')
      const { status, err } = await demo(['--sessions', root])
      expect(status).toBe(0)
      expect(err).toEqual([
        `repeat-tool-reminder demo: wrote the session's log to ${root}/_no-cwd/demo/session.jsonl.zstd`,
      ])
      const { status: replayed, report } = await runReplayJson([root])
      expect(replayed).toBe(0)
      expect(report.sessions.map((s) => [s.id, s.toolCalls, placed(s.recordedReminders)])).toEqual([
        [
          'demo',
          6,
          [
            { afterCall: 3, summary: 'search_files × 3' },
            { afterCall: 5, summary: 'search_files × 5' },
          ],
        ],
      ])
    },
  )

  it.each([
    [['--nope'], 'repeat-tool-reminder demo: unknown option --nope (--help lists the options)'],
    [
      ['--repeat', '3'],
      'repeat-tool-reminder demo: unknown option --repeat: did you mean --repeats? (--help lists the options)',
    ],
    [
      ['--preview', '9'],
      'repeat-tool-reminder demo: unknown option --preview: it is now --arguments-preview-chars ' +
        '(renamed in 0.3.0) (--help lists the options)',
    ],
    [['--repeats', '0'], 'repeat-tool-reminder demo: --repeats must be a positive integer (got "0")'],
    [
      ['--repeats', '\u001b[2J\u202e\u009b'],
      'repeat-tool-reminder demo: --repeats must be a positive integer (got "\\u001b[2J\\u202e\\u009b")',
    ],
    [['--json', 'extra'], 'repeat-tool-reminder demo: takes options only (got "extra"; --help lists the options)'],
    [
      ['--result-aware', '--result-aware-tools', 'x'],
      'repeat-tool-reminder demo: --result-aware-tools sets resultAware, ' +
        'which another flag already set; give one of them',
    ],
    [['--thresholds', '1,3'], 'repeat-tool-reminder demo: thresholds must be integers >= 2 (got 1)'],
    [['--thresholds', ''], 'repeat-tool-reminder demo: thresholds must be integers >= 2 (got "")'],
    [
      ['--arguments-preview-chars', 'lots'],
      'repeat-tool-reminder demo: argumentsPreviewChars must be a positive integer (got "lots")',
    ],
  ])('bad options, and configs the plugin rejects (%j), exit 2 with a one-line reason', async (argv, reason) => {
    const { status, out, err } = await demo(argv)
    expect(status).toBe(2)
    expect(out).toEqual([])
    expect(err).toEqual([reason])
  })
})

describe('the demo with --sessions where it cannot write', () => {
  it('says so in one line, naming the folder and why, and exits 1', async () => {
    const file = join(await scratch('demo'), 'a-file')
    await writeFile(file, '')
    const { status, out, err } = await demo(['--sessions', join(file, 'logs')])
    expect([status, out, err]).toEqual([
      1,
      [],
      [`repeat-tool-reminder demo: --sessions: cannot write the session's log under ${join(file, 'logs')} (ENOTDIR)`],
    ])
  })
})

async function demo(argv: string[], color = false) {
  const out: string[] = []
  const err: string[] = []
  const status = await main(
    argv,
    { out: (line) => out.push(...line.split('\n')), err: (line) => err.push(line), color },
    { reminder: Reminder, invariant: ReminderInvariant },
  )
  return { status, out, err }
}

async function demoJson(argv: string[]) {
  const { status, out } = await demo(['--json', ...argv])
  return { status, entries: out.map((line) => JSON.parse(line) as Entry) }
}
