import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Config } from '../../src/config.ts'
import { scratch } from '../../support/scratch.ts'
import { scratchFile } from '../support/files.ts'
import { runReplay, runReplayJson, writeSessions } from '../../support/sessions.ts'
import { GREP, times, turns } from '../support/calls.ts'
import { composeEntries, loadOptionalPatches, loadOverlayPatches } from '@deepseek-ai/dsh-app-boot'
import { compose, readmeSnippets, row } from '../support/profile.ts'

/** A file with `text` in a scratch folder removed after the test. */
const file = (name: string, text: string) => scratchFile('config', name, text)

async function sessions(): Promise<string> {
  return writeSessions('none', [{ id: 'grep', script: turns(...times(5, GREP)) }])
}

describe('replay --config: the config a profile runs', () => {
  it("the README's profile patch gives the config dsh's own patch layer gives the row", async () => {
    const [configure] = await readmeSnippets('README.md')
    const expected = Config(row(await compose(configure!), 'repeat-tool-reminder').config!)
    const { status, report } = await runReplayJson([
      await sessions(),
      '--config',
      await file('cordis.patch.yml', configure!),
    ])
    expect(status).toBe(0)
    expect(report.config).toEqual(expected)
  })

  it(
    'patches apply in order, each replacing the config whole; other rows ' + "and inserts are not this plugin's",
    async () => {
      const patch = [
        '- id: repeat-tool-reminder',
        '  config: { thresholds: [4, 6], cycles: true }',
        '- id: tool-bash',
        '  config: { thresholds: [9] }',
        '- insert: [{ id: repeat-tool-reminder, config: { thresholds: [7] } }]',
        '- id: repeat-tool-reminder',
        '  config: { thresholds: [2, 4] }',
        '- id: repeat-tool-reminder',
        '  insert: [{ id: other }]',
        '  config: { thresholds: [9] }',
        '- id: repeat-tool-reminder',
        '  disabled: false',
      ].join('\n')
      const { report } = await runReplayJson([await sessions(), '--config', await file('cordis.patch.yml', patch)])
      expect(report.config).toEqual(Config({ thresholds: [2, 4] }))
      expect(report.sessions[0]!.configReminders.map((r) => r.afterCall)).toEqual([2, 4])
    },
  )

  it("a patch that inserts this plugin's row is one for it: the inserted row's config runs", async () => {
    const inserted =
      "- insert:\n    - id: other\n      name: 'y'\n    - id: repeat-tool-reminder\n      name: 'x'\n" +
      '      config:\n        thresholds: [4]\n'
    const { report } = await runReplayJson([await sessions(), '--config', await file('cordis.patch.yml', inserted)])
    expect(report.config).toEqual(Config({ thresholds: [4] }))
  })

  it('a config object in YAML or JSON; the flags override single keys', async () => {
    const root = await sessions()
    const yamlFile = await file('guard.yml', 'thresholds: [2, 4]\nresultAware: true\n')
    expect((await runReplayJson([root, '--config', yamlFile])).report.config).toEqual(
      Config({ thresholds: [2, 4], resultAware: true }),
    )
    const jsonFile = await file('guard.json', '{"thresholds": [2, 4], "cycles": true}')
    const { report } = await runReplayJson([root, '--config', jsonFile, '--thresholds', '3', '--relapse'])
    expect(report.config).toEqual(Config({ thresholds: [3], cycles: true, relapse: true }))
  })

  const bad: [string, string, string][] = [
    ['not YAML', 'thresholds: [2,\n', 'not YAML or JSON: unexpected end of the stream within a flow collection (2:1)'],
    ['neither an object nor a list', '42\n', 'holds neither a config object nor a list of profile patches (got 42)'],
    ['empty', '', 'holds neither a config object nor a list of profile patches (got nothing)'],
    ['a text', 'hello\n', 'holds neither a config object nor a list of profile patches (got "hello")'],
    [
      "a patch whose id is this plugin's name misspelt: dsh would run the defaults without a word",
      '- id: repeat-tool-remider\n  config:\n    thresholds: [2]\n',
      'patch 1 has id "repeat-tool-remider", which names no row (did you mean "repeat-tool-reminder"?)',
    ],
    [
      "a key of this plugin's patch misspelt: dsh would ignore it",
      '- id: repeat-tool-reminder\n  configs:\n    thresholds: [2]\n',
      'patch 1 has key "configs", which dsh ignores (did you mean "config"?)',
    ],
    [
      "a profile patch that does not touch this plugin's row: most likely the wrong file",
      '- id: tool-bash\n  disabled: true\n',
      "has no patch for repeat-tool-reminder: that profile runs the row's defaults, which replay uses without --config",
    ],
    [
      "a new profile's patch file, which dsh writes holding []",
      '# Your patch layer\n[]\n',
      "has no patch for repeat-tool-reminder: that profile runs the row's defaults, which replay uses without --config",
    ],
    [
      'a profile that disables the plugin',
      '- id: repeat-tool-reminder\n  disabled: true\n',
      'disables repeat-tool-reminder (disabled: true): that profile runs no guard to replay',
    ],
    [
      'a row config that is not an object',
      '- id: repeat-tool-reminder\n  config: [3, 5]\n',
      'patches repeat-tool-reminder with a config that is not an object of options (got [3,5])',
    ],
    [
      'a long row config that is not an object',
      `- id: repeat-tool-reminder\n  config: [${Array(50).fill(3).join(', ')}]\n`,
      `patches repeat-tool-reminder with a config that is not an object ` +
        `of options (got [${Array(40).fill(3).join(',')})`,
    ],
    [
      'a long !!js expression',
      `thresholds: !!js "${'x'.repeat(200)}"\n`,
      `holds a !!js expression ("${'x'.repeat(79)}), which dsh evaluates ` +
        `when it starts; replay takes plain values only`,
    ],
    ['a misspelled option', 'threshold: [3]\n', 'unknown option "threshold" (did you mean "thresholds"?)'],
    [
      'a bad value',
      '- id: repeat-tool-reminder\n  config: { thresholds: [1] }\n',
      'thresholds must be integers >= 2 (got 1)',
    ],
  ]

  it.each(bad)('%s: exit 2, the file and what is wrong, nothing replayed', async (_what, text, problem) => {
    const path = await file('cordis.patch.yml', text)
    const { status, out, err } = await runReplay(['replay', await sessions(), '--config', path])
    expect(status).toBe(2)
    expect(out).toBe('')
    expect(err).toBe(`repeat-tool-reminder replay: ${path}: ${problem}\n`)
  })

  it('a bad config file beside a bad labels file: the config file is named first, and only it', async () => {
    const config = await file('guard.yml', 'threshold: [3]\n')
    const labels = await file('labels.jsonl', 'not json\n')
    const { status, err } = await runReplay(['replay', await sessions(), '--config', config, '--labels', labels])
    expect(status).toBe(2)
    expect(err).toBe(
      `repeat-tool-reminder replay: ${config}: unknown option "threshold" (did you mean "thresholds"?)\n`,
    )
  })

  it('a file that does not exist', async () => {
    const path = join(await scratch('config'), 'none.yml')
    const { status, err } = await runReplay(['replay', await sessions(), '--config', path])
    expect(status).toBe(2)
    expect(err).toBe(`repeat-tool-reminder replay: ${path}: no such file or directory\n`)
  })

  it('a file and flags that are fine alone but not together', async () => {
    const path = await file('guard.yml', 'blockAt: 8\n')
    const { status, err } = await runReplay(['replay', await sessions(), '--config', path, '--thresholds', '3,5,10'])
    expect(status).toBe(2)
    expect(err).toBe(
      `repeat-tool-reminder replay: ${path}, with the flags given: blockAt ` +
        `must be an integer at or above the last threshold (10) (got 8)\n`,
    )
  })
})

describe("replay --config reads a profile as dsh's own patch layer does", () => {
  /**
   * The config dsh gives this plugin's row for a profile whose `cordis.patch.yml` is `text`, by
   * dsh's own loader and patch function over dsh-base; what dsh throws, thrown.
   */
  async function dshConfig(text: string): Promise<Config> {
    const path = await file('cordis.patch.yml', text)
    const base = loadOverlayPatches('dsh', join(import.meta.dirname, '..', 'fixtures', 'dsh-base', 'cordis.patch.yml'))
    const rows = composeEntries([base, loadOptionalPatches('dsh', path)!]) as {
      id?: string
      config?: Partial<Config>
    }[]
    return Config(rows.find((r) => r.id === 'repeat-tool-reminder')!.config)
  }

  const same: [string, string][] = [
    ['a config left empty is the defaults', '- id: repeat-tool-reminder\n  config:\n'],
    [
      "a row patched with another package's name is skipped",
      '- id: repeat-tool-reminder\n  name: some-other-reminder\n  config: { thresholds: [9] }\n',
    ],
    [
      'patches of other rows change nothing',
      '- id: tool-bash\n  config: { timeoutMs: 5 }\n- id: repeat-tool-reminder\n  config: { thresholds: [2, 4] }\n',
    ],
    [
      "a row inserted after this plugin's is another row",
      '- id: repeat-tool-reminder\n  config: { thresholds: [2, 4] }\n- ' +
        'insert: [{ id: another-plugin, name: another, config: { thresholds: [9] } }]\n',
    ],
    [
      'anchors and aliases',
      '- id: repeat-tool-reminder\n  config: { thresholds: &t [2, 6], remindEvery: ' +
        '2 }\n- id: nothing\n  config: { x: *t }\n',
    ],
  ]

  it.each(same)('%s: the config dsh gives the row', async (_what, text) => {
    const { status, report } = await runReplayJson([await sessions(), '--config', await file('cordis.patch.yml', text)])
    expect(status).toBe(0)
    expect(report.config).toEqual(await dshConfig(text))
  })

  it(
    "a merge key is no YAML merge in dsh's dialect: an option named " + '"<<", refused by dsh and by replay alike',
    async () => {
      const text = '- id: repeat-tool-reminder\n  config:\n    <<: { thresholds: [2] }\n'
      await expect(dshConfig(text)).rejects.toThrow('repeat-tool-reminder: unknown option "<<"')
      const path = await file('cordis.patch.yml', text)
      const { status, err } = await runReplay(['replay', await sessions(), '--config', path])
      expect(status).toBe(2)
      expect(err).toBe(`repeat-tool-reminder replay: ${path}: unknown option "<<"\n`)
    },
  )

  it('a patch that is no mapping (a nested list) is refused, as dsh refuses the file', async () => {
    const text = '- - id: repeat-tool-reminder\n    config: { thresholds: [2] }\n'
    const path = await file('cordis.patch.yml', text)
    expect(() => loadOptionalPatches('dsh', path)).toThrow('must be a mapping')
    const { status, err } = await runReplay(['replay', await sessions(), '--config', path])
    expect(status).toBe(2)
    expect(err).toBe(
      `repeat-tool-reminder replay: ${path}: patch 1 is not a mapping (a ` +
        `loader patch entry), which dsh refuses at start\n`,
    )
  })

  it('a !!js expression, which dsh reads and evaluates at start, is named: replay takes plain values', async () => {
    const text = '- id: repeat-tool-reminder\n  config: { thresholds: !!js "[2, 4]" }\n'
    const path = await file('cordis.patch.yml', text)
    expect(loadOptionalPatches('dsh', path)).toEqual([
      { id: 'repeat-tool-reminder', config: { thresholds: { __jsExpr: '[2, 4]' } } },
    ])
    const { status, err } = await runReplay(['replay', await sessions(), '--config', path])
    expect(status).toBe(2)
    expect(err).toBe(
      `repeat-tool-reminder replay: ${path}: holds a !!js expression ("[2, ` +
        `4]"), which dsh evaluates when it starts; replay takes plain values only\n`,
    )
  })
})
