import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..')
const DOCS = [
  'README.md',
  'README.zh.md',
  'CHANGELOG.md',
  ...['behaviour', 'development', 'opt-ins', 'performance', 'replay'].flatMap((d) => [
    `docs/${d}.md`,
    `docs/${d}.zh.md`,
  ]),
]

/** The repository paths a text names: a path under one of the package's folders, or a relative link. */
function named(text: string, file: string): string[] {
  const inRepo = [
    ...text.matchAll(/(?<![\w/.~-])((?:src|tests|docs|bench|scripts|support|demo|bin)\/[\w./-]*\w)/g),
  ].map(([, path]) => path as string)
  const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
    .map(([, link]) => link as string)
    .filter((link) => !/^[a-z]+:/.test(link))
    .map((link) => join(dirname(file), link))
  return [...new Set([...inRepo, ...links])]
}

describe('the docs name only paths that exist', () => {
  it.each(DOCS)('%s', async (file) => {
    const text = await readFile(join(ROOT, file), 'utf8')
    const missing = named(text, file).filter((path) => !existsSync(join(ROOT, path)))
    expect(missing).toEqual([])
  })

  it('finds the paths a text names, and only those', () => {
    expect(
      named('see `src/guard.ts`, [x](replay.md#a), ~/src/no, https://a.b/c and [y](https://z)', 'docs/a.md'),
    ).toEqual(['src/guard.ts', 'docs/replay.md'])
  })
})
