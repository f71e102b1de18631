import { describe, expect, it } from 'vitest'
import { DEEPEST, isSystem, ReadPlaces, WORK } from '../src/paths.ts'

/** Whether writing `writes` (in `writeFolder`) may change a read of `reads` (in `readFolder`). */
const changes = (reads: string[], writes: string[], readFolder = '', writeFolder = '') =>
  new ReadPlaces(reads, readFolder).changedBy(writes, writeFolder)

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

  it(`one question spends at most ${WORK} steps on a write's paths: past them, it counts as a change`, () => {
    // Each plain write of one folder costs 2 steps: itself and its one segment.
    const writes = (n: number) => Array.from({ length: n }, (_, k) => `w${k}`)
    expect(changes(['b.txt'], writes(WORK / 2))).toBe(false)
    expect(changes(['b.txt'], writes(WORK / 2 + 1))).toBe(true)
    // A glob write is weighed against every plain read, and every read glob against each write: 2 steps more.
    const reads = (n: number) => Array.from({ length: n }, (_, k) => `r${k}`)
    expect(changes(reads(WORK - 2), ['x*'])).toBe(false)
    expect(changes(reads(WORK - 1), ['x*'])).toBe(true)
    expect(
      changes(
        reads(WORK - 2).map((r) => `${r}*`),
        ['x'],
      ),
    ).toBe(false)
    expect(
      changes(
        reads(WORK - 1).map((r) => `${r}*`),
        ['x'],
      ),
    ).toBe(true)
    // An absolute write against relative reads: every run of its folders, 36 for 8 folders, 45 steps in all;
    // 90 of those, one of 7 folders (36 steps) and one of 3 (10) spend the budget to the last step.
    const absolute = (n: number) => `/${reads(n).join('/')}`
    const exact = [...Array.from({ length: 90 }, () => absolute(8)), absolute(7), absolute(3)]
    expect(changes(['b.txt'], exact)).toBe(false)
    expect(changes(['b.txt'], [...exact, absolute(1)])).toBe(true)
    expect(
      changes(
        ['b.txt'],
        Array.from({ length: 92 }, () => absolute(8)),
      ),
    ).toBe(true)
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
    ['.', '/home/u'],
    ['/etc/hosts', ''],
  ])('%j in %j is no system path', (path, folder) => {
    expect(isSystem(path, folder)).toBe(false)
  })
})
