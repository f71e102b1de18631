import { describe, expect, it } from 'vitest'
import { harness } from '../support/harness.ts'
import { times, turns } from './support/calls.ts'

describe('session log', () => {
  it('five identical todo_write calls with the default config: short after call 3, detailed after call 5', async () => {
    const h = await harness(
      turns(...times(5, { name: 'todo_write', args: { todos: [{ task: 'fix the build', done: false }] } })),
    )
    const { agent } = await h.agent('snapshot')
    await h.prompt(agent, 'plan the work')
    expect(normalize(agent.session.events.filter((event) => event.type !== 'assistant/chunk'))).toMatchSnapshot()
  })
})

/** Replace message ids by their order of appearance and every time by 0. */
function normalize(events: readonly unknown[]): unknown {
  const ids = new Map<string, string>()
  return JSON.parse(
    JSON.stringify(events, (key, value: unknown) => {
      if (key === 'time') return 0
      if (key === 'id' && typeof value === 'string' && /^[0-9a-f-]{36}$/.test(value)) {
        if (!ids.has(value)) ids.set(value, `<message ${ids.size + 1}>`)
        return ids.get(value)
      }
      return value
    }),
  )
}
