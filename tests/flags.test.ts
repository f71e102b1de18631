import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Config, defaultOf, meaning } from '../src/config.ts'
import Schema from '@deepseek-ai/schemastery'
import { configFromFlags, flagKeys, flagsHelp, readAs } from '../src/flags.ts'
import { usage } from '../src/replay/options.ts'

describe('the config as command-line flags', () => {
  it('every flag sets its config field; numbers become numbers, lists split at commas', () => {
    expect(
      configFromFlags({
        thresholds: '4,2',
        include: ['grep,read_*', 'glob'],
        exclude: ['todo_write'],
        'arguments-preview-chars': '80',
        'result-aware': true,
        'ignore-arguments': ['bash.description,*.justification'],
        relapse: true,
        cycles: false,
        'max-cycle-period': '3',
        'remind-every': '10',
        'block-at': '12',
      }),
    ).toEqual({
      thresholds: [4, 2],
      include: ['grep', 'read_*', 'glob'],
      exclude: ['todo_write'],
      argumentsPreviewChars: 80,
      resultAware: true,
      ignoreArguments: ['bash.description', '*.justification'],
      relapse: true,
      cycles: false,
      maxCyclePeriod: 3,
      remindEvery: 10,
      blockAt: 12,
    })
  })

  it('--result-aware-tools scopes resultAware to matching tools', () => {
    expect(configFromFlags({ 'result-aware-tools': ['job_output', 'poll_*'] })).toEqual({
      resultAware: ['job_output', 'poll_*'],
    })
  })

  it('two flags for one option are refused, naming both', () => {
    expect(() => configFromFlags({ 'result-aware': true, 'result-aware-tools': ['job_output'] })).toThrow(
      'repeat-tool-reminder: --result-aware-tools sets resultAware, which another flag already set; give one of them',
    )
  })

  it('flags not given set nothing', () => {
    expect(configFromFlags({})).toEqual({})
  })

  it('empty items of a pattern list are dropped', () => {
    expect(configFromFlags({ include: ['a,,b', '', ','] })).toEqual({ include: ['a', 'b'] })
  })

  it.each([' ', '', '1e', 'Infinity', '0x'])(
    'a number flag given %j stays text, for the schema to reject by name',
    (text) => {
      expect(configFromFlags({ 'remind-every': text })).toEqual({ remindEvery: text })
      expect(() => Config({ remindEvery: text } as never)).toThrow(
        `repeat-tool-reminder: remindEvery must be an integer >= 0 (0 = silent ` +
          `after the last threshold) (got ${JSON.stringify(text)})`,
      )
    },
  )

  it('numbers in any form JSON-like text allows are read as numbers', () => {
    expect(configFromFlags({ 'block-at': ' 12 ', 'arguments-preview-chars': '1e2', thresholds: '3, 5' })).toEqual({
      blockAt: 12,
      argumentsPreviewChars: 100,
      thresholds: [3, 5],
    })
  })

  it(
    "the help text: each flag named after its option, with the option's " +
      'description, its numeric default and whether it repeats, wrapped ' +
      'under the description column',
    () => {
      const help = flagsHelp(32).split('\n')
      // The shared options first, in the schema's order; a number's default and a list's repeat said.
      expect(help.slice(0, 8)).toEqual([
        '  --thresholds LIST             Run lengths at which a reminder is due; the first gets the short',
        '                                text, later ones the detailed text. Default 3,5,8.',
        '  --arguments-preview-chars N   Most characters of arguments a detailed reminder quotes; calls are',
        '                                always compared whole. Default 500.',
        '  --include PATTERN             Tools to track, as * patterns; empty tracks every tool. Repeatable,',
        '                                or a comma list.',
        '  --exclude PATTERN             Tools never to track, as * patterns; wins over include. Repeatable,',
        '                                or a comma list.',
      ])
      // An option that is true or a list of patterns: two flags, each with its own words.
      expect(help.slice(8, 13)).toEqual([
        '  --result-aware                Opt-in: a repeat counts only when its outcome repeats too, for every',
        '                                tool.',
        '  --result-aware-tools PATTERN  As --result-aware, for the matching tools only. Repeatable, or a',
        '                                comma list.',
        '  --ignore-arguments TOOL.ARG   Opt-in: <tool pattern>.<argument> entries left out when calls are',
      ])
      // Every option's flag opens with its description, code marks left out; a boolean takes no value.
      const opening = help.filter((line) => line.startsWith('  --'))
      expect(opening).toHaveLength(flagKeys().length)
      for (const [flag, key] of flagKeys()) {
        const line = opening.find((l) => l.startsWith(`  --${flag} `)) ?? ''
        const words = meaning(key).replaceAll('`', '').split(' ').slice(0, 3).join(' ')
        const escaped = words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        if (flag.startsWith('result-aware')) continue
        expect(line.slice(32)).toMatch(new RegExp(`^${escaped}`))
        expect(line.slice(0, 32).trim().split(' ')).toHaveLength(typeof defaultOf(key) === 'boolean' ? 1 : 2)
      }
    },
  )

  it(
    'a description wraps at the last word that fits its column: a line ' +
      'may fill it exactly, and a word longer than the column stands whole, as in the report',
    () => {
      const column = (width: number) =>
        flagsHelp(width)
          .split('\n')
          .slice(0, 4)
          .map((line) => line.slice(width))
      // 26 characters of text: "reminder is due; the first" is exactly 26.
      expect(column(74)).toEqual([
        'Run lengths at which a',
        'reminder is due; the first',
        'gets the short text, later',
        'ones the detailed text.',
      ])
      // 6 characters: "lengths" is longer, and stands whole on its line.
      expect(column(94)).toEqual(['Run', 'lengths', 'at', 'which'])
      // 2 characters: even the first word is longer, and no empty line comes before it.
      expect(column(98)).toEqual(['Run', 'lengths', 'at', 'which'])
    },
  )

  it('every flag is named after the option it sets, in kebab case; a second flag of one option adds a suffix', () => {
    for (const [flag, key] of flagKeys()) {
      const named = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
      expect(flag === named || flag.startsWith(`${named}-`)).toBe(true)
    }
  })
})

describe("the replay docs' usage block", () => {
  it.each(['docs/replay.md', 'docs/replay.zh.md'])('%s names every option --help lists, and no other', async (doc) => {
    const text = await readFile(join(import.meta.dirname, '..', doc), 'utf8')
    const block = /```sh\n([\s\S]*?)```/.exec(text)![1]!
    const options = (help: string) => [...new Set(help.match(/--[a-z][a-z-]+/g))].sort()
    expect(options(block)).toEqual(options(usage()).filter((o) => o !== '--help'))
  })
})

describe('how a flag reads a value of its option’s type', () => {
  it('a boolean, a number, a list of numbers or of patterns; a union as its members read, when they agree', () => {
    expect(
      [
        Schema.boolean(),
        Schema.natural(),
        Schema.transform(Schema.array(Schema.natural()), (v) => v),
        Schema.array(Schema.string()),
        Schema.union([Schema.const(0), Schema.natural().min(2)]),
        Schema.union([Schema.const(true), Schema.boolean()]),
      ].map(readAs),
    ).toEqual(['boolean', 'number', 'numbers', 'patterns', 'number', 'boolean'])
  })

  it('a type no flag can set fails closed, naming it', () => {
    for (const schema of [
      Schema.string(),
      Schema.array(Schema.boolean()),
      Schema.union([Schema.boolean(), Schema.array(Schema.string())]),
      Schema.union([Schema.const('a')]),
    ])
      expect(() => readAs(schema)).toThrow(/^repeat-tool-reminder: an option's type has no flag that can set it: \w+$/)
  })
})
