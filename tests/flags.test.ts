import { describe, expect, it } from 'vitest'
import { Config } from '../src/config.ts'
import { configFromFlags, flagsHelp } from '../src/flags.ts'

describe('the config as command-line flags', () => {
  it('every flag sets its config field; numbers become numbers, lists split at commas', () => {
    expect(configFromFlags({
      'thresholds': '4,2',
      'include': ['grep,read_*', 'glob'],
      'exclude': ['todo_write'],
      'preview': '80',
      'result-aware': true,
      'ignore-arguments': ['bash.description,*.justification'],
      'relapse': true,
      'cycles': false,
      'max-cycle-period': '3',
      'remind-every': '10',
      'block-at': '12',
    })).toEqual({
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
    expect(configFromFlags({ 'result-aware-tools': ['job_output', 'poll_*'] })).toEqual({ resultAware: ['job_output', 'poll_*'] })
  })

  it('two flags for one option are refused, naming both', () => {
    expect(() => configFromFlags({ 'result-aware': true, 'result-aware-tools': ['job_output'] }))
      .toThrow('repeat-tool-reminder: --result-aware-tools sets resultAware, which another flag already set; give one of them')
  })

  it('flags not given set nothing', () => {
    expect(configFromFlags({})).toEqual({})
  })

  it('empty items of a pattern list are dropped', () => {
    expect(configFromFlags({ include: ['a,,b', '', ','] })).toEqual({ include: ['a', 'b'] })
  })

  it.each([' ', '', '1e', 'Infinity', '0x'])('a number flag given %j stays text, for the schema to reject by name', (text) => {
    expect(configFromFlags({ 'remind-every': text })).toEqual({ remindEvery: text })
    expect(() => Config({ remindEvery: text } as never)).toThrow(`repeat-tool-reminder: remindEvery must be an integer >= 0 (0 = silent after the last threshold) (got ${JSON.stringify(text)})`)
  })

  it('numbers in any form JSON-like text allows are read as numbers', () => {
    expect(configFromFlags({ 'block-at': ' 12 ', 'preview': '1e2', 'thresholds': '3, 5' })).toEqual({ blockAt: 12, argumentsPreviewChars: 100, thresholds: [3, 5] })
  })

  it('the help text: one line per flag, the flag column as wide as asked', () => {
    expect(flagsHelp(32)).toBe([
      '  --thresholds LIST             run lengths that get a reminder (default 3,5,8)',
      '  --include PATTERN             track only matching tools (repeatable, or a comma list)',
      '  --exclude PATTERN             never track matching tools (repeatable, or a comma list)',
      '  --preview N                   characters of arguments quoted in a detailed reminder (default 500)',
      '  --result-aware                compare outcomes too (resultAware)',
      '  --result-aware-tools PATTERN  compare outcomes of matching tools only (repeatable, or a comma list)',
      '  --ignore-arguments TOOL.ARG   leave an argument out when comparing calls (repeatable, or a comma list)',
      '  --relapse                     a run interrupted by other calls goes on when the call comes back',
      '  --cycles                      recognise cycles of distinct calls',
      '  --max-cycle-period N          longest cycle (default 4)',
      '  --remind-every N              remind again every N repeats past the last threshold',
      '  --block-at N                  block from run length N on',
    ].join('\n'))
  })
})
