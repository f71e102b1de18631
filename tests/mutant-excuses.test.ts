import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { applyExcuses, type Mutant, readLedger } from '../scripts/excuses.ts'

const ROOT = join(import.meta.dirname, '..')

const survivor = (line: number, mutatorName: string, replacement: string, status = 'Survived'): Mutant => ({
  mutatorName,
  replacement,
  status,
  location: { start: { line, column: 5 }, end: { line, column: 9 } },
})

const CODE = ['function f(x: number[]) {', '  for (let i = 0; i < x.length; i++) g(x[i])', '}'].join('\n')

const LEDGER = [
  'src/f.ts:',
  '  - code: for (let i = 0; i < x.length; i++) g(x[i])',
  '    mutator: EqualityOperator',
  '    replacement: i <= x.length',
  '    kind: equivalent',
  '    reason: one step past the end reads undefined, which is skipped.',
].join('\n')

describe('excused mutants, in a ledger beside the code', () => {
  it('every entry of the ledger is well formed, names a file of src/ and a line that file has', async () => {
    const excuses = readLedger(await readFile(join(ROOT, 'excused-mutants.yml'), 'utf8'))
    expect(excuses.length).toBeGreaterThan(0)
    for (const e of excuses) {
      expect(e.file).toMatch(/^src\/.+\.ts$/)
      const lines = (await readFile(join(ROOT, e.file), 'utf8')).split('\n').map((line) => line.trim())
      expect(lines, `${e.file}: ${e.code}`).toContain(e.code)
    }
  })

  it('every speed entry names the row of npm run bench that its code wins', async () => {
    const excuses = readLedger(await readFile(join(ROOT, 'excused-mutants.yml'), 'utf8'))
    for (const e of excuses.filter((entry) => entry.kind === 'speed'))
      expect(e.reason, `${e.file}: ${e.code}`).toMatch(/Benchmark row: [^:]+ \([^)]+\): /)
  })

  it('no source file carries a word about mutants', async () => {
    const { readdir } = await import('node:fs/promises')
    const files = (await readdir(join(ROOT, 'src'), { recursive: true })).filter((f) => f.endsWith('.ts'))
    for (const file of files) expect(await readFile(join(ROOT, 'src', file), 'utf8')).not.toMatch(/mutant/i)
  })

  it('an entry names its file, line, mutator, replacement, kind and reason', () => {
    expect(readLedger(LEDGER)).toEqual([
      {
        file: 'src/f.ts',
        code: 'for (let i = 0; i < x.length; i++) g(x[i])',
        mutator: 'EqualityOperator',
        replacement: 'i <= x.length',
        kind: 'equivalent',
        reason: 'one step past the end reads undefined, which is skipped.',
      },
    ])
    expect(readLedger('')).toEqual([])
  })

  it(
    'an entry takes exactly one surviving mutant with its mutator and ' +
      'replacement on its line; the rest are scored',
    () => {
      const mutants = [
        survivor(2, 'EqualityOperator', 'i <= x.length'),
        survivor(2, 'EqualityOperator', 'i >= x.length'),
        survivor(2, 'EqualityOperator', 'i <= x.length'),
      ]
      const { scored, excused, stale } = applyExcuses(CODE, mutants, readLedger(LEDGER))
      expect([excused, stale]).toEqual([1, []])
      expect(scored).toEqual([mutants[1], mutants[2]])
    },
  )

  it('an entry moves with its line: lines inserted above it excuse the same mutant further down', () => {
    const moved = `// a comment\n\n${CODE}`
    expect(applyExcuses(moved, [survivor(4, 'EqualityOperator', 'i <= x.length')], readLedger(LEDGER))).toEqual({
      scored: [],
      excused: 1,
      stale: [],
      unjudged: [],
    })
  })

  it('an entry whose line changed, whose mutant a test now kills, or that names another mutant, is stale', () => {
    const excuses = readLedger(LEDGER)
    const changed = CODE.replace('g(x[i])', 'h(x[i])')
    expect(applyExcuses(changed, [survivor(2, 'EqualityOperator', 'i <= x.length')], excuses).stale).toEqual([
      { excuse: excuses[0], why: 'no line of the file reads its code any more' },
    ])
    const none = [{ excuse: excuses[0], why: 'no surviving mutant on its line has its mutator and replacement' }]
    expect(applyExcuses(CODE, [survivor(2, 'EqualityOperator', 'i <= x.length', 'Killed')], excuses).stale).toEqual(
      none,
    )
    expect(applyExcuses(CODE, [survivor(2, 'EqualityOperator', 'i <= x.length', 'Timeout')], excuses).stale).toEqual(
      none,
    )
    expect(applyExcuses(CODE, [survivor(2, 'ConditionalExpression', 'i <= x.length')], excuses).stale).toEqual(none)
    expect(applyExcuses(CODE, [survivor(2, 'EqualityOperator', 'i < x.length')], excuses).stale).toEqual(none)
    expect(
      applyExcuses(CODE, [survivor(1, 'EqualityOperator', 'i <= x.length'), survivor(2, 'X', 'y')], excuses).stale,
    ).toEqual(none)
    expect(applyExcuses(CODE, [survivor(2, 'EqualityOperator', 'i <= x.length', 'NoCoverage')], excuses).stale).toEqual(
      [],
    )
  })

  it('a speed entry also takes a timed-out mutant: the same slow-down passes the time limit or not by machine', () => {
    const speed = readLedger(LEDGER.replace('kind: equivalent', 'kind: speed'))
    const slow = survivor(2, 'EqualityOperator', 'i <= x.length', 'Timeout')
    expect(applyExcuses(CODE, [slow], speed)).toEqual({ scored: [], excused: 1, stale: [], unjudged: [] })
    const killed = survivor(2, 'EqualityOperator', 'i <= x.length', 'Killed')
    expect(applyExcuses(CODE, [killed], speed).stale).toEqual([
      { excuse: speed[0], why: 'no surviving mutant on its line has its mutator and replacement' },
    ])
  })

  it('an entry whose line the run did not mutate is not judged, nor counted as excused', () => {
    const excuses = readLedger(LEDGER)
    expect(applyExcuses(CODE, [survivor(1, 'EqualityOperator', 'i <= x.length')], excuses)).toEqual({
      scored: [survivor(1, 'EqualityOperator', 'i <= x.length')],
      excused: 0,
      stale: [],
      unjudged: excuses,
    })
  })

  it.each([
    ['a list at the top', '- code: x', 'excused-mutants.yml: the ledger maps source files to lists'],
    ['a file without a list', 'src/f.ts: 3', 'excused-mutants.yml: src/f.ts must hold a list of entries'],
    ['an entry that is no object', 'src/f.ts:\n  - 3', 'excused-mutants.yml: src/f.ts entry 1 is not an object'],
    [
      'no reason',
      LEDGER.split('\n').slice(0, -1).join('\n'),
      'excused-mutants.yml: src/f.ts entry 1: reason must be a non-empty ' +
        'text (an entry has code, mutator, replacement, kind, reason)',
    ],
    [
      'an empty code',
      LEDGER.replace(/code: .*/, "code: ''"),
      'excused-mutants.yml: src/f.ts entry 1: code must be a non-empty ' +
        'text (an entry has code, mutator, replacement, kind, reason)',
    ],
    [
      'an unknown field',
      `${LEDGER}\n    line: 12`,
      'excused-mutants.yml: src/f.ts entry 1: unknown field "line" (an ' +
        'entry has code, mutator, replacement, kind, reason)',
    ],
    [
      'an unknown kind',
      LEDGER.replace('kind: equivalent', 'kind: harmless'),
      'excused-mutants.yml: src/f.ts entry 1: unknown kind "harmless" (use equivalent, environment, speed)',
    ],
  ])('a malformed ledger stops the run, naming the entry: %s', (_, text, message) => {
    expect(() => readLedger(text)).toThrow(message)
  })
})
