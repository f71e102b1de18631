import { describe, expect, it } from 'vitest'
import { maskNoise } from '../src/noise.ts'
import { outcome } from '../src/results.ts'

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
    ['Process Group PGID: 51234, PPID 1', 'Process Group pid <pid>, pid <pid>'],
    ['✓ parses (523ms)\n✓ renders', '✓ parses\n✓ renders'],
    ['ok [12.\n24ms] done', 'ok done'],
    ['took [0.5 s] and (3 min)', 'took and'],
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

describe('maskNoise leaves a clock alone: its times and dates are the answer', () => {
  const at = (time: string) => [{ type: 'text' as const, text: `${time}\n` }]
  it('two readings of `date` a minute apart differ; the same lines from a log file are the same', () => {
    const date = (time: string) => outcome('bash', { command: 'date +%T' }, false, at(time), true)
    expect(date('16:17:51')).not.toEqual(date('16:18:51'))
    const log = (time: string) => outcome('bash', { command: 'tail -n 1 build.log' }, false, at(time), true)
    expect(log('16:17:51')).toEqual(log('16:18:51'))
  })
})
