import { Config } from '../../src/config.ts'
import { createGuard } from '../../src/guard.ts'
import { withheldFailureFeedback } from '../../src/rules/failure.ts'
import { describe, expect, it } from 'vitest'
import { observeAll, remindedOf } from '../support/guard.ts'

const failing = (item: number) => ({ tool: 'fetch', args: { item }, text: 'error: quota exceeded', isError: true })

describe('rules/failure (sameFailure): its verdict as data', () => {
  it('calls that fail alike with other arguments are a failure loop, measured one call late', () => {
    const seen = observeAll({ sameFailure: true, thresholds: [2, 4, 7] }, [1, 2, 3, 4, 5].map(failing))
    expect(remindedOf(seen)).toEqual([
      undefined,
      undefined,
      { kind: 'failure', length: 3, tools: ['fetch'] },
      undefined,
      { kind: 'failure', length: 5, tools: ['fetch'] },
    ])
    expect(seen.map((o) => (o.reminded?.kind === 'failure' ? o.reminded.error : undefined))).toEqual([
      undefined,
      undefined,
      'error: quota exceeded',
      undefined,
      'error: quota exceeded',
    ])
  })

  it('the same failing call twice is a run, not a failure loop: no other arguments failed alike', () => {
    const seen = observeAll({ sameFailure: true, thresholds: [2, 4, 7] }, [failing(1), failing(1)])
    expect(remindedOf(seen)).toEqual([undefined, { kind: 'run', length: 2, tools: ['fetch'] }])
  })
})

describe('rules/failure (sameFailure): what goes on with a run', () => {
  it('a call that neither repeats nor fails alike starts a new run, which identical calls then extend', () => {
    const grep = { tool: 'grep', args: { p: 'x' } }
    const seen = observeAll({ sameFailure: true, thresholds: [2, 3] }, [{ tool: 'read' }, grep, grep, grep])
    expect(seen.map((o) => o.inARow)).toEqual([1, 1, 2, 3])
    expect(remindedOf(seen)).toEqual([
      undefined,
      undefined,
      { kind: 'run', length: 2, tools: ['grep'] },
      { kind: 'run', length: 3, tools: ['grep'] },
    ])
  })
})

describe('rules/failure beside blockAt', () => {
  it('a failure run withheld at a call another listener turned away says the call was not run', () => {
    const guard = createGuard(Config({ sameFailure: true, thresholds: [2], blockAt: 2 }))
    const agent = {} as never
    const texts = [1, 2, 3].map((item, i) => {
      const exec = { agent, name: 'fetch', arguments: { item } }
      const content = [{ type: 'text' as const, text: 'error: quota exceeded' }]
      return guard.observe(exec, { isError: true, content }, i < 2)?.withheld?.[0]
    })
    expect(texts.map((t) => (t as { text: string } | undefined)?.text)).toEqual([
      undefined,
      undefined,
      withheldFailureFeedback('fetch', 3, 'error: quota exceeded', { ran: false }),
    ])
  })
})
