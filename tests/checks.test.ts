import Schema from '@deepseek-ai/schemastery'
import { describe, expect, it } from 'vitest'
import { judge, option } from '../src/checks.ts'

describe('checks: what a config value must be, failing closed', () => {
  const zeroOrMore = option(Schema.union([Schema.const(0), Schema.natural().min(2)]), 0, 'Zero, or at least 2.', {
    value: 'must be 0 or an integer >= 2',
  })

  it('a constant is judged as itself: an option that is 0 or a natural >= 2 takes its own default', () => {
    expect(() => judge({ every: zeroOrMore }, { every: 0 })).not.toThrow()
    expect(() => judge({ every: zeroOrMore }, { every: 3 })).not.toThrow()
    expect(() => judge({ every: zeroOrMore }, { every: 1 })).toThrow(
      'repeat-tool-reminder: every must be 0 or an integer >= 2 (got 1)',
    )
    expect(() => judge({ every: zeroOrMore }, { every: [0] })).toThrow('(got [0])')
  })

  it('a type the checks do not know is an error of the package, not a value let through', () => {
    const dict = option(Schema.dict(Schema.string()), {}, 'A map.', { value: 'must be a map' })
    expect(() => judge({ map: dict }, { map: { a: 'b' } })).toThrow(
      "repeat-tool-reminder: an option's type is not one the config checks judge: dict",
    )
  })
})
