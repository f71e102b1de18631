import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { applyExcuses, readExcuses, type Mutant } from '../scripts/excuses.ts'

const ROOT = join(import.meta.dirname, '..')

/** Every source file under src/, as `npm run mutate` names them. */
async function sources(): Promise<{ file: string; text: string }[]> {
  const files = (await readdir(join(ROOT, 'src'), { recursive: true }))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `src/${f}`)
    .sort()
  return Promise.all(files.map(async (file) => ({ file, text: await readFile(join(ROOT, file), 'utf8') })))
}

const survivor = (line: number, mutatorName: string, replacement: string, status = 'Survived'): Mutant => ({
  mutatorName,
  replacement,
  status,
  location: { start: { line, column: 5 }, end: { line, column: 9 } },
})

const CODE = [
  'function f(x: number[]) {',
  '  // mutant (equivalent) EqualityOperator "i <= x.length": one step past the end reads undefined,',
  '  //   which is skipped.',
  '  for (let i = 0; i < x.length; i++) g(x[i])',
  '}',
].join('\n')

describe('excused mutants, written beside the code', () => {
  it('every excuse in src/ is well formed and stands right above the code it excuses', async () => {
    const excuses = (await sources()).flatMap(({ file, text }) => readExcuses(file, text))
    expect(excuses.length).toBeGreaterThan(0)
    for (const e of excuses) expect(e.line).toBeGreaterThan(e.at)
  })

  it('an excuse names its section, mutator and replacement, and its reason goes on over the comment lines after it', () => {
    expect(readExcuses('src/f.ts', CODE)).toEqual([
      {
        file: 'src/f.ts',
        at: 2,
        line: 4,
        section: 'equivalent',
        mutator: 'EqualityOperator',
        replacement: 'i <= x.length',
        reason: 'one step past the end reads undefined, which is skipped.',
      },
    ])
  })

  it('an excuse takes exactly one surviving mutant with its mutator and replacement on its line; the rest are scored', () => {
    const mutants = [
      survivor(4, 'EqualityOperator', 'i <= x.length'),
      survivor(4, 'EqualityOperator', 'i >= x.length'),
      survivor(4, 'EqualityOperator', 'i <= x.length'),
    ]
    const { scored, excused, stale } = applyExcuses(mutants, readExcuses('src/f.ts', CODE))
    expect([excused, stale]).toEqual([1, []])
    expect(scored).toEqual([mutants[1], mutants[2]])
  })

  it('an excuse moves with its line: a blank line inserted at the top of the file excuses the same mutant one line down', () => {
    const moved = readExcuses('src/f.ts', `\n${CODE}`)
    expect(applyExcuses([survivor(5, 'EqualityOperator', 'i <= x.length')], moved)).toEqual({
      scored: [],
      excused: 1,
      stale: [],
    })
    expect(applyExcuses([survivor(4, 'EqualityOperator', 'i <= x.length')], moved).stale).toEqual(moved)
  })

  it('an excuse whose mutant a test now kills, or that names another mutator or replacement, is stale', () => {
    const excuses = readExcuses('src/f.ts', CODE)
    expect(applyExcuses([survivor(4, 'EqualityOperator', 'i <= x.length', 'Killed')], excuses).stale).toEqual(excuses)
    expect(applyExcuses([survivor(4, 'EqualityOperator', 'i <= x.length', 'Timeout')], excuses).stale).toEqual(excuses)
    expect(applyExcuses([survivor(4, 'ConditionalExpression', 'i <= x.length')], excuses).stale).toEqual(excuses)
    expect(applyExcuses([survivor(4, 'EqualityOperator', 'i < x.length')], excuses).stale).toEqual(excuses)
    expect(applyExcuses([survivor(4, 'EqualityOperator', 'i <= x.length', 'NoCoverage')], excuses).stale).toEqual([])
  })

  it.each([
    [
      'no section',
      '  // mutant EqualityOperator "x": why',
      'src/f.ts:1: an excuse reads // mutant (<section>) <mutator> <replacement as JSON>: <reason>',
    ],
    [
      'no reason',
      '  // mutant (equivalent) EqualityOperator "x"',
      'src/f.ts:1: an excuse reads // mutant (<section>) <mutator> <replacement as JSON>: <reason>',
    ],
    [
      'an unknown section',
      '  // mutant (harmless) EqualityOperator "x": why',
      'src/f.ts:1: unknown section "harmless" (use equivalent, environment, speed)',
    ],
  ])('a malformed excuse stops the run, naming its file and line: %s', (_, line, message) => {
    expect(() => readExcuses('src/f.ts', `${line}\n  code()`)).toThrow(message)
  })

  it.each([
    ['a blank line', '  // mutant (speed) EqualityOperator "x": why\n\n  code()'],
    ['the end of the file', '  code()\n  // mutant (speed) EqualityOperator "x": why'],
  ])('an excuse followed by %s excuses nothing, and says so', (_, text) => {
    expect(() => readExcuses('src/f.ts', text)).toThrow(
      /^src\/f\.ts:\d: an excuse must stand right above the code it excuses$/,
    )
  })
})
