import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { harness, reminders, toolResults } from '../../support/harness.ts'
import type { ScriptedCall } from '../../support/model.ts'
import { scratch } from '../../support/scratch.ts'
import { runReplayJson, writeSessions } from '../../support/sessions.ts'
import { source, turns } from '../support/calls.ts'
import { bashSuite, mountBash } from '../support/dsh-tools.ts'
import { Config } from '../../src/config.ts'
import { createGuard } from '../../src/guard.ts'
import { rerunText } from '../../src/rules/rerun.ts'

/** One call as a test makes it: the tool, its arguments, what it printed, and whether that is an error. */
type Made = [tool: string, args: unknown, out: string, isError?: boolean, ran?: boolean]

/** The notices the guard gives, by call number: its text and its summary. */
function drive(config: Partial<Config>, calls: Made[]) {
  const guard = createGuard(Config({ reruns: true, ...config }))
  const agent = {} as never
  return calls.flatMap(([name, args, out, isError = false, ran = true], i) => {
    const reminder = guard.observe(
      { agent, name, arguments: args },
      { isError, content: [{ type: 'text', text: out }] },
      ran,
    )?.reminder
    return reminder === undefined
      ? []
      : [
          [
            i + 1,
            (reminder.content[0] as { text: string }).text,
            (reminder.source as { summary: string }).summary,
          ] as const,
        ]
  })
}

const bash = (command: string, out = '(no output)', isError = false): Made => ['bash', { command }, out, isError]
const RUN = bash('./enable.sh')
const LIST = bash('ls hooks', 'a.py\nb.py')

describe('reruns: a call that printed nothing, made again with nothing between to say why it would print more', () => {
  it('the same script run again after a listing, both silent: reminded, two calls back', () => {
    expect(drive({}, [RUN, LIST, RUN])).toEqual([[3, rerunText(2), 'bash × 2 (rerun)']])
    expect(rerunText(2)).toBe(
      'Reminder: you made this same call 2 calls ago and it printed nothing; since then every call has only read, ' +
        'failed or printed nothing too, and this one printed nothing again. ' +
        'Running it unchanged once more will most likely show you nothing new. ' +
        'Find out why it prints nothing (where its output goes, whether it does anything at all), ' +
        'or run something else.',
    )
  })

  it('off by default', () => {
    expect(drive({ reruns: false }, [RUN, LIST, RUN])).toEqual([])
  })

  it('silence is an empty text, blanks or dsh\'s "(no output)"; output, a failure or an error is not', () => {
    for (const out of ['', ' \n', '(no output)'])
      expect(drive({}, [bash('./x', out), LIST, bash('./x', out)]).map(([n]) => n)).toEqual([3])
    for (const [out, isError] of [
      ['done', false],
      ['(no output)\n[exit code: 1]', false],
      ['', true],
    ] as const)
      expect(drive({}, [bash('./x', out, isError), LIST, bash('./x', out, isError)])).toEqual([])
  })

  it('silence is what the model read: a timing that maskNoise masks away for comparing is no silence', () => {
    const timed = bash('./bench.sh', '(523ms)')
    expect(drive({ maskNoise: true }, [timed, LIST, timed])).toEqual([])
  })

  it('the earlier run decides by its own answer: silent once and not the other time is no rerun', () => {
    expect(drive({}, [bash('./x', 'started'), LIST, bash('./x')])).toEqual([])
    expect(drive({}, [bash('./x'), LIST, bash('./x', 'started')])).toEqual([])
    // The latest same call decides, not an older silent one.
    expect(drive({}, [RUN, LIST, bash('./enable.sh', 'ok'), LIST, RUN])).toEqual([])
  })

  it("a read that printed nothing is the rereads rule's, and a call that waits a poll's", () => {
    const empty = bash('cat notes.txt')
    expect(drive({}, [empty, LIST, empty])).toEqual([])
    expect(drive({}, [['grep', { pattern: 'x' }, ''], LIST, ['grep', { pattern: 'x' }, '']])).toEqual([])
    const nap = bash('sleep 30')
    expect(drive({}, [nap, LIST, nap])).toEqual([])
  })

  it('what lies between: reads, failures of other tools, refusals and silent runs leave it unexplained', () => {
    const failedEdit: Made = ['edit', { path: 'a' }, 'old_string not found', true]
    const failedRead: Made = ['read', { path: 'b' }, 'no such file', true]
    const refused: Made = ['bash', { command: 'rm -rf build' }, 'the user rejected tool "bash"', true, false]
    const other = bash('bash -x ./enable.sh 2>&1 | head -50')
    expect(drive({}, [RUN, failedEdit, failedRead, LIST, RUN]).map(([n, t]) => [n, t])).toEqual([[5, rerunText(4)]])
    expect(drive({}, [RUN, refused, RUN]).map(([n]) => n)).toEqual([3])
    expect(drive({}, [RUN, other, RUN]).map(([n]) => n)).toEqual([3])
    expect(drive({}, [RUN, bash('cp a.bak a'), RUN]).map(([n]) => n)).toEqual([3])
  })

  it('what lies between: an edit, output, a failed bash, a wait or a file written in bash explain it', () => {
    for (const between of [
      ['edit', { path: 'enable.sh' }, 'Edited enable.sh'],
      bash('./build.sh', 'built'),
      bash('make', 'error: no rule\n[exit code: 2]'),
      bash('sleep 5'),
      bash('python3 gen.py > out.txt'),
      bash("sed -i 's/a/b/' enable.sh"),
    ] as Made[])
      expect(drive({}, [RUN, between, RUN])).toEqual([])
  })

  it('only the calls between count, every one of them', () => {
    const edit: Made = ['edit', { path: 'enable.sh' }, 'Edited enable.sh']
    expect(drive({}, [LIST, edit, RUN, LIST, RUN]).map(([n, t]) => [n, t])).toEqual([[5, rerunText(2)]])
    expect(drive({}, [RUN, LIST, edit, LIST, RUN])).toEqual([])
  })

  it('2 to 6 calls back: the call right before is a run; 7 back is too far', () => {
    expect(drive({ thresholds: [3] }, [RUN, RUN])).toEqual([])
    const reads = (n: number) => Array.from({ length: n }, (_, i) => bash(`ls d${i}`, `f${i}`))
    expect(drive({}, [RUN, ...reads(5), RUN]).map(([n, t]) => [n, t])).toEqual([[7, rerunText(6)]])
    expect(drive({}, [RUN, ...reads(6), RUN])).toEqual([])
  })

  it('once per silence: the same call again after its rerun is left to the run and cycle rules', () => {
    expect(drive({}, [RUN, LIST, RUN, LIST, RUN]).map(([n]) => n)).toEqual([3])
  })

  it('arguments left out (ignoreArguments) do not make another call', () => {
    const described = (description: string): Made => ['bash', { command: './enable.sh', description }, '']
    expect(drive({}, [described('Run it'), LIST, described('Run it again')])).toEqual([])
    expect(
      drive({ ignoreArguments: ['bash.description'] }, [described('Run it'), LIST, described('Run it again')]).map(
        ([n]) => n,
      ),
    ).toEqual([3])
  })

  it('a loop reminder due at the same call stands alone', () => {
    const other = bash('./other.sh')
    expect(drive({ cycles: true, thresholds: [2] }, [RUN, other, RUN, other]).map(([n, , s]) => [n, s])).toEqual([
      [3, 'bash × 2 (rerun)'],
      [4, 'bash → bash × 2'],
    ])
  })
})

describe("reruns, with dsh's bash tool as dsh-base composes it", () => {
  bashSuite()
  const shell = (command: string, description: string): ScriptedCall => ({
    name: 'bash',
    args: { command, description },
  })
  /** A model that makes a folder, lists its parent, then makes it again: reworded each time, as models do. */
  async function remake(between: (parent: string) => ScriptedCall) {
    const parent = await scratch('rerun')
    const make = (description: string) => shell(`mkdir -p '${join(parent, 'out')}'`, description)
    return {
      script: turns(make('Make the output folder'), between(parent), make('Make sure the output folder exists')),
      setup: (ctx: Parameters<typeof mountBash>[0]) => mountBash(ctx).then(() => undefined),
    }
  }
  const list = (parent: string) => shell(`ls '${parent}'`, 'See what is there')
  const CONFIG = { thresholds: [2, 4, 7], ignoreArguments: ['bash.description'], resultAware: true, reruns: true }

  it('mkdir -p, a listing, the same mkdir -p: dsh prints "(no output)" both times, reminded at the third', async () => {
    const { script, setup } = await remake(list)
    const h = await harness(script, CONFIG)
    await setup(h.ctx)
    const agent = await h.run()
    expect(toolResults(agent)).toEqual([
      [false, '(no output)'],
      [false, 'out\n'],
      [false, '(no output)'],
    ])
    expect(reminders(agent).map((r) => [r.afterCall, r.text, r.source])).toEqual([
      [3, rerunText(2), source('bash × 2 (rerun)')],
    ])
  })

  it('`sleep 1` between instead is a wait: no reminder', async () => {
    const { script, setup } = await remake(() => shell('sleep 1', 'Give it a second'))
    const h = await harness(script, CONFIG)
    await setup(h.ctx)
    expect(reminders(await h.run())).toEqual([])
  })

  it('replay reads the recorded reminder back as a rerun, and --reruns reminds where the live guard did', async () => {
    const root = await writeSessions('none', [{ id: 'remake', ...(await remake(list)) }], CONFIG)
    const flags = ['--thresholds', '2,4,7', '--ignore-arguments', 'bash.description', '--result-aware', '--reruns']
    const { report } = await runReplayJson([root, ...flags])
    const [session] = report.sessions
    expect(session?.recordedReminders.map((r) => [r.afterCall, r.summary, r.kind])).toEqual([
      [3, 'bash × 2 (rerun)', 'rerun'],
    ])
    expect(session?.configReminders.map((r) => [r.afterCall, r.summary])).toEqual([[3, 'bash × 2 (rerun)']])
  })
})
