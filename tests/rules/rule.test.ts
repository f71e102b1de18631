import { describe, expect, it } from 'vitest'
import { comparison } from '../../src/compare.ts'
import { Config, rulesOf } from '../../src/config.ts'

describe('every rule: its state for a dry run', () => {
  const config = Config({ relapse: true, sameFailure: true, cycles: true, rereads: true, resultAware: true })
  const call = comparison(config).call('grep', { pattern: 'x' }, { isError: false, content: [] })

  it('a copy holds what the state holds, in lists of its own, so that a dry run moves no live list', () => {
    const rules = rulesOf(config)
    expect(rules).toHaveLength(6)
    for (const rule of rules) {
      const state: unknown = rule.start(call)
      const copy: unknown = rule.copy(state)
      expect(copy).toEqual(state)
      if (typeof state !== 'object' || state === null) continue
      expect(copy).not.toBe(state)
      for (const key of Object.keys(state) as (keyof typeof state)[])
        if (Array.isArray(state[key])) expect((copy as typeof state)[key]).not.toBe(state[key])
    }
  })
})
