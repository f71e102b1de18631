import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runReplayJson, writeSessions } from '../../support/sessions.ts'
import { GREP, times, turns } from '../support/calls.ts'

/** How deep the logged result nests: far deeper than `JSON.stringify` goes. */
const DEPTH = 100_000

describe('replay on a result nested deeper than JSON.stringify goes', () => {
  it('reports the loop and its cost, the result counted character for character', async () => {
    const root = await writeSessions('none', [{ id: 'deep', script: turns(...times(4, GREP)) }])
    const file = join(root, '_no-cwd', 'deep', 'session.jsonl')
    const deep = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`
    const text = (await readFile(file, 'utf8')).replaceAll(
      '"text":"no match for x"',
      `"text":"no match for x","deep":${deep}`,
    )
    await writeFile(file, text)
    const { status, report } = await runReplayJson([root])
    expect(status).toBe(0)
    const block = `{"deep":${deep},"text":"no match for x","type":"text"}`
    expect(report.total.cost.resultChars).toBe(3 * `[${block}]`.length)
  })
})
