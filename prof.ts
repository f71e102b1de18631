import { SessionId } from '@deepseek-ai/dsh-session'
import { scopeTarget } from '@deepseek-ai/dsh-scope'
import { bootHarness } from './tests/support/harness.ts'
const RESULT = Object.freeze({ isError: false, value: [], content: [] })
const ACCEPT = () => Promise.resolve({ kind: 'accept' })
async function setup(kind: string) {
  const ctx = await bootHarness({ invariants: false })
  if (kind === 'trivial') ctx.on('tools/post-execute', (e, r, next) => next())
  if (kind === 'global') ctx.on('tools/post-execute', (e, r, next) => next(), { global: true })
  if (kind === 'async') ctx.on('tools/post-execute', async (e, r, next) => { const d = await next(); return d })
  if (kind === 'asyncglobal') ctx.on('tools/post-execute', async (e, r, next) => { const d = await next(); return d }, { global: true })
  const { agent } = await ctx.agents.create({ sessionId: SessionId('p') })
  return { kind, ctx, agent }
}
const args = Object.freeze({ pattern: 'x' })
const subs = await Promise.all(['floor', 'trivial', 'global', 'async', 'asyncglobal'].map(setup))
const res = new Map(subs.map(s => [s.kind, [] as number[]]))
for (let round = 0; round < 15; round++) for (const { kind, ctx, agent } of subs) {
  const exec = Object.freeze({ token: Symbol(), callId: 'c', rootCallId: 'c', name: 'grep', arguments: args, signal: new AbortController().signal, agent })
  const t = performance.now()
  for (let i = 0; i < 20000; i++) await ctx.waterfall(scopeTarget(ctx.tools, agent), 'tools/post-execute', exec, RESULT, ACCEPT)
  res.get(kind)!.push((performance.now() - t) * 1e6 / 20000)
}
for (const [k, v] of res) { v.sort((a, b) => a - b); console.log(k, v[7]!.toFixed(0)) }
