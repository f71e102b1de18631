import { describe, expect, it } from 'vitest'
import { observeAll, remindedOf } from '../support/guard.ts'

const grep = { tool: 'grep', args: { p: 'x' } }
const read = { tool: 'read', args: { path: 'a' } }

describe('rules/relapse (relapse): its verdict as data', () => {
  it('a run that comes back after other calls counts on, and says it resumed', () => {
    const seen = observeAll({ relapse: true, thresholds: [2, 3] }, [grep, grep, read, grep])
    expect(remindedOf(seen)).toEqual([
      undefined,
      { kind: 'run', length: 2, tools: ['grep'] },
      undefined,
      { kind: 'run', length: 3, tools: ['grep'] },
    ])
    expect(seen.map((o) => o.reminded?.resumed)).toEqual([undefined, false, undefined, true])
  })

  it('a run that starts after other calls, resuming none, does not say it resumed', () => {
    const seen = observeAll({ relapse: true, thresholds: [2, 3] }, [read, grep, grep])
    expect(remindedOf(seen)).toEqual([undefined, undefined, { kind: 'run', length: 2, tools: ['grep'] }])
    expect(seen[2]!.reminded!.resumed).toBe(false)
  })
})
