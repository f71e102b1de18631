import { describe, expect, it } from 'vitest'
import { Config } from '../../src/config.ts'
import { createGuard } from '../../src/guard.ts'
import { withheldFeedback } from '../../src/texts.ts'
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
    expect(seen[2]?.reminded).toMatchObject({ kind: 'poll', job: 'bash-1' })
  })
})

describe('rules/poll beside blockAt', () => {
  it("with outcomes compared for job reads only, deny's dry run still judges another tool's run", () => {
    const guard = createGuard(Config({ resultAware: ['job_output'], thresholds: [2], blockAt: 3 }))
    const agent = {} as never
    const grep = { agent, name: 'grep', arguments: { p: 'x' } }
    const denied: (string | undefined)[] = []
    for (let i = 0; i < 3; i++) {
      denied.push(guard.deny(grep))
      guard.observe(grep, { isError: false, content: [{ type: 'text', text: 'ok' }] }, denied.at(-1) === undefined)
    }
    expect(denied).toEqual([undefined, undefined, withheldFeedback(['grep'], 3, { ran: false })])
  })
})
