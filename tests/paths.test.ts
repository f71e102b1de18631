import { describe, expect, it } from 'vitest'
import { DEEPEST, isSystem, MOST_PATHS, placeAll, ReadPlaces, WORK } from '../src/paths.ts'

/** Whether writing `writes` (in `writeFolder`) may change a read of `reads` (in `readFolder`). */
const changes = (reads: string[], writes: string[], readFolder = '', writeFolder = '') =>
  new ReadPlaces(reads, readFolder).changedBy(placeAll(writes, writeFolder))

describe('paths compared as paths', () => {
  it.each<[string[], string[]]>([
    [['sub/b.txt'], ['sub/b.txt']],
    [['sub/b.txt'], ['sub/./b.txt']],
    [['sub/b.txt'], ['sub//b.txt']],
    [['./sub/b.txt'], ['sub/b.txt']],
    [['sub/x/../b.txt'], ['sub/b.txt']],
    // A write into a folder changes a read of the folder, and of any folder above it.
    [['sub'], ['sub/b.txt']],
    [['sub/'], ['sub/deep/b.txt']],
    [['.'], ['b.txt']],
    // A write of a folder's name: whatever lies in it.
    [['sub/b.txt'], ['sub']],
    // Globs, read or written: whatever they could match.
    [['sub/*.txt'], ['sub/b.txt']],
    [['sub/b.txt'], ['sub/?.txt']],
    [['a.txt'], ['a.tx?']],
    [['a.txt'], ['[ab].txt']],
    [['s*/b.txt'], ['sub/b.txt']],
    [['*'], ['*.md']],
    [['sub'], ['*/b.txt']],
    // A bracket expression matches any one character, as far as this knows.
    [['a.txt'], ['[bc].txt']],
    [['abcd'], ['a*c*d']],
    [['ab'], ['a**']],
    [['ab'], ['ab*']],
    [['x'], ['[]a]']],
    [['~user/a.txt'], ['b.txt']],
    [['a.txt', 'b.md'], ['*.txt']],
    [['sub/*.txt'], ['*/b.txt']],
    // A glob against the runs of an absolute write's folders is not weighed: a change.
    [['sub/*.txt'], ['/abs/b.txt']],
    [['sub'], ['/abs/*.txt']],
    // Home and climbs are places not known; an absolute read may hold the workspace.
    [['~/a.txt'], ['b.txt']],
    [['a.txt'], ['~/a.txt']],
    [['../a.txt'], ['b.txt']],
    [['a.txt'], ['../b.txt']],
    [['/etc/hosts'], ['notes.txt']],
    // An absolute write may lie in the workspace, wherever that is: any run of its folders may be a relative read.
    [['sub/b.txt'], ['/home/u/repo/sub/b.txt']],
    [['sub'], ['/home/u/repo/sub/b.txt']],
    [['x', '.'], ['/tmp/b.txt']],
  ])('a read of %j is changed by a write of %j', (reads, writes) => {
    expect(changes(reads, writes)).toBe(true)
  })

  it.each<[string[], string[]]>([
    [['sub/a.txt'], ['sub/b.txt']],
    [['src/a.py'], ['a.py']],
    [['sub'], ['subway/b.txt']],
    [['sub/*.txt'], ['sub/b.md']],
    [['sub/*.txt'], ['other/b.txt']],
    [['a.txt'], ['b.tx?']],
    // A bracket that does not close stands for itself.
    [['a.txt'], ['a[.txt']],
    [['abcd'], ['a*c*e']],
    [['ab'], ['a*c']],
    [['beta', '/abs/a.txt'], ['/abs/b.txt']],
    [['/abs/a.txt'], ['/abs/b.txt']],
    [['/abs/a.txt'], ['/abs/?.md']],
    [['/abs/*.md'], ['/abs/b.txt']],
    [['sub/b.txt'], ['/home/u/repo/other/b.txt']],
    [['/'], []],
    [['/a.txt'], ['/../b.txt']],
    [['a'], ['/']],
    [['a~'], ['b.txt']],
    [['x/undefined'], ['/x']],
    [['ab'], ['a?c']],
    [['abc'], ['b?']],
  ])('a read of %j is not changed by a write of %j', (reads, writes) => {
    expect(changes(reads, writes)).toBe(false)
  })

  it('each path is resolved against its own folder', () => {
    expect(changes(['b.txt'], ['b.txt'], 'sub', '')).toBe(false)
    expect(changes(['b.txt'], ['sub/b.txt'], 'sub', '')).toBe(true)
    expect(changes(['sub/b.txt'], ['b.txt'], '', 'sub')).toBe(true)
    expect(changes(['b.txt'], ['b.txt'], '/w', '/w')).toBe(true)
    expect(changes(['b.txt'], ['/w/b.txt'], '/w', '')).toBe(true)
    expect(changes(['b.txt'], ['/v/b.txt'], '/w', '')).toBe(false)
    expect(changes(['sub/'], ['sub/b.txt'], 'w', 'w')).toBe(true)
  })

  it(`a path deeper than ${DEEPEST} folders changes everything, read or written`, () => {
    const deep = (n: number) => Array.from({ length: n }, (_, k) => `d${k}`).join('/')
    expect(changes([deep(DEEPEST)], ['b.txt'])).toBe(false)
    expect(changes([deep(DEEPEST + 1)], ['b.txt'])).toBe(true)
    expect(changes(['b.txt'], [deep(DEEPEST)])).toBe(false)
    expect(changes(['b.txt'], [deep(DEEPEST + 1)])).toBe(true)
  })

  it(`one question spends at most ${WORK} steps on a writer: past them, it counts as a change`, () => {
    const folders = (n: number) => `/${Array.from({ length: n }, (_, k) => `d${k}`).join('/')}`
    // An absolute write against a relative read: 1 step, 1 a folder, and 1 a run of its folders, n(n+1)/2 runs.
    const exact = [23, 30, 31, 31, 32, 32, 32, 32].map(folders)
    expect(changes(['b.txt'], exact)).toBe(false)
    expect(changes(['b.txt'], [...exact, folders(1)])).toBe(true)
    // A glob write is weighed against every plain read, every read glob against any write: 66 steps and more.
    const named = (prefix: string, n: number, glob = '') => Array.from({ length: n }, (_, k) => `${prefix}${k}${glob}`)
    const globs = [...named('x', 62, '*'), 'a/b/c']
    expect(changes(named('r', 64), globs)).toBe(false)
    expect(changes(named('r', 64), [...globs, 'z'])).toBe(true)
    const plain = [...named('x', 61), 'a/b/c/d/e']
    expect(changes(named('r', 64, '*'), plain)).toBe(false)
    expect(changes(named('r', 64, '*'), [...plain, 'z'])).toBe(true)
  })

  it(`a read of more than ${MOST_PATHS} paths, or a writer of more, counts as changed without placing them`, () => {
    const paths = (prefix: string, n: number) => Array.from({ length: n }, (_, k) => `${prefix}${k}`)
    expect(changes(paths('r', MOST_PATHS), paths('w', MOST_PATHS))).toBe(false)
    expect(changes(paths('r', MOST_PATHS + 1), ['w'])).toBe(true)
    expect(changes(['r'], paths('w', MOST_PATHS + 1))).toBe(true)
  })

  it('a glob longer than any file name could match anything', () => {
    expect(changes(['a.txt'], [`${'x'.repeat(255)}*`])).toBe(true)
    expect(changes(['a.txt'], [`${'x'.repeat(254)}*`])).toBe(false)
  })
})

describe('isSystem: what changes by itself', () => {
  it.each([
    ['/proc/meminfo', ''],
    ['/sys', ''],
    ['/dev/urandom', ''],
    ['/dev/null/x', ''],
    ['/dev', ''],
    ['//proc', ''],
    ['/etc/../proc/x', ''],
    ['/../proc', ''],
    ['../../proc/x', ''],
    ['../*/x', ''],
    ['/p*', ''],
    ['.', '/proc'],
    ['meminfo', '/proc'],
    ['proc/meminfo', '/'],
    ['~/../../proc', ''],
    ['/proc/null', ''],
    ['proc/x', '../..'],
  ])('%j in %j', (path, folder) => {
    expect(isSystem(path, folder)).toBe(true)
  })

  it.each([
    ['/dev/null', ''],
    ['//dev//null', ''],
    ['/procedures', ''],
    ['/', ''],
    ['proc/meminfo', ''],
    ['..', ''],
    ['../README.md', ''],
    ['~/proc', ''],
    ['a/../proc', ''],
    ['.', '/home/u'],
    ['/etc/hosts', ''],
  ])('%j in %j is no system path', (path, folder) => {
    expect(isSystem(path, folder)).toBe(false)
  })
})
