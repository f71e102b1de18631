import { execFile } from 'node:child_process'
import { chmod, cp, link, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { isMainThread } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { sentence } from '../../src/problem.ts'
import { LogReader } from '../../src/replay/reader.ts'
import { runReplay, runReplayJson, writeSessions } from '../../support/sessions.ts'
import { scratch } from '../../support/scratch.ts'
import { GREP, turns } from '../support/calls.ts'

const LOOP = turns(GREP, GREP, GREP)

/** A sessions root with two good sessions and one more, `bad`, to damage; all written by the real JSONL writer. */
async function rootWithBad(compression: 'none' | 'zstd' = 'none') {
  const root = await writeSessions(compression, [
    { id: 'good-a', script: LOOP },
    { id: 'bad', script: LOOP },
    { id: 'good-b', script: LOOP },
  ])
  const suffix = compression === 'zstd' ? 'session.jsonl.zstd' : 'session.jsonl'
  return { root, bad: join(root, '_no-cwd', 'bad', suffix) }
}

/** Rewrite one line of a plain log: the first line that contains `marker` (every one of them, for a list). */
async function edit(file: string, marker: string | string[], change: (line: string) => string) {
  const lines = (await readFile(file, 'utf8')).split('\n')
  const markers = typeof marker === 'string' ? [marker] : marker
  const at = lines.findIndex((line) => markers.every((m) => line.includes(m)))
  expect(at).toBeGreaterThanOrEqual(0)
  lines[at] = change(lines[at]!)
  await writeFile(file, lines.join('\n'))
}

describe('replay: every bad input is contained to itself', () => {
  it.each<[string, string | string[], (line: string) => string, string]>([
    [
      'a tool result whose call is missing',
      '"type":"tool/call"',
      (l) => l.replace('"callId":"call-1-1"', '"callId":"call-1-X"'),
      'tool result (event 13) for call "call-1-1", which the log never made',
    ],
    [
      'a call with no arguments',
      '"type":"tool/call"',
      (l) => l.replace(/,"arguments":"[^}]*}"/, ''),
      'tool call "call-1-1" (event 12) has no arguments text',
    ],
    [
      'arguments given as a number',
      '"type":"tool/call"',
      (l) => l.replace(/"arguments":"[^}]*}"/, '"arguments":7'),
      'tool call "call-1-1" (event 12) has no arguments text',
    ],
    [
      'arguments given as an object',
      '"type":"tool/call"',
      (l) => l.replace(/"arguments":"[^}]*}"/, '"arguments":{"pattern":"x"}'),
      'tool call "call-1-1" (event 12) has no arguments text',
    ],
    [
      'a call with no tool name',
      '"type":"tool/call"',
      (l) => l.replace(',"name":"grep"', ''),
      'tool call "call-1-1" (event 12) has no tool name',
    ],
    [
      'a call with no call id',
      '"type":"tool/call"',
      (l) => l.replace('"callId":"call-1-1",', ''),
      'tool call (event 12) has no call id',
    ],
    [
      'a call event with no data',
      '"type":"tool/call"',
      (l) => l.replace(/,"data":\{.*\}\}$/, '}'),
      'tool/call (event 12) carries no data',
    ],
    [
      'a result that names no call',
      '"type":"tool/result"',
      (l) => l.replace('"toolCallId":"call-1-1"', '"toolCallId":7'),
      'tool result (event 13) names no call it answers',
    ],
    [
      'a result with no content list',
      '"type":"tool/result"',
      (l) => l.replace('"content":[{"type":"text","text":"no match for x"}]', '"content":"no match"'),
      'tool result (event 13) for call "call-1-1" has no content list',
    ],
    [
      'a header whose id is a number',
      '"type":"session"',
      (l) => l.replace('"id":"bad"', '"id":5'),
      'corrupt session log: first line is not a session header',
    ],
    [
      'a header whose parentSession is a number',
      '"type":"session"',
      (l) => l.replace('"id":"bad"', '"id":"bad","parentSession":7'),
      'its header names a parent session that is not an id',
    ],
    [
      'a reminder whose summary is missing',
      ['"type":"user/message"', '"plugin":"repeat-tool-reminder"'],
      (l) => l.replace(/,"summary":"[^"]*"/, ''),
      'reminder (event 43) from repeat-tool-reminder has no summary text',
    ],
    [
      'a reminder whose summary is not text',
      ['"type":"user/message"', '"plugin":"repeat-tool-reminder"'],
      (l) => l.replace(/"summary":"[^"]*"/, '"summary":3'),
      'reminder (event 43) from repeat-tool-reminder has no summary text',
    ],
    [
      'a user message with no source',
      ['"type":"user/message"', '"kind":"user"'],
      (l) => l.replace(',"source":{"kind":"user"}', ''),
      'user message (event 4) has no source or no content list',
    ],
    [
      'a response whose usage is not token counts',
      '"type":"assistant/message"',
      (l) => l.replace('"message":', '"usage":{"inputTokens":"many"},"message":'),
      'model response (event 11) has a usage that is not token counts',
    ],
  ])(
    '%s: one line naming the file and the reason, every other session reported, exit 1',
    async (_label, marker, change, why) => {
      const { root, bad } = await rootWithBad()
      await edit(bad, marker, change)
      const { status, err, report } = await runReplayJson([root])
      expect(status).toBe(1)
      expect(err).toBe(`repeat-tool-reminder replay: ${bad}: ${why}\n`)
      expect(report.sessions.map((s) => s.id)).toEqual(['good-a', 'good-b'])
      expect(report.total).toMatchObject({ sessions: 2, runs: 2 })
    },
  )

  it(
    'the text report survives every one of those beside good sessions: ' +
      'no stack trace, every good session reported',
    async () => {
      const { root, bad } = await rootWithBad()
      await edit(bad, ['"type":"user/message"', '"plugin":"repeat-tool-reminder"'], (l) =>
        l.replace(/"summary":"[^"]*"/, '"summary":{"x":1}'),
      )
      const { status, out, err } = await runReplay(['replay', root])
      expect(status).toBe(1)
      expect(err).toBe(
        `repeat-tool-reminder replay: ${bad}: reminder (event 43) from repeat-tool-reminder has no summary text\n`,
      )
      expect(out).toMatch(/^total: 2 sessions, 2 with loops\n/)
    },
  )

  it('on a terminal, the progress line is cleared before an error line is written', async () => {
    const root = await writeSessions(
      'none',
      ['a', 'b', 'bad', 'c', 'd', 'e'].map((id) => ({ id, script: LOOP })),
    )
    await writeFile(join(root, '_no-cwd', 'bad', 'session.jsonl'), 'garbage\n')
    const { err } = await runReplay(['replay', root, '--json'], true)
    const bad = join(root, '_no-cwd', 'bad', 'session.jsonl')
    expect(
      err.startsWith(
        '\rreplaying 1/6 sessions\rreplaying 2/6 sessions\rreplaying 3/6 ' +
          'sessions\r\u001b[2Krepeat-tool-reminder replay: ' +
          bad +
          ': ',
      ),
    ).toBe(true)
    expect(err.endsWith('\rreplaying 6/6 sessions\n')).toBe(true)
  })

  it('a log reached through a hard link in a second folder is replayed once', async () => {
    const root = await writeSessions('none', [{ id: 'one', script: LOOP }])
    const other = await scratch('linked')
    await link(join(root, '_no-cwd', 'one', 'session.jsonl'), join(other, 'session.jsonl'))
    const { status, report } = await runReplayJson([root, other])
    expect(status).toBe(0)
    expect(report.sessions.map((s) => s.file)).toEqual([join(root, '_no-cwd', 'one', 'session.jsonl')])
  })

  it(
    "a session folder holding both encodings is reported, as dsh's backend " +
      'refuses it, and neither log is replayed',
    async () => {
      const root = await writeSessions('none', [
        { id: 'both', script: LOOP },
        { id: 'fine', script: LOOP },
      ])
      const folder = join(root, '_no-cwd', 'both')
      await cp(join(folder, 'session.jsonl'), join(folder, 'session.jsonl.zstd'))
      const { status, report } = await runReplayJson([root])
      expect(status).toBe(1)
      expect(report.errors).toEqual([
        {
          path: folder,
          reason:
            "holds both session.jsonl and session.jsonl.zstd; dsh's JSONL backend " +
            'refuses such a session folder, so neither is replayed (keep the ' +
            'one dsh wrote last)',
        },
      ])
      expect(report.sessions.map((s) => s.id)).toEqual(['fine'])
    },
  )

  it('a bidirectional override in an id or a tool name is printed escaped', async () => {
    const { root, bad } = await rootWithBad()
    await edit(bad, '"type":"session"', (l) => l.replace('"id":"bad"', '"id":"evil\u202egnp.exe"'))
    const { out } = await runReplay(['replay', root, '--all'])
    expect(out).toContain('session evil\\u202egnp.exe\n')
    expect(out).not.toContain('\u202e')
  })

  it('a corrupt zstd header is reported for its file alone', async () => {
    const { root, bad } = await rootWithBad('zstd')
    const bytes = await readFile(bad)
    bytes[0] = bytes[0]! ^ 0xff
    await writeFile(bad, bytes)
    const { status, report } = await runReplayJson([root])
    expect(status).toBe(1)
    expect(report.errors.map((e) => e.path)).toEqual([bad])
    expect(report.sessions.map((s) => s.id)).toEqual(['good-a', 'good-b'])
  })

  it(
    'a directory named session.jsonl is reported as not a regular file; ' + 'a stray notes.jsonl is not a session log',
    async () => {
      const root = await writeSessions('none', [{ id: 'good', script: LOOP }])
      await mkdir(join(root, '_no-cwd', 'odd', 'session.jsonl'), { recursive: true })
      await writeFile(join(root, '_no-cwd', 'notes.jsonl'), 'not a session\n')
      const { status, err, report } = await runReplayJson([root])
      expect(status).toBe(1)
      expect(err).toBe(
        `repeat-tool-reminder replay: ${join(root, '_no-cwd', 'odd', 'session.jsonl')}: not a regular file\n`,
      )
      expect(report.sessions.map((s) => s.id)).toEqual(['good'])
    },
  )

  it('a renamed session folder is still replayed, and its neighbours too', async () => {
    const root = await writeSessions('none', [
      { id: 'a', script: LOOP },
      { id: 'b', script: LOOP },
    ])
    await rename(join(root, '_no-cwd', 'a'), join(root, '_no-cwd', 'renamed'))
    const { status, report } = await runReplayJson([root])
    expect(status).toBe(0)
    expect(report.sessions.map((s) => [s.id, s.file])).toEqual([
      ['b', join(root, '_no-cwd', 'b', 'session.jsonl')],
      ['a', join(root, '_no-cwd', 'renamed', 'session.jsonl')],
    ])
  })

  it('a FIFO named session.jsonl is reported, never opened: nothing hangs', async () => {
    const root = await writeSessions('none', [{ id: 'good', script: LOOP }])
    const fifo = join(root, '_no-cwd', 'pipe', 'session.jsonl')
    await mkdir(join(root, '_no-cwd', 'pipe'))
    await promisify(execFile)('mkfifo', [fifo])
    const { status, err, report } = await runReplayJson([root])
    expect(status).toBe(1)
    expect(err).toBe(`repeat-tool-reminder replay: ${fifo}: not a regular file\n`)
    expect(report.sessions.map((s) => s.id)).toEqual(['good'])
    const direct = await runReplay(['replay', fifo, '--json'])
    expect(direct.err).toBe(`repeat-tool-reminder replay: ${fifo}: not a regular file\n`)
    // Every input failed: nothing on stdout, not a document of zeros.
    expect([direct.status, direct.out]).toEqual([1, ''])
  })

  it('symlinks are not followed when searching a folder: a loop is no trap, a linked log is not read', async () => {
    const root = await writeSessions('none', [
      { id: 'a', script: LOOP },
      { id: 'b', script: LOOP },
      { id: 'c', script: LOOP },
    ])
    await symlink(root, join(root, '_no-cwd', 'loop'))
    await symlink(join(root, '_no-cwd', 'a', 'session.jsonl'), join(root, '_no-cwd', 'b', 'session.jsonl.zstd'))
    const outside = await writeSessions('none', [{ id: 'outside', script: LOOP }])
    await mkdir(join(root, '_no-cwd', 'linked'))
    await symlink(
      join(outside, '_no-cwd', 'outside', 'session.jsonl'),
      join(root, '_no-cwd', 'linked', 'session.jsonl'),
    )
    const { status, err, report } = await runReplayJson([root])
    expect([status, err]).toEqual([0, ''])
    expect(report.sessions.map((s) => s.id)).toEqual(['a', 'b', 'c'])
  })

  it('a symlink named on the command line is followed: the user chose it', async () => {
    const root = await writeSessions('none', [{ id: 'linked', script: LOOP }])
    const link = join(await scratch('link'), 'session.jsonl')
    await symlink(join(root, '_no-cwd', 'linked', 'session.jsonl'), link)
    const { status, report } = await runReplayJson([link])
    expect(status).toBe(0)
    expect(report.sessions.map((s) => [s.id, s.file])).toEqual([['linked', link]])
  })

  it('a log replaced by something else after it was found is not opened', async () => {
    const dir = await scratch('swap')
    await promisify(execFile)('mkfifo', [join(dir, 'session.jsonl')])
    const reader = new LogReader()
    await expect(reader.read(join(dir, 'session.jsonl'))).rejects.toThrow('not a regular file')
    await reader.close()
  })

  it('a log outside the usual layout is replayed on its own, without looking at its neighbours', async () => {
    const root = await writeSessions('none', [{ id: 'lone', script: LOOP }])
    const elsewhere = await scratch('elsewhere')
    await writeFile(join(elsewhere, 'unrelated.jsonl'), 'garbage\n')
    await mkdir(join(elsewhere, 'copy'))
    await cp(join(root, '_no-cwd', 'lone', 'session.jsonl'), join(elsewhere, 'copy', 'session.jsonl'))
    const { status, err, report } = await runReplayJson([join(elsewhere, 'copy', 'session.jsonl')])
    expect([status, err]).toEqual([0, ''])
    expect(report.sessions.map((s) => [s.id, s.runs.length])).toEqual([['lone', 1]])
  })

  it('each log is replayed once however it was named: a file and its root', async () => {
    const root = await writeSessions('none', [{ id: 'once', script: LOOP }])
    const file = join(root, '_no-cwd', 'once', 'session.jsonl')
    const { report } = await runReplayJson([file, root, join(root, '_no-cwd')])
    expect(report.sessions.map((s) => s.file)).toEqual([file])
    expect(report.total).toMatchObject({ sessions: 1, runs: 1 })
  })

  it('text from a log is printed escaped: an id with a newline and an ANSI escape fakes no line', async () => {
    const { root, bad } = await rootWithBad()
    await edit(bad, '"type":"session"', (l) => l.replace('"id":"bad"', '"id":"b\\u001b[31md\\ntotal: 99 sessions"'))
    const { status, out } = await runReplay(['replay', root])
    expect(status).toBe(0)
    expect(out).toContain('session b\\u001b[31md\\u000atotal: 99 sessions\n')
    expect(out).not.toContain('\x1b')
    expect(out.split('\n').filter((line) => line.startsWith('total:'))).toHaveLength(1)
  })

  // Root lists any folder, so as root it switches to an ordinary user, which needs a process of its own (vitest's
  // forks; not worker threads, as under Stryker); any other user is one already.
  const asRoot = process.geteuid?.() === 0
  it.runIf(!asRoot || isMainThread)(
    'a folder that cannot be listed is reported; the folders beside it are still searched',
    async () => {
      const root = await writeSessions('none', [
        { id: 'a', script: LOOP },
        { id: 'b', script: LOOP },
      ])
      const only = await scratch('only')
      const locked = join(only, 'locked')
      await mkdir(locked)
      // As an ordinary user (root lists any folder): every path readable but two folders.
      await promisify(execFile)('chmod', ['-R', 'a+rX', root, only])
      await chmod(join(root, '_no-cwd', 'b'), 0o000)
      await chmod(locked, 0o000)
      if (asRoot) process.seteuid!(65534)
      try {
        const { status, err, report } = await runReplayJson([root])
        expect(status).toBe(1)
        expect(err).toBe(
          `repeat-tool-reminder replay: ${join(root, '_no-cwd', 'b')}: permission denied: this user may not read it\n`,
        )
        expect(report.sessions.map((s) => s.id)).toEqual(['a'])
        // A folder whose only content cannot be listed: that is the reason, not also "no session log below it".
        expect((await runReplay(['replay', only])).err).toBe(
          `repeat-tool-reminder replay: ${locked}: permission denied: this user may not read it\n`,
        )
      } finally {
        if (asRoot) process.seteuid!(0)
        // Listable again, so that the scratch folders can be removed.
        await chmod(join(root, '_no-cwd', 'b'), 0o755)
        await chmod(locked, 0o755)
      }
    },
  )

  it('bytes that are not UTF-8 in a result are survived', async () => {
    const { root, bad } = await rootWithBad()
    const bytes = await readFile(bad)
    const at = bytes.indexOf('no match for x')
    bytes[at] = 0xff
    bytes[at + 1] = 0xfe
    await writeFile(bad, bytes)
    const { status, report } = await runReplayJson([root])
    expect(status).toBe(0)
    expect(report.sessions.map((s) => s.id)).toEqual(['bad', 'good-a', 'good-b'])
  })
})

describe('replay: what a path is, said as a sentence', () => {
  it.each<[string, unknown, string]>([
    [
      'a missing path',
      { code: 'ENOENT', message: "ENOENT: no such file or directory, stat '/x'" },
      'no such file or directory',
    ],
    [
      'a folder this user may not list',
      { code: 'EACCES', message: "EACCES: permission denied, scandir '/x'" },
      'permission denied: this user may not read it',
    ],
    [
      'an operation not permitted',
      { code: 'EPERM', message: 'EPERM: …' },
      'operation not permitted: this user may not read it',
    ],
    [
      'a file in the middle of the path',
      { code: 'ENOTDIR', message: 'ENOTDIR: …' },
      'a part of the path is not a folder',
    ],
    ['a symlink loop', { code: 'ELOOP', message: 'ELOOP: …' }, 'too many symbolic links in a row'],
    ['a path too long', { code: 'ENAMETOOLONG', message: 'ENAMETOOLONG: …' }, 'the path is too long'],
    ['too many open files', { code: 'EMFILE', message: 'EMFILE: …' }, 'too many files open at once'],
    ['a disk error', { code: 'EIO', message: 'EIO: …' }, 'the disk could not be read (an I/O error)'],
    ['another file system error', { code: 'EXDEV', message: 'EXDEV: …' }, 'it cannot be read (EXDEV)'],
    [
      "an error that is not the file system's",
      { code: 'ERR_SOMETHING', message: 'the backend says no' },
      'the backend says no',
    ],
    ['an error with no code', new Error('corrupt log'), 'corrupt log'],
  ])('%s', (_label, error, expected) => {
    expect(sentence(error)).toBe(expected)
  })

  it.each<[string, string | Buffer, string]>([
    [
      'a plain log under another name',
      '{"type":"session","version":0,"id":"x","createdAt":1,"delegationDepth":0}\n{"type":"x"}\n',
      'its content looks like a session log, but only a file named session.jsonl ' +
        "is read as one (dsh keeps each session's log under that name): rename it",
    ],
    [
      'a zstd log under another name',
      Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0]),
      'its content looks like a session log, but only a file named session.jsonl.zstd ' +
        "is read as one (dsh keeps each session's log under that name): rename it",
    ],
    [
      'one line of JSON that is no header, without a newline',
      '{"type":"other"}',
      'not a session log of the JSONL backend (session.jsonl or session.jsonl.zstd)',
    ],
    [
      'text that is not JSON',
      'hello\n',
      'not a session log of the JSONL backend (session.jsonl or session.jsonl.zstd)',
    ],
    [
      'JSON that is no object',
      'null\n',
      'not a session log of the JSONL backend (session.jsonl or session.jsonl.zstd)',
    ],
    ['three bytes', 'abc', 'not a session log of the JSONL backend (session.jsonl or session.jsonl.zstd)'],
    [
      'the zstd magic number alone, four bytes',
      Buffer.from([0x28, 0xb5, 0x2f, 0xfd]),
      'its content looks like a session log, but only a file named session.jsonl.zstd ' +
        "is read as one (dsh keeps each session's log under that name): rename it",
    ],
    [
      'a header line alone, without a newline',
      '{"type":"session","version":0,"id":"x","createdAt":1,"delegationDepth":0}',
      'its content looks like a session log, but only a file named session.jsonl ' +
        "is read as one (dsh keeps each session's log under that name): rename it",
    ],
    [
      'a blank line, then a header: a log opens with its header',
      '\n{"type":"session","version":0,"id":"x","createdAt":1,"delegationDepth":0}\n',
      'not a session log of the JSONL backend (session.jsonl or session.jsonl.zstd)',
    ],
  ])('a file of another name: %s', async (_label, content, expected) => {
    const file = join(await scratch('misnamed'), 'full.jsonl')
    await writeFile(file, content)
    const { status, out, err } = await runReplay(['replay', file])
    expect([status, out]).toEqual([1, ''])
    expect(err).toBe(`repeat-tool-reminder replay: ${file}: ${expected}\n`)
  })
})

describe('replay: a named path that is no regular file and no log', () => {
  it('a file of another name is closed once it is looked into: no file descriptor is left open', async () => {
    const file = join(await scratch('misnamed'), 'full.jsonl')
    await writeFile(file, 'hello\n')
    const open = async () => (await readdir('/proc/self/fd')).length
    const before = await open()
    for (let i = 0; i < 5; i++) await runReplay(['replay', file])
    expect(await open()).toBe(before)
  })

  it('a FIFO of another name is not opened to see what it holds: nothing hangs', async () => {
    const fifo = join(await scratch('fifo'), 'pipe.jsonl')
    await promisify(execFile)('mkfifo', [fifo])
    const { status, err } = await runReplay(['replay', fifo])
    expect(status).toBe(1)
    expect(err).toBe(
      `repeat-tool-reminder replay: ${fifo}: not a session log of the JSONL ` +
        `backend (session.jsonl or session.jsonl.zstd)\n`,
    )
  })
})
