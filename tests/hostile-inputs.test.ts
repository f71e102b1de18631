import { execFileSync } from 'node:child_process'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Config } from '../src/config.ts'
import { CONFIG_BYTES } from '../src/replay/options.ts'
import { scratch } from '../support/scratch.ts'
import { scratchFile } from './support/files.ts'
import { runReplay, runReplayJson, writeSessions } from '../support/sessions.ts'
import { GREP, times, turns } from './support/calls.ts'

/** A file with `text` in a scratch folder removed after the test. */
const file = (name: string, text: string) => scratchFile('hostile', name, text)

async function sessions(): Promise<string> {
  return writeSessions('none', [{ id: 'grep', script: turns(...times(3, GREP)) }])
}

/** replay with `args` after a sessions root: its exit status and stderr, and stdout's length. */
async function refused(args: string[]) {
  const { status, out, err } = await runReplay(['replay', await sessions(), ...args])
  return { status, out: out.length, err }
}

const STUCK = { session: 'grep', first: 1, last: 3, label: 'stuck', from: 2 }

// Files of megabytes through the real parser: a slow run on a busy machine is not a wrong one.
describe('files named by --config and --labels that are not what they should be', { timeout: 30_000 }, () => {
  it.each(['--config', '--labels'])(
    '%s: a FIFO is refused without reading it, where opening it for reading would wait forever',
    async (flag) => {
      const fifo = join(await scratch('hostile'), 'fifo')
      execFileSync('mkfifo', [fifo])
      expect(await refused([flag, fifo])).toEqual({
        status: 2,
        out: 0,
        err: `repeat-tool-reminder replay: ${fifo}: not a regular file; replay reads only regular files\n`,
      })
    },
  )

  it.each(['--config', '--labels'])('%s: /dev/zero, a device without end, is refused', async (flag) => {
    expect(await refused([flag, '/dev/zero'])).toEqual({
      status: 2,
      out: 0,
      err: 'repeat-tool-reminder replay: /dev/zero: not a regular file; replay reads only regular files\n',
    })
  })

  it(
    'every file --config and --labels name is closed, read, refused or ' + 'too large: no file descriptor is left open',
    async () => {
      const fifo = join(await scratch('hostile'), 'fifo')
      execFileSync('mkfifo', [fifo])
      const config = await file('guard.yml', 'thresholds: [2]\n')
      const big = await file('big.yml', `# ${'x'.repeat(CONFIG_BYTES)}\n`)
      const labels = await file('labels.jsonl', `${JSON.stringify(STUCK)}\n`)
      const root = await sessions()
      const open = async () => (await readdir('/proc/self/fd')).length
      const before = await open()
      for (const args of [
        ['--config', config],
        ['--config', big],
        ['--config', fifo],
        ['--labels', labels],
        ['--labels', fifo],
      ]) {
        for (let i = 0; i < 3; i++) await runReplay(['replay', root, ...args])
      }
      expect(await open()).toBe(before)
    },
  )

  it('--config: a file over 256 KiB is refused', async () => {
    const path = await file('big.yml', `# ${'x'.repeat(CONFIG_BYTES)}\n`)
    expect(await refused(['--config', path])).toEqual({
      status: 2,
      out: 0,
      err: `repeat-tool-reminder replay: ${path}: more than 262,144 bytes, the most replay reads from such a file\n`,
    })
  })

  it('--config: a 600-byte YAML alias bomb in thresholds is refused by what it expands to, at once', async () => {
    const bomb = [
      'a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      ),
    ].join('\n')
    const path = await file('bomb.yml', `${bomb}\nthresholds: *i\n`)
    expect(bomb.length).toBeLessThan(600)
    expect(await refused(['--config', path])).toEqual({
      status: 2,
      out: 0,
      err:
        `repeat-tool-reminder replay: ${path}: expands to more than 262,144 ` +
        `values and characters (YAML aliases count each time they are used); ` +
        `a config is a few hundred\n`,
    })
  })

  it('--config: include aliasing a long text thousands of times is refused by what it expands to', async () => {
    const path = await file(
      'include.yml',
      `x: &x ${'p'.repeat(100_000)}\ninclude: [${Array(20).fill('*x').join(', ')}]\n`,
    )
    expect((await refused(['--config', path])).err).toBe(
      `repeat-tool-reminder replay: ${path}: expands to more than 262,144 ` +
        `values and characters (YAML aliases count each time they are used); ` +
        `a config is a few hundred\n`,
    )
  })

  it(
    '--config: a config that expands to exactly 262,144 values and characters ' +
      'is read; one character more is refused',
    async () => {
      // The root, the key x and its text, the key include, its list and the text again: 2L + 12.
      const text = (length: number) => `x: &x ${'p'.repeat(length)}\ninclude: [*x]\n`
      const fits = await file('fits.yml', text(131_066))
      expect((await refused(['--config', fits])).err).toBe(`repeat-tool-reminder replay: ${fits}: unknown option "x"\n`)
      const over = await file('over.yml', text(131_067))
      expect((await refused(['--config', over])).err).toBe(
        `repeat-tool-reminder replay: ${over}: expands to more than 262,144 ` +
          `values and characters (YAML aliases count each time they are used); ` +
          `a config is a few hundred\n`,
      )
    },
  )

  it('--config: lists nested 63 deep under a key are read (the 64th level is their number)', async () => {
    const fits = await file('fits.yml', `thresholds: ${'['.repeat(63)}2${']'.repeat(63)}\n`)
    expect((await refused(['--config', fits])).err).toBe(
      `repeat-tool-reminder replay: ${fits}: thresholds must be integers ` +
        `>= 2 (got ${'['.repeat(62)}2${']'.repeat(17)}…)\n`,
    )
  })

  it('--config: a file of exactly 262,144 bytes is read; one byte more is refused', async () => {
    const exact = await file('exact.yml', `# ${'x'.repeat(CONFIG_BYTES - 3)}\n`)
    expect((await refused(['--config', exact])).err).toBe(
      `repeat-tool-reminder replay: ${exact}: holds neither a config object nor a list of profile patches (got null)\n`,
    )
    const over = await file('over.yml', `# ${'x'.repeat(CONFIG_BYTES - 2)}\n`)
    expect((await refused(['--config', over])).err).toBe(
      `repeat-tool-reminder replay: ${over}: more than 262,144 bytes, the most replay reads from such a file\n`,
    )
  })

  it('--config: values nested deeper than 64 levels are refused', async () => {
    const path = await file('deep.yml', `thresholds: ${'['.repeat(64)}2${']'.repeat(64)}\n`)
    expect((await refused(['--config', path])).err).toBe(
      `repeat-tool-reminder replay: ${path}: nests values more than 64 levels deep; a config nests two\n`,
    )
  })

  it('a value that is a huge shared structure is quoted in 80 characters, not expanded', () => {
    let bomb: unknown = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    for (let i = 0; i < 9; i++) bomb = Array(10).fill(bomb)
    expect(() => Config({ thresholds: bomb as never })).toThrow(
      `repeat-tool-reminder: thresholds must be integers >= 2 (got ${'['.repeat(9)}` +
        '1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1],[1,1,1…)',
    )
  })

  it('--labels: 130,000 lines for a session no log has: one problem, named by its first line', async () => {
    const lines = Array.from({ length: 130_000 }, (_, i) =>
      JSON.stringify({ session: 'gone', first: i + 1, last: i + 1, label: 'unclear', from: null }),
    )
    const path = await file('labels.jsonl', lines.join('\n'))
    expect(await refused(['--labels', path])).toMatchObject({
      status: 1,
      err: `repeat-tool-reminder replay: ${path}: line 1: session "gone" is in none of the replayed logs\n`,
    })
  })

  it(
    '--labels: the first line, in file order, that overlaps an earlier ' +
      'one is named, before a bad line after it; a bad line before it wins',
    async () => {
      const overlap = { ...STUCK, first: 2, last: 2, label: 'unclear', from: null }
      const path = await file(
        'a.jsonl',
        [STUCK, { ...STUCK, session: 'b', first: 9, last: 9, from: 9 }, overlap, 'bad']
          .map((l) => (typeof l === 'string' ? l : JSON.stringify(l)))
          .join('\n'),
      )
      expect((await refused(['--labels', path])).err).toBe(
        `repeat-tool-reminder replay: ${path}: line 3: calls 2–2 overlap ` +
          `the episode on line 1 (calls 1–3) of the same session\n`,
      )
      const first = await file('b.jsonl', ['bad', JSON.stringify(STUCK), JSON.stringify(overlap)].join('\n'))
      expect((await refused(['--labels', first])).err).toBe(
        `repeat-tool-reminder replay: ${first}: line 1: not a JSON object\n`,
      )
    },
  )

  it(
    "--labels: of two bad lines the first is named; of two sessions' " + 'overlaps, the one on the earlier line',
    async () => {
      const bad = await file('bad.jsonl', 'x\ny\n')
      expect((await refused(['--labels', bad])).err).toBe(
        `repeat-tool-reminder replay: ${bad}: line 1: not a JSON object\n`,
      )
      const other = { ...STUCK, session: 'other' }
      const path = await file(
        'two.jsonl',
        [STUCK, other, { ...STUCK, first: 3, last: 3, from: 3 }, { ...other, first: 3, last: 3, from: 3 }]
          .map((l) => JSON.stringify(l))
          .join('\n'),
      )
      expect((await refused(['--labels', path])).err).toBe(
        `repeat-tool-reminder replay: ${path}: line 3: calls 3–3 overlap ` +
          `the episode on line 1 (calls 1–3) of the same session\n`,
      )
    },
  )

  it('--labels: of episodes given in any order, the first line that overlaps any earlier one', async () => {
    const episodes = [
      [20, 25],
      [1, 3],
      [10, 12],
      [30, 31],
      [4, 9],
      [11, 11],
      [2, 2],
    ].map(([first, last]) => ({ session: 'grep', first, last, label: 'unclear', from: null }))
    const path = await file('c.jsonl', episodes.map((e) => JSON.stringify(e)).join('\n'))
    expect((await refused(['--labels', path])).err).toBe(
      `repeat-tool-reminder replay: ${path}: line 6: calls 11–11 overlap ` +
        `the episode on line 3 (calls 10–12) of the same session\n`,
    )
  })

  const quoted: [string, string, string][] = [
    [
      'a value nested 100,000 levels deep',
      `{"session":"grep","first":${'['.repeat(100_000)}1${']'.repeat(100_000)},"last":3,"label":"stuck","from":2}`,
      `line 1: "first" must be a call number (an integer from 1 to 9007199254740991), ` +
        `not ${'['.repeat(40)}… (199961 more chars)`,
    ],
    [
      'a number too large for a double',
      '{"session":"grep","first":1e400,"last":3,"label":"stuck","from":2}',
      'line 1: "first" must be a call number (an integer from 1 to 9007199254740991), not 1e400',
    ],
    [
      'a number a double cannot hold exactly',
      '{"session":"grep","first":1,"last":9007199254740993,"label":"stuck","from":2}',
      'line 1: "last" must be a call number (an integer from 1 to 9007199254740991), not 9007199254740993',
    ],
    [
      '1e400 where null belongs',
      '{"session":"grep","first":1,"last":3,"label":"productive","from":1e400}',
      'line 1: "from" must be null for a productive episode, not 1e400',
    ],
    [
      'a 10 MB value',
      `{"session":"grep","first":1,"last":3,"label":"${'x'.repeat(10_000_000)}","from":2}`,
      `line 1: "label" must be one of "stuck", "busy-poll", "productive", ` +
        `"unclear", not "${'x'.repeat(39)}… (9999962 more chars)`,
    ],
    [
      'a container holding strings with brackets',
      '{"session":"grep","first":{"a":"]}","b":["[\\""]},"last":3,"label":"stuck","from":2}',
      'line 1: "first" must be a call number (an integer from 1 to 9007199254740991), not {"a":"]}","b":["[\\""]}',
    ],
    [
      'a bad literal followed by a space',
      '{"session":"grep","first": 1e400 ,"last":3,"label":"stuck","from":2}',
      'line 1: "first" must be a call number (an integer from 1 to 9007199254740991), not 1e400',
    ],
    [
      'a bad literal followed by a tab',
      '{"session":"grep","first":\t1e400\t,"last":3,"label":"stuck","from":2}',
      'line 1: "first" must be a call number (an integer from 1 to 9007199254740991), not 1e400',
    ],
    [
      'a bad literal followed by a carriage return',
      '{"session":"grep","first":\r1e400\r,"last":3,"label":"stuck","from":2}',
      'line 1: "first" must be a call number (an integer from 1 to 9007199254740991), not 1e400',
    ],
    [
      'a key given twice',
      '{"session":"grep","first":1,"first":2,"last":3,"label":"stuck","from":2}',
      'line 1: key "first" given twice',
    ],
    [
      'a key given twice, escaped the second time',
      '{"session":"grep","first":1,"\\u0066irst":2,"last":3,"label":"stuck","from":2}',
      'line 1: key "first" given twice',
    ],
    [
      'an escaped control character, which stays escaped',
      '{"session":"grep","first":1,"last":3,"label":"\\u001b[2J","from":2}',
      'line 1: "label" must be one of "stuck", "busy-poll", "productive", "unclear", not "\\u001b[2J"',
    ],
  ]

  it.each(quoted)('--labels: %s is quoted as written, in at most 40 characters', async (_what, line, problem) => {
    const path = await file('labels.jsonl', `${line}\n`)
    expect(await refused(['--labels', path])).toEqual({
      status: 2,
      out: 0,
      err: `repeat-tool-reminder replay: ${path}: ${problem}\n`,
    })
  })

  it(
    '--labels: spaces around keys, values and colons, strings with escaped ' +
      'quotes and brackets, nested values: all read',
    async () => {
      const path = await file(
        'labels.jsonl',
        ' { "session" : "grep" , "first":1,"last" :3, "label":"stuck","from": ' +
          '2 , "why" : "a \\"quoted\\" [x] {y} \\\\" } \n',
      )
      const { status, report } = await runReplayJson([await sessions(), '--labels', path])
      expect(status).toBe(0)
      expect(report.labels!.episodes).toHaveLength(1)
    },
  )
})
