import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { comparison } from '../src/compare.ts'
import { Config } from '../src/config.ts'
import { createGuard } from '../src/guard.ts'
import { maskNoise } from '../src/noise.ts'
import { rereadText } from '../src/texts.ts'
import { failed, failureText } from '../src/failures.ts'
import { readLabels, withRereads } from '../src/replay/labels.ts'
import { Scorer } from '../src/replay/score.ts'
import { runReplay, writeSessions } from '../support/sessions.ts'
import { scratch } from '../support/scratch.ts'
import { GREP, times, turns } from './support/calls.ts'

const text = (t: string) => [{ type: 'text' as const, text: t }]

describe('maskNoise: what changes run to run without meaning anything', () => {
  it('a project under /tmp keeps its file names: a listing that grows is a change', () => {
    expect(maskNoise('/tmp/proj/a.py\n/tmp/proj/b.py')).not.toBe(maskNoise('/tmp/proj/a.py'))
  })

  it('a word of millions of digits is masked in one pass, not by a pattern that overflows the stack', () => {
    expect(maskNoise('1'.repeat(6_000_000))).toHaveLength(6_000_000)
    expect(maskNoise(`x ${'a'.repeat(6_000_000)} y`)).toBe('x <hex> y')
  })

  it.each([
    ['built in 968ms', 'built in <duration>'],
    ['Ran 5 tests in 0.003s', 'Ran 5 tests in <duration>'],
    ['took 1.2 seconds, then 3 min', 'took <duration>, then <duration>'],
    ['at 2026-12-03T16:17:51.123Z and 2026-12-03', 'at <date> and <date>'],
    ['2026-12-03 16:17, 2026-12-03T16:17:51Z, 2026-12-03T16:17:51', '<date>, <date>, <date>'],
    ['2026-12-03T16:17:51+01:00 and 2026-12-03T16:17:51-0530', '<date> and <date>'],
    ['finished 16:17:51.5, 16:17:51.123 and 16:17:51', 'finished <time>, <time> and <time>'],
    ['1 second, 2 sec, 1 minute', '<duration>, <duration>, <duration>'],
    ['pid 4242 and PID: 17 and pid=9', 'pid <pid> and pid <pid> and pid <pid>'],
    ['wrote /tmp/tmpa1b2c3/x.py, then /var/folders/ab/cd12/T/tmpq/y', 'wrote <tmp>/x.py, then <tmp>/y'],
    ['/private/tmp/pytest-7/test_a0/out.txt', '<tmp>/test_a0/out.txt'],
    [
      `a big number: 100000004096 bytes, then 1${'0'.repeat(30)}`,
      `a big number: 100000004096 bytes, then 1${'0'.repeat(30)}`,
    ],
    ['commit deadbeef1234 and DEADBEEF12345678', 'commit <hex> and <hex>'],
    ['commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a3f', 'commit <hex>'],
    ['id 123e4567-e89b-12d3-a456-426614174000', 'id <hex>'],
  ])('%j is masked to %j', (raw, masked) => {
    expect(maskNoise(raw)).toBe(masked)
  })

  it.each([
    ['3 failed, 12 passed'],
    ['error at line 42, column 7'],
    ['[exit code: 2]'],
    ['1st try, 2nd try'],
    ['abc123 is a short id'],
  ])('a false friend is kept: %j', (raw) => {
    expect(maskNoise(raw)).toBe(raw)
  })
})

describe('failed: a result that says its call failed with an error to show', () => {
  it.each<[string, boolean, unknown[], boolean]>([
    ['dsh bash, a nonzero exit with output', false, text('boom\n[exit code: 1]'), true],
    ['dsh bash, a nonzero exit with no output', false, text('(no output)\n[exit code: 1]'), false],
    [
      'dsh bash, a sandbox denial and its marker lines',
      false,
      text('cp: denied\n[sandbox: file access denied under workspace mode]'),
      true,
    ],
    ['dsh bash, markers only', false, text('[timed out after 5ms]\n[killed by signal: SIGTERM]'), false],
    ['dsh bash, a success', false, text('fine'), false],
    ['an error result', true, text('quota exceeded'), true],
    ['an error result with an empty text', true, text('  '), false],
    ['an error result without text', true, [{ type: 'image', data: 'x', mimeType: 'image/png' }], true],
    ['an error result without content', true, [], false],
    [
      'mini-swe-agent, a nonzero return code with output',
      false,
      text('<returncode>2</returncode>\n<output>\nTraceback\n</output>'),
      true,
    ],
    [
      'mini-swe-agent, a nonzero return code with no output',
      false,
      text('<returncode>1</returncode>\n<output>\n</output>'),
      false,
    ],
    ['mini-swe-agent, return code 0', false, text('<returncode>0</returncode>\n<output>\nok\n</output>'), false],
    [
      'mini-swe-agent, a two-digit return code',
      false,
      text('<returncode>16</returncode>\n<output>\nlint\n</output>'),
      true,
    ],
    ['mini-swe-agent, no output tag, no white space', false, text('<returncode>1</returncode>boom'), true],
    [
      'mini-swe-agent, no output but a line feed after it',
      false,
      text('<returncode>1</returncode>\n<output>\n</output>\n'),
      false,
    ],
    ['a return code that does not open the text', false, text('log: <returncode>1</returncode> x'), false],
    ['a last block that is no text', false, [{ type: 'image', text: 'boom\n[exit code: 1]' }], false],
    ['a text block whose text is no string', false, [{ type: 'text', text: 5 }], false],
    ['markers alone, the first after a line feed', true, text('\n[exit code: 1]\n[killed by signal: SIGTERM]'), false],
    ['no output but spaces around it', true, text('  (no output)  \n[exit code: 1]'), false],
    ['nothing but spaces before the marker', true, text(' \n[exit code: 1]'), false],
    ['a last line in brackets that is no marker', false, text('out\nlist: [1, 2]'), false],
    ['a marker that does not close its bracket', false, text('out\n[exit code: 1'), false],
  ])('%s: %s', (_, isError, content, expected) => {
    expect(failed(isError, content as never)).toBe(expected)
  })

  it('an error is quoted by its end, from a line start, within 200 characters', () => {
    const long = `${'x'.repeat(300)}\nline two\nthe end`
    expect(failureText({ isError: true, content: text(long) })).toBe('…line two\nthe end')
    expect(failureText({ isError: true, content: text('y'.repeat(250)) })).toBe(`…${'y'.repeat(200)}`)
    expect(failureText({ isError: true, content: [{ type: 'image' }, ...text(' short ')] })).toBe('short')
    expect(failureText(undefined)).toBe('')
    expect(
      failureText({
        isError: true,
        content: [null, { type: 'image', text: 'img' }, { type: 'text', text: 5 }, ...text('err')],
      }),
    ).toBe('err')
    expect(failureText({ isError: true, content: [...text('first'), ...text('second')] })).toBe('first\nsecond')
    // 200 characters are quoted whole; a tail that starts a line is quoted from there.
    const exact = `${'a'.repeat(99)}\n${'b'.repeat(100)}`
    expect(failureText({ isError: true, content: text(exact) })).toBe(exact)
    expect(failureText({ isError: true, content: text(`${'x'.repeat(50)}\n${'y'.repeat(199)}`) })).toBe(
      `…${'y'.repeat(199)}`,
    )
  })
})

describe('rereads: which repeats the guard reminds', () => {
  const agent = {} as never
  const result = (t: string) => ({ isError: false, content: text(t) })
  const drive = (config: Partial<Config>, calls: [string, unknown, string][]) => {
    const guard = createGuard(Config({ rereads: true, ...config }))
    return calls
      .map(
        ([name, args, out], i) =>
          [i + 1, guard.observe({ agent, name, arguments: args }, result(out))?.reminder?.content[0]] as const,
      )
      .filter(([, r]) => r !== undefined)
      .map(([n, r]) => [n, (r as { text: string }).text])
  }

  it('what lies between decides: the same read with another result, or a writer between, is no reread', () => {
    const grep = (out: string): [string, unknown, string] => ['grep', { pattern: 'x' }, out]
    const glob: [string, unknown, string] = ['glob', { pattern: '*' }, 'G']
    const write: [string, unknown, string] = ['write', { path: 'f' }, 'written']
    expect(drive({}, [grep('X'), glob, grep('Y')])).toEqual([])
    expect(drive({}, [grep('X'), glob, write, grep('X')])).toEqual([])
    expect(drive({}, [grep('X'), write, glob, grep('X')])).toEqual([])
    // Only what lies between the two reads counts: a writer before the first changes nothing of the second.
    expect(drive({}, [write, grep('X'), glob, grep('X')])).toEqual([[4, rereadText(2)]])
  })

  it(
    'one reminder per answer: an alternation of the same calls is reminded ' +
      'at its first reread of each, then left to the run and cycle rules',
    () => {
      const grep: [string, unknown, string] = ['grep', { pattern: 'x' }, 'X']
      const glob: [string, unknown, string] = ['glob', { pattern: '*' }, 'G']
      expect(drive({}, [grep, glob, grep, glob, grep, glob, grep])).toEqual([
        [3, rereadText(2)],
        [4, rereadText(2)],
      ])
    },
  )

  it('a navigation tool is never reminded, and changes nothing for a search', () => {
    expect(
      drive({}, [
        ['goto', { line: 5 }, 'w'],
        ['search_file', { term: 'x' }, 'hits'],
        ['goto', { line: 5 }, 'w'],
        ['search_file', { term: 'x' }, 'hits'],
      ]),
    ).toEqual([[4, rereadText(2)]])
  })

  it('a view coming back after viewing other content is navigation; after a search it is a reread', () => {
    expect(
      drive({}, [
        ['read', { path: 'a' }, 'A'],
        ['read', { path: 'b' }, 'B'],
        ['read', { path: 'a' }, 'A'],
      ]),
    ).toEqual([])
    expect(
      drive({}, [
        ['read', { path: 'a' }, 'A'],
        ['grep', { pattern: 'q' }, 'G'],
        ['read', { path: 'a' }, 'A'],
      ]),
    ).toEqual([[3, rereadText(2)]])
    expect(
      drive({}, [
        ['bash', { command: 'cat a' }, 'A'],
        ['bash', { command: 'cat b' }, 'B'],
        ['bash', { command: 'cat a' }, 'A'],
      ]),
    ).toEqual([])
    // Another window of the same file between is no look elsewhere.
    expect(
      drive({}, [
        ['bash', { command: "sed -n '1,9p' a.py" }, 'A'],
        ['bash', { command: 'head -n 20 a.py' }, 'B'],
        ['bash', { command: "sed -n '1,9p' a.py" }, 'A'],
      ]),
    ).toEqual([[3, rereadText(2)]])
    expect(
      drive({}, [
        ['read', { file_path: 'a' }, 'A'],
        ['read', { file_path: 'a', offset: 9 }, 'B'],
        ['read', { file_path: 'a' }, 'A'],
      ]),
    ).toEqual([[3, rereadText(2)]])
    expect(
      drive({}, [
        ['read', {}, 'A'],
        ['read', { file_path: 'b' }, 'B'],
        ['read', {}, 'A'],
      ]),
    ).toEqual([])
    // Looking elsewhere once is enough; a view of several files, one of them this one, is no look elsewhere.
    expect(
      drive({}, [
        ['read', { path: 'a' }, 'A'],
        ['grep', { pattern: 'q' }, 'G'],
        ['read', { path: 'b' }, 'B'],
        ['read', { path: 'a' }, 'A'],
      ]),
    ).toEqual([])
    expect(
      drive({}, [
        ['bash', { command: 'cat a.py' }, 'A'],
        ['bash', { command: 'cat a.py b.py' }, 'AB'],
        ['bash', { command: 'cat a.py' }, 'A'],
      ]),
    ).toEqual([[3, rereadText(2)]])
    // Claude Code's Read and Gemini CLI's read_file are views; two views without a path show no file in common.
    expect(
      drive({}, [
        ['Read', { file_path: 'a' }, 'A'],
        ['Read', { file_path: 'b' }, 'B'],
        ['Read', { file_path: 'a' }, 'A'],
      ]),
    ).toEqual([])
    expect(
      drive({}, [
        ['read_file', { path: 'a' }, 'A'],
        ['read_file', { path: 'b' }, 'B'],
        ['read_file', { path: 'a' }, 'A'],
      ]),
    ).toEqual([])
    expect(
      drive({}, [
        ['read', {}, 'A'],
        ['read', { offset: 5 }, 'B'],
        ['read', {}, 'A'],
      ]),
    ).toEqual([])
    expect(
      drive({}, [
        ['read', null, 'A'],
        ['grep', { pattern: 'q' }, 'G'],
        ['read', null, 'A'],
      ]),
    ).toEqual([[3, rereadText(2)]])
    // Moving a view is looking elsewhere too; arguments that are no object name no file.
    expect(
      drive({}, [
        ['read', { path: 'a' }, 'A'],
        ['goto', { line: 5 }, 'W'],
        ['read', { path: 'a' }, 'A'],
      ]),
    ).toEqual([])
    expect(
      drive({}, [
        ['read', 'a', 'A'],
        ['grep', { pattern: 'q' }, 'G'],
        ['read', 'a', 'A'],
      ]),
    ).toEqual([[3, rereadText(2)]])
  })

  it('a write to a file the read names is a change; to another file, or by a tool not known to read, too', () => {
    const read = (): [string, unknown, string] => ['bash', { command: 'grep -n x src/a.py' }, '1:x']
    expect(drive({}, [read(), ['bash', { command: 'sed -i s/y/z/ a.py' }, ''], read()])).toEqual([])
    expect(
      drive({}, [
        ['bash', { command: 'grep -n x a.py' }, '1:x'],
        ['bash', { command: 'sed -i s/y/z/ a.py' }, ''],
        ['bash', { command: 'grep -n x a.py' }, '1:x'],
      ]),
    ).toEqual([])
    expect(
      drive({}, [read(), ['bash', { command: 'printf x > notes.txt; sed -i s/y/z/ src/a.py' }, ''], read()]),
    ).toEqual([])
    // Only bash's command is a shell command, and only a text one: another tool's, or a command
    // that is no text, changes what it may.
    expect(drive({}, [read(), ['pwsh', { command: 'ls' }, ''], read()])).toEqual([])
    expect(drive({}, [read(), ['bash', { command: 5 }, ''], read()])).toEqual([])
    expect(drive({}, [read(), ['bash', 'ls', ''], read()])).toEqual([])
    expect(drive({}, [read(), ['bash', { command: 'printf x > src/b.py' }, ''], read()])).toEqual([[3, rereadText(2)]])
    expect(drive({}, [read(), ['write', { path: 'c' }, ''], read()])).toEqual([])
    expect(drive({ readOnlyTools: ['write'] }, [read(), ['write', { path: 'c' }, ''], read()])).toEqual([
      [3, rereadText(2)],
    ])
    // A rerun that is no read: only reads may lie between.
    expect(
      drive({}, [
        ['bash', { command: 'python t.py' }, 'ok'],
        ['bash', { command: 'printf x > b' }, ''],
        ['bash', { command: 'python t.py' }, 'ok'],
      ]),
    ).toEqual([])
  })

  it(
    'other words: the same operands in the same folder, 2 or more calls back; another folder is another ' +
      "question, and the call right before is the run rules' to judge",
    () => {
      const quoted = (command: string, workdir?: string) =>
        `\`bash ${JSON.stringify(workdir === undefined ? { command } : { command, workdir })}\``
      const ls: [string, unknown, string] = ['bash', { command: 'ls' }, 'f']
      expect(
        drive({}, [
          ['bash', { command: 'grep x f', workdir: 'a' }, 'x'],
          ls,
          ['bash', { command: 'cat f | grep x', workdir: 'a' }, 'x'],
        ]),
      ).toEqual([[3, rereadText(2, quoted('grep x f', 'a'))]])
      expect(
        drive({}, [
          ['bash', { command: 'grep x f', workdir: 'a' }, 'x'],
          ['bash', { command: 'cat f | grep x', workdir: 'a' }, 'x'],
        ]),
      ).toEqual([])
      expect(
        drive({}, [
          ['bash', { command: 'grep x f', workdir: 'a' }, 'x'],
          ls,
          ['bash', { command: 'cat f | grep x', workdir: 'b' }, 'x'],
        ]),
      ).toEqual([])
      // No workdir is the session's folder, as an empty one is.
      expect(
        drive({}, [
          ['bash', { command: 'grep x f', workdir: '' }, 'x'],
          ls,
          ['bash', { command: 'cat f | grep x' }, 'x'],
        ]),
      ).toEqual([[3, rereadText(2, quoted('grep x f', ''))]])
      expect(
        drive({}, [
          ['grep', { pattern: 'x' }, 'x'],
          ['glob', { pattern: '*' }, 'g'],
          ['grep', { pattern: 'y' }, 'x'],
        ]),
      ).toEqual([])
    },
  )

  it('not past the window: a call 7 back is out of sight', () => {
    const calls: [string, unknown, string][] = [
      ['grep', { pattern: 'x' }, 'X'],
      ...Array.from({ length: 6 }, (_, i): [string, unknown, string] => ['glob', { p: i }, String(i)]),
      ['grep', { pattern: 'x' }, 'X'],
    ]
    expect(drive({}, calls)).toEqual([])
    expect(drive({}, [...calls.slice(1, -1), ...calls.slice(-1), ['glob', { p: 4 }, '4']])).toEqual([
      [8, rereadText(3)],
    ])
  })

  it('the comparison of a config keeps its read-only and navigation tools', () => {
    const compared = comparison(Config({ readOnlyTools: ['r*'], navigationTools: ['g*'] }))
    expect([
      compared.readOnly('read'),
      compared.readOnly('goto'),
      compared.navigation('goto'),
      compared.navigation('read'),
    ]).toEqual([true, false, true, false])
  })
})

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

describe('the new rules in the guard, one condition at a time', () => {
  const agent = {} as never
  const out = (t: string, isError = false) => ({ isError, content: text(t) })
  const run = (config: Partial<Config>, calls: [string, unknown, { isError: boolean; content: unknown[] }][]) => {
    const guard = createGuard(Config(config))
    return calls.map(([name, args, result]) => guard.observe({ agent, name, arguments: args }, result as never)!)
  }

  it(
    'a call is compared with only what its config needs: no outcome for ' +
      'the rules unless one is on, and a failure only for sameFailure',
    () => {
      const failing = out('boom\n[exit code: 1]')
      expect(comparison(Config({})).call('bash', {}, failing)).toEqual({
        tool: 'bash',
        args: {},
        ignored: [],
        outcome: undefined,
      })
      expect(comparison(Config({ rereads: true })).call('bash', {}, failing)).toMatchObject({
        failed: false,
        seen: { isError: false },
      })
      expect(comparison(Config({ sameFailure: true })).call('bash', {}, failing)).toMatchObject({ failed: true })
      expect(comparison(Config({ sameFailure: true })).call('bash', {}, out('fine'))).toMatchObject({ failed: false })
    },
  )

  it('sameFailure needs the same tool, both calls failing, the same error, and the option', () => {
    const fail = (
      name: string,
      i: number,
      result = out('quota exceeded\n[exit code: 3]'),
    ): [string, unknown, ReturnType<typeof out>] => [name, { i }, result]
    const lengths = (config: Partial<Config>, calls: ReturnType<typeof fail>[]) =>
      run(config, calls).map((o) => o.inARow)
    expect(lengths({ sameFailure: true }, [fail('bash', 1), fail('bash', 2), fail('bash', 3)])).toEqual([1, 2, 3])
    expect(lengths({}, [fail('bash', 1), fail('bash', 2)])).toEqual([1, 1])
    expect(lengths({ sameFailure: true }, [fail('bash', 1), fail('pwsh', 2)])).toEqual([1, 1])
    expect(lengths({ sameFailure: true }, [fail('bash', 1, out('quota exceeded')), fail('bash', 2)])).toEqual([1, 1])
    expect(lengths({ sameFailure: true }, [fail('bash', 1), fail('bash', 2, out('quota exceeded'))])).toEqual([1, 1])
    expect(lengths({ sameFailure: true }, [fail('bash', 1), fail('bash', 2, out('other\n[exit code: 3]'))])).toEqual([
      1, 1,
    ])
    // The same output from other arguments, no failure: no run.
    expect(lengths({ sameFailure: true }, [fail('bash', 1, out('ok')), fail('bash', 2, out('ok'))])).toEqual([1, 1])
  })

  it(
    'rereads asks only about a call that starts a run and gets no other ' +
      'reminder: the run and cycle rules come first',
    () => {
      const grep: [string, unknown, ReturnType<typeof out>] = ['grep', { pattern: 'x' }, out('X')]
      const glob: [string, unknown, ReturnType<typeof out>] = ['glob', { pattern: '*' }, out('G')]
      expect(run({ thresholds: [3], rereads: true }, [grep, grep]).map((o) => o.reminder)).toEqual([
        undefined,
        undefined,
      ])
      // The 3rd call is a reread; the 4th completes a cycle of two: its reminder is the cycle's.
      const cycle = run({ thresholds: [2], cycles: true, rereads: true }, [grep, glob, grep, glob])
      expect(cycle.map((o) => (o.reminder?.source as { summary: string } | undefined)?.summary)).toEqual([
        undefined,
        undefined,
        'grep × 2 (reread)',
        'grep → glob × 2',
      ])
      expect((cycle[3]!.reminder!.content[0] as { text: string }).text).toContain('same sequence of 2 tool calls')
    },
  )

  it('the window holds 6 calls: a call 6 back is a reread', () => {
    const calls: [string, unknown, ReturnType<typeof out>][] = [
      ['grep', { pattern: 'x' }, out('X')],
      ...Array.from({ length: 5 }, (_, i): [string, unknown, ReturnType<typeof out>] => [
        'glob',
        { p: i },
        out(String(i)),
      ]),
      ['grep', { pattern: 'x' }, out('X')],
    ]
    expect(run({ rereads: true }, calls).map((o) => o.reminder !== undefined)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ])
  })
})
