import { describe, expect, it } from 'vitest'
import { Config } from '../../src/config.ts'
import { createGuard } from '../../src/guard.ts'
import { rereadText } from '../../src/rules/reread.ts'

const text = (t: string) => [{ type: 'text' as const, text: t }]

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
    // Paths are placed in the same workspace: `a.py` there is not `src/a.py`.
    expect(drive({}, [read(), ['bash', { command: 'sed -i s/y/z/ a.py' }, ''], read()])).toEqual([[3, rereadText(2)]])
    expect(drive({}, [read(), ['bash', { command: 'sed -i s/y/z/ ./src//a.py' }, ''], read()])).toEqual([])
    expect(drive({}, [read(), ['bash', { command: 'sed -i s/y/z/ a.py', workdir: 'src' }, ''], read()])).toEqual([])
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
    expect(drive({}, [read(), ['bash', { command: ['ls'] }, ''], read()])).toEqual([])
    expect(drive({}, [read(), ['bash', 'ls', ''], read()])).toEqual([])
    expect(drive({}, [read(), ['bash', { command: 'printf x > src/b.py' }, ''], read()])).toEqual([[3, rereadText(2)]])
    expect(drive({}, [read(), ['write', { path: 'c' }, ''], read()])).toEqual([])
    // Which files a bash command writes is weighed against a bash read's question only: another tool's read
    // after a bash command that writes any file is no reread.
    const view = (): [string, unknown, string] => ['read', { file_path: 'src/a.py' }, 'x = 1']
    expect(drive({}, [view(), ['bash', { command: 'printf x > src/b.py' }, ''], view()])).toEqual([])
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

  it('a write is weighed as a path: normalized, into a folder the read searches, through a glob (issue 45)', () => {
    const bash = (command: string, out: string, workdir?: string): [string, unknown, string] => [
      'bash',
      workdir === undefined ? { command } : { command, workdir },
      out,
    ]
    const twice = (read: [string, unknown, string], write: string) => drive({}, [read, bash(write, ''), read])
    const search = bash('grep -rn beta sub', 'sub/a.txt:1:beta')
    expect(twice(search, 'echo beta >> sub/b.txt')).toEqual([])
    expect(twice(search, 'echo beta >> sub/./b.txt')).toEqual([])
    expect(twice(search, 'echo beta >> ./sub//deep/b.txt')).toEqual([])
    expect(twice(search, 'echo beta >> b.txt')).toEqual([[3, rereadText(2)]])
    expect(drive({}, [search, bash('echo x > x.txt', ''), bash('echo y > y.txt', ''), search])).toEqual([
      [4, rereadText(3)],
    ])
    expect(drive({}, [search, bash('echo beta >> b.txt', '', 'sub'), search])).toEqual([])
    const view = bash('cat a.txt', 'alpha')
    expect(twice(view, 'echo x > a.tx?')).toEqual([])
    expect(twice(view, 'echo x > b.tx?')).toEqual([[3, rereadText(2)]])
    expect(twice(bash('cat sub/*.txt', 'alpha'), 'echo x > sub/b.txt')).toEqual([])
    // A listing of the folder, named or not, and a search of it.
    for (const read of ['ls', 'ls .', 'find -name "*.txt"', 'rg beta', 'grep -r beta', 'tree'])
      expect(twice(bash(read, 'a.txt'), 'echo x > new.txt')).toEqual([])
    expect(twice(bash('ls sub', 'a.txt'), 'echo x > new.txt')).toEqual([[3, rereadText(2)]])
    // A read in /proc, or of it, reads what changes by itself.
    const list = bash('ls', 'a.txt')
    expect(drive({}, [bash('cat meminfo', 'x', '/proc'), list, bash('cat meminfo', 'x', '/proc')])).toEqual([])
    const mixed = bash('cat proc/meminfo etc/hostname', 'x', '/')
    expect(drive({}, [mixed, list, mixed])).toEqual([])
    const plain = bash('cat etc/hostname', 'x', '/')
    expect(drive({}, [plain, list, plain])).toEqual([[3, rereadText(2)]])
    // After a cd, a relative write is in a folder not known.
    expect(twice(bash('cat a.txt', 'alpha'), 'cd sub && echo x > b.txt')).toEqual([])
  })

  it("the system's folders change by themselves: a read of them is no reread, nor a change between reads", () => {
    const bash = (command: string): [string, unknown, string] => ['bash', { command }, 'x']
    const list = bash('ls')
    for (const command of [
      'cat /proc/meminfo',
      'cat /sys/class/net/lo/address',
      'head -c 16 /dev/urandom',
      'cat < /dev/tcp/127.0.0.1/80',
      'cat ../../proc/self/status',
      'cat //proc/x',
      'cat /etc/../proc/x',
      'ls /pro?',
      'ls /*',
    ])
      expect(drive({}, [bash(command), list, bash(command)])).toEqual([])
    expect(drive({}, [bash('cat /etc/hostname'), list, bash('cat /etc/hostname')])).toEqual([[3, rereadText(2)]])
    // A search, as a view coming back after viewing another file is navigation.
    const hosts = bash('grep x /etc/hosts')
    expect(drive({}, [hosts, bash('cat /proc/meminfo'), hosts])).toEqual([[3, rereadText(2)]])
  })

  it('a bash command run in the background starts a job: the same one twice is no reread', () => {
    const start: [string, unknown, string] = [
      'bash',
      { command: 'grep -rn beta .', run_in_background: true },
      'started background job 1',
    ]
    const list: [string, unknown, string] = ['bash', { command: 'ls' }, 'a.txt']
    expect(drive({}, [start, list, start])).toEqual([])
    expect(drive({ readOnlyTools: [] }, [start, list, start])).toEqual([])
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

  it('a config names its own read-only and navigation tools, as patterns', () => {
    const config = { readOnlyTools: ['r*'], navigationTools: ['g*'] }
    const calls = (tool: string): [string, unknown, string][] => [
      [tool, { p: 1 }, 'A'],
      ['rx', { p: 2 }, 'B'],
      [tool, { p: 1 }, 'A'],
    ]
    expect(drive(config, calls('read'))).toEqual([[3, rereadText(2)]])
    expect(drive(config, calls('grep'))).toEqual([])
    // A navigation tool changes nothing, but is never reminded as a reread itself.
    expect(drive(config, calls('goto'))).toEqual([])
    expect(
      drive(config, [
        ['rx', { p: 1 }, 'A'],
        ['goto', { p: 2 }, 'B'],
        ['rx', { p: 1 }, 'A'],
      ]),
    ).toEqual([[3, rereadText(2)]])
  })
})
