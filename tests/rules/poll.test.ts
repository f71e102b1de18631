import { describe, expect, it } from 'vitest'
import { observeAll, remindedOf } from '../support/guard.ts'

const read = { tool: 'job_output', args: { job_id: 'bash-1' }, text: 'line\n[status: running]' }

describe('rules/poll (the busy poll): its verdict as data', () => {
  it('with resultAware, reads of a job still running are a busy poll, measured one read late, naming the job', () => {
    const seen = observeAll({ thresholds: [2, 3], resultAware: true }, [read, read, read, read])
    expect(remindedOf(seen)).toEqual([
      undefined,
      undefined,
      { kind: 'poll', length: 3, tools: ['job_output'] },
      { kind: 'poll', length: 4, tools: ['job_output'] },
    ])
    expect(seen[2]!.reminded!.job).toBe('bash-1')
  })
})
