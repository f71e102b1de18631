import { describe, expect, it } from 'vitest'
import { Config } from '../src/config.ts'
import { readsUnder } from '../src/reads.ts'

describe('what a call reads, worked out once', () => {
  const call = { tool: 'bash', args: { command: 'grep -n x a.py' }, ignored: [] }

  it('one judge per config, and one answer per call object however many rules ask', () => {
    const config = Config({})
    const judge = readsUnder(config)
    expect(readsUnder(config)).toBe(judge)
    expect(judge(call)).toBe(judge(call))
    expect(judge(call)).toMatchObject({ readOnly: true, question: '\n\na.py\nx' })
    // Another config judges by its own lists.
    expect(readsUnder(Config({ readOnlyTools: ['fetch'] }))({ ...call, tool: 'fetch' }).readOnly).toBe(true)
    expect(judge({ ...call, tool: 'fetch' }).readOnly).toBe(false)
  })
})
