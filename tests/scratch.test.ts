import { spawnSync } from 'node:child_process'
import { mkdir, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scratch, sweep } from '../support/scratch.ts'

describe('scratch folders', () => {
  it("a folder of a process that has ended is removed; a live process's and other names are kept", async () => {
    const root = await scratch('sweep')
    const ended = spawnSync(process.execPath, ['-e', '0']).pid
    for (const name of [
      `rtr-${ended}-sessions-a`,
      `rtr-${ended}-streams-b`,
      `rtr-${process.pid}-sessions-c`,
      'rtr-pack-d',
      'other',
    ])
      await mkdir(join(root, name))
    expect(await sweep(root)).toEqual([`rtr-${ended}-sessions-a`, `rtr-${ended}-streams-b`])
    expect((await readdir(root)).sort()).toEqual([`rtr-${process.pid}-sessions-c`, 'other', 'rtr-pack-d'].sort())
  })

  it('a scratch folder is named for its process and its label', async () => {
    expect(await scratch('label')).toMatch(new RegExp(`/rtr-${process.pid}-label-[^/]+$`))
  })
})
