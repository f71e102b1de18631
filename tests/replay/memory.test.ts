import { cp } from 'node:fs/promises'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { main } from '../../src/replay/cli.ts'
import type { ScriptedCall } from '../../support/model.ts'
import { writeSessions } from '../../support/sessions.ts'
import { scratch } from '../../support/scratch.ts'
import { turns } from '../support/calls.ts'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const big = (i: number): ScriptedCall => ({
  name: 'write_file',
  args: { path: `f${i}.ts`, content: 'x'.repeat(200_000) },
})

/** `copies` project folders, each a copy of the same recorded sessions. */
async function copies(source: string, count: number): Promise<string> {
  const root = await scratch('copies')
  for (let i = 0; i < count; i++) await cp(join(source, '_no-cwd'), join(root, `project-${i}`), { recursive: true })
  return root
}

/** The largest heap, after a full collection, seen as each session starts being replayed. */
async function peakHeap(root: string): Promise<number> {
  let peak = 0
  const sample = () => {
    gc()
    peak = Math.max(peak, process.memoryUsage().heapUsed)
  }
  await main(['replay', root], { out: () => {}, err: sample, progress: true })
  sample()
  return peak
}

describe('replay memory', () => {
  it('the heap while replaying 20 copies of a session set stays within ' +
    'a small margin of 2 copies: nothing is kept per session', async () => {
    // Each session carries about 1 MB of arguments and results, so keeping any of it per session would show.
    const source = await writeSessions(
      'none',
      Array.from({ length: 3 }, (_, s) => ({ id: `s${s}`, script: turns(big(s), big(s), big(s), big(s), big(s)) })),
    )
    const two = await copies(source, 2)
    const twenty = await copies(source, 20)
    await peakHeap(two)
    const small = await peakHeap(two)
    const large = await peakHeap(twenty)
    // 54 more sessions of about 2 MB each (arguments and logged results) would add over 100 MB if kept.
    expect(large - small).toBeLessThan(8e6)
  }, 120_000)
})
