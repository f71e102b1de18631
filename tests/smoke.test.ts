import { expect, it } from 'vitest'
import { harness, injected, repeat } from './support/harness.ts'

it('smoke', async () => {
  const h = await harness(repeat(5, { name: 'grep', args: { pattern: 'x' } }))
  const { agent } = await h.agent()
  await h.prompt(agent)
  console.log(JSON.stringify(injected(agent), null, 1))
  expect(injected(agent)).toHaveLength(2)
})
