import { describe, expect, it } from 'vitest'
import { comparison } from '../../src/compare.ts'
import { Config } from '../../src/config.ts'
import { RULES, rulesOf } from '../../src/rules/index.ts'

describe('every rule: its state for a dry run', () => {
  // Every rule's candidate turns it on.
  const config = Config(Object.assign({ resultAware: true }, ...RULES.map((entry) => entry.candidate ?? {})))
  const result = { isError: false, content: [] }
  const call = comparison(config).call('grep', { pattern: 'x' }, result)

  it('a copy holds what the state holds, in lists of its own, so that a dry run moves no live list', () => {
    const rules = rulesOf(config)
    expect(rules).toHaveLength(RULES.length)
    for (const rule of rules) {
      const state: unknown = rule.start({ call, result, ran: false })
      const copy: unknown = rule.copy(state)
      expect(copy).toEqual(state)
      if (typeof state !== 'object' || state === null) continue
      expect(copy).not.toBe(state)
      for (const key of Object.keys(state) as (keyof typeof state)[])
        if (Array.isArray(state[key])) expect((copy as typeof state)[key]).not.toBe(state[key])
    }
  })
})
