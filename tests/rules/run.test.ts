import { describe, expect, it } from 'vitest'
import { observeAll, remindedOf } from '../support/guard.ts'

describe('rules/run (the identical run): its verdict as data', () => {
  it('identical calls in a row are a run; another call starts a new one', () => {
    const grep = { tool: 'grep', args: { p: 'x' } }
    const seen = observeAll({ thresholds: [2, 3] }, [grep, grep, grep, { tool: 'read' }, grep])
    expect(seen.map((o) => o.inARow)).toEqual([1, 2, 3, 1, 1])
    expect(remindedOf(seen)).toEqual([
      undefined,
      { kind: 'run', length: 2, tools: ['grep'] },
      { kind: 'run', length: 3, tools: ['grep'] },
      undefined,
      undefined,
    ])
  })
})
