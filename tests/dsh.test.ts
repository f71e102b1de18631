import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import Loader from '@deepseek-ai/cordis-plugin-loader'
import { SessionId } from '@deepseek-ai/dsh-session'
import { describe, expect, it } from 'vitest'
import { name as packageName } from '../package.json' with { type: 'json' }
import * as Reminder from '../src/index.ts'
import JsonlSessionPersistence from '@deepseek-ai/dsh-session-persistence-jsonl'
import { detailedReminder, shortReminder } from '../src/rules/run.ts'
import { bashSuite, mountBash } from './support/dsh-tools.ts'
import { injected, prompt, PROVIDER, registerContentTools, reminders } from '../support/harness.ts'
import { ScriptedModel, type ScriptedCall } from '../support/model.ts'
import { placed, runReplayJson } from '../support/sessions.ts'
import { compose, readmeHmrSnippet, readmeSnippets, type Row } from './support/profile.ts'
import { scratch } from '../support/scratch.ts'
import { source, times, turns } from './support/calls.ts'

/**
 * Mount one composed row through the cordis loader from a `cordis.yml`, beside the harness
 * services; resolve to its fiber.
 */
async function mountRow(row: Row) {
  const dir = await scratch('dsh')
  // The row names this package; the suite maps that name to the source under test, as dsh maps it
  // to the profile's copy.
  const mounted = { ...row, name: row.name === packageName ? 'cordis:repeat-tool-reminder' : row.name }
  // JSON is YAML: the rows as written, without a YAML writer.
  await writeFile(
    join(dir, 'cordis.yml'),
    JSON.stringify([
      ...['dsh-session', 'dsh-llm', 'dsh-tools', 'dsh-system-prompt', 'dsh-agent'].map((pkg) => ({
        id: pkg,
        name: `@deepseek-ai/${pkg}`,
      })),
      { id: 'loop', name: '@deepseek-ai/dsh-agent-loop', config: { agents: [] } },
      mounted,
    ]),
  )
  const root = new Context()
  await root.plugin(Loader, {})
  root.loader.builtins['repeat-tool-reminder'] = Reminder
  const include = await root.loader.create({
    name: '@deepseek-ai/cordis-plugin-include',
    config: { path: pathToFileURL(join(dir, 'cordis.yml')).href },
  })
  await root.loader.await()
  return { root, fiber: root.loader.resolve(include).subtree!.store['repeat-tool-reminder']!.fiber! }
}

bashSuite()

describe('in dsh, by the README', () => {
  it('both READMEs show the same profile snippets: configure, then turn off; and the same HMR one', async () => {
    const snippets = await readmeSnippets('README.md')
    expect(snippets).toHaveLength(2)
    expect(await readmeSnippets('README.zh.md')).toEqual(snippets)
    expect(await readmeHmrSnippet('README.zh.md')).toBe(await readmeHmrSnippet('README.md'))
  })

  it(
    "the base composition's repeat-tool-reminder row names this package: " +
      'installed into a profile, it is what the row loads',
    async () => {
      const row = (await compose('[]')).find((r) => r.id === 'repeat-tool-reminder')
      expect(row).toEqual({
        id: 'repeat-tool-reminder',
        name: packageName,
        config: { thresholds: [3, 5, 8], argumentsPreviewChars: 500 },
      })
    },
  )

  it('the configuration snippet, patched over the base row by dsh, reaches the guard', async () => {
    const [configure] = await readmeSnippets('README.md')
    const row = (await compose(configure!)).find((r) => r.id === 'repeat-tool-reminder')!
    const { root, fiber } = await mountRow(row)
    await fiber.await()
    expect(fiber.config).toEqual(Reminder.Config(row.config!))
    expect(fiber.config).toMatchObject({ thresholds: [2, 4, 7], resultAware: true, cycles: true, relapse: false })

    registerContentTools(root)
    root.llm.registerAdapter(
      [PROVIDER],
      new ScriptedModel(turns(...times(3, { name: 'grep', args: { pattern: 'x' } }))),
    )
    const { agent } = await root.agents.create({
      sessionId: SessionId('dsh-profile'),
      agentOptions: { provider: PROVIDER, model: 'm' },
    })
    await prompt(root, agent, 'go')
    expect(injected(agent).map((r) => [r.afterCall, r.source])).toEqual([[2, source('grep × 2')]])
    await root.fiber.dispose()
  })

  it(
    "the recommended config, with dsh's bash tool: a reworded re-run " +
      'of a long failing command is reminded from its second run, a run ' +
      'between edits that changes the output is not, and replay reproduces both',
    async () => {
      const [configure] = await readmeSnippets('README.md')
      const row = (await compose(configure!)).find((r) => r.id === 'repeat-tool-reminder')!
      const { root, fiber } = await mountRow(row)
      await fiber.await()
      registerContentTools(root)
      await mountBash(root)
      const sessions = await scratch('sessions')
      await root.plugin(JsonlSessionPersistence, { root: sessions, compression: 'none' })
      const command = 'seq 1 20000; exit 1'
      const counter = join(sessions, 'runs')
      // Prints one more line each time: the same command, with a new result each run.
      const changing = `echo x >> '${counter}'; wc -l < '${counter}'`
      const bash = (c: string, description: string): ScriptedCall => ({
        name: 'bash',
        args: { command: c, description },
      })
      const script = [
        bash(command, 'Run the tests'),
        bash(command, 'Run the tests again'),
        bash(command, 'Re-run from project root'),
        bash(command, 'Run tests once more'),
        bash(changing, 'Count'),
        bash(changing, 'Count again'),
        bash(changing, 'Count once more'),
      ]
      root.llm.registerAdapter([PROVIDER], new ScriptedModel(script.map((call) => ({ calls: [call] }))))
      const { agent } = await root.agents.create({
        sessionId: SessionId('dsh-bash'),
        agentOptions: { provider: PROVIDER, model: 'm' },
      })
      await prompt(root, agent, 'make the tests pass')
      expect(reminders(agent).map((r) => [r.afterCall, r.text])).toEqual([
        [2, shortReminder({ sameResults: true, omitted: ['description'] })],
        [4, detailedReminder('bash', 4, JSON.stringify({ command }), { sameResults: true, omitted: ['description'] })],
      ])
      await root.fiber.dispose()

      const [session] = (await runReplayJson([sessions, '--config', await profileFile(configure!)])).report.sessions
      expect(session!.recordedReminders).toEqual([
        { afterCall: 2, summary: 'bash × 2', kind: 'short', effect: 'repeated', repeatedResult: true },
        { afterCall: 4, summary: 'bash × 4', kind: 'detailed', effect: 'changed', repeatedResult: true },
      ])
      expect(session!.configReminders).toEqual(placed(session!.recordedReminders))
    },
  )

  it('the same snippet with a misspelled key fails the load and names the key', async () => {
    const [configure] = await readmeSnippets('README.md')
    const row = (await compose(configure!.replace('thresholds:', 'threshold:'))).find(
      (r) => r.id === 'repeat-tool-reminder',
    )!
    const { root, fiber } = await mountRow(row)
    await expect(fiber.await()).rejects.toThrow(
      'repeat-tool-reminder: unknown option "threshold" (did you mean "thresholds"?)',
    )
    await root.fiber.dispose()
  })

  it(
    'in a headless profile, whose layer turns HMR off, the HMR snippet below the config turns it back on and ' +
      'leaves the config as it is',
    async () => {
      const [configure] = await readmeSnippets('README.md')
      const hmr = await readmeHmrSnippet('README.md')
      const without = await compose(configure!, true)
      expect(without.find((r) => r.id === 'hmr')).toMatchObject({ disabled: true })
      const rows = await compose(`${configure}${hmr}`, true)
      expect(rows.find((r) => r.id === 'hmr')).toMatchObject({
        name: '@deepseek-ai/cordis-plugin-hmr',
        disabled: false,
      })
      expect(rows.find((r) => r.id === 'repeat-tool-reminder')).toEqual(
        without.find((r) => r.id === 'repeat-tool-reminder'),
      )
    },
  )

  it("the turn-off snippet disables the row and, pasted as a headless profile's whole file, keeps HMR on", async () => {
    const [, off] = await readmeSnippets('README.md')
    const rows = await compose(off!, true)
    expect(rows.find((r) => r.id === 'repeat-tool-reminder')).toMatchObject({ name: packageName, disabled: true })
    expect(rows.find((r) => r.id === 'hmr')).toMatchObject({ disabled: false })
  })
})

/** A profile's `cordis.patch.yml` holding `text`, in a scratch folder removed after the test. */
async function profileFile(text: string): Promise<string> {
  const file = join(await scratch('profile'), 'cordis.patch.yml')
  await writeFile(file, text)
  return file
}
