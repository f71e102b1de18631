import Jsonl from '@deepseek-ai/dsh-session-persistence-jsonl'
import { Context } from '@deepseek-ai/cordis'
import SessionStore from '@deepseek-ai/dsh-session'
import { harness } from './tests/support/harness.ts'
import { repeat } from './tests/support/model.ts'
const root = '/tmp/rtr-probe-root'
const h = await harness(repeat(4, { name: 'grep', args: { pattern: 'x' } }), { thresholds: [2, 3] })
await h.ctx.plugin(Jsonl, { root, compression: 'none' })
const agent = await h.run()
await h.ctx.fiber.dispose()
const ctx = new Context()
await ctx.plugin(SessionStore)
await ctx.plugin(Jsonl, { root, compression: 'none' })
const list = await ctx.sessionPersistence.list()
console.log(list)
for (const meta of list) {
  console.log(ctx.sessionPersistence.locate(meta))
  const ins = await ctx.sessionPersistence.inspect(meta.id)
  console.log(Object.keys(ins), ins.events?.length, ins.events?.map((e) => e.type).join(' '))
}
