import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import yaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { DEFAULTS } from './support/defaults.ts'

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

/**
 * How many words a Markdown text has outside its code blocks: white-space separated words, and for
 * Chinese, whose words are not separated, one word per two Han characters (a Chinese word is about
 * two characters long).
 */
function words(text: string): number {
  const prose = text.replace(/^( *)```[\s\S]*?^\1```/gm, '')
  const han = prose.match(/[\u4e00-\u9fff]/g)?.length ?? 0
  const rest = prose.replace(/[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]/g, ' ')
  return han / 2 + rest.split(/\s+/).filter((word) => word !== '').length
}

describe('docs a reader can hold', () => {
  it.each(['README.md', 'README.zh.md'])('%s has at most 1,100 words outside code', async (file) => {
    expect(words(await readFile(join(ROOT, file), 'utf8'))).toBeLessThanOrEqual(1100)
  })

  it.each(['.md', '.zh.md'])('docs/*%s has at most 10,000 words in all', async (ending) => {
    const files = DOCS.filter(
      (file) => file.startsWith('docs/') && file.endsWith(ending) && !file.endsWith(`.zh${ending}`),
    )
    let total = 0
    for (const file of files) total += words(await readFile(join(ROOT, file), 'utf8'))
    expect(files).toHaveLength(5)
    expect(total).toBeLessThanOrEqual(10000)
  })

  it('counts words outside code, and Chinese by its characters', () => {
    expect(words('one two\n```sh\nthree four\n```\n five')).toBe(3)
    expect(words('四个汉字 and two')).toBe(4)
  })
})

describe("the composition in docs/behaviour lists every option's default", () => {
  it.each(['docs/behaviour.md', 'docs/behaviour.zh.md'])('%s, in the order --help gives them', async (file) => {
    const text = await readFile(join(ROOT, file), 'utf8')
    const block = /```yaml\n#[^\n]*cordis.yml[^\n]*\n([\s\S]*?)```/.exec(text)?.[1] ?? ''
    const [row] = yaml.load(block) as [{ id: string; config: Record<string, unknown> }]
    expect(row.id).toBe('repeat-tool-reminder')
    expect(Object.keys(row.config)).toEqual(Object.keys(DEFAULTS))
    expect(row.config).toEqual(DEFAULTS)
  })
})
