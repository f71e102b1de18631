import { writeFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { failureReminder, withheldFailureFeedback } from '../src/rules/failure.ts'
import { rereadText } from '../src/rules/reread.ts'
import { shortReminder } from '../src/rules/run.ts'
import { bashSuite, mountBash, mountFiles, mountJobs } from './support/dsh-tools.ts'
import { harness, reminders, toolResults } from '../support/harness.ts'
import type { GenerateOptions } from '@deepseek-ai/dsh-llm'
import type { Script, ScriptedCall, ScriptedTurn } from '../support/model.ts'
import { scratch } from '../support/scratch.ts'
import { runReplayJson, writeSessions } from '../support/sessions.ts'
import { turns } from './support/calls.ts'

bashSuite()

const bash = (command: string): ScriptedCall => ({ name: 'bash', args: { command, description: 'Look' } })

async function runBash(script: ScriptedTurn[], config: Parameters<typeof harness>[1]) {
  const h = await harness(script, config)
  await mountBash(h.ctx)
  await mountFiles(h.ctx)
  return h.run()
}

/** Run `script` with dsh's bash and its background jobs, as dsh-base composes them. */
async function runJobs(script: Script, config: Parameters<typeof harness>[1]) {
  const h = await harness(script, config)
  await mountBash(h.ctx)
  await mountJobs(h.ctx)
  return h.run()
}

/**
 * The end of a script that started a job waiting for `release`: create it, then wait for the job
 * to end (so that nothing outlives the test), then answer.
 */
function finish(request: GenerateOptions, index: number, release: string): ScriptedTurn {
  if (index > 4) return { text: 'done' }
  writeFileSync(release, '')
  const job = /started background job ([\w-]+)/.exec(JSON.stringify(request.messages))![1]!
  return { calls: [{ name: 'job_output', args: { job_id: job, wait: true } }] }
}

/** A command started in the background, as dsh's bash starts a job. */
const background = (command: string): ScriptedCall => ({
  name: 'bash',
  args: { command, description: 'Wait in the background', run_in_background: true },
})

const read = (path: string): ScriptedCall => ({ name: 'read', args: { file_path: path } })

/** A folder with `a.txt` (alpha, beta) in it, for the reads to read. */
async function folder(): Promise<string> {
  const dir = await scratch('words')
  await writeFile(join(dir, 'a.txt'), 'alpha\nbeta\n')
  return dir
}

const summary = (r: { source: unknown }) => (r.source as { summary: string }).summary

describe("loops in other words, live with dsh's bash tool as dsh-base composes it", () => {
  it(
    'rereads: the same read after a listing, a read in other words, a ' +
      'read after writing another file are reminded; a read after editing ' +
      'its file is not',
    async () => {
      const dir = await folder()
      const file = join(dir, 'a.txt')
      const script = turns(
        bash(`grep -n beta ${file}`),
        bash(`ls ${dir}`),
        bash(`grep -n beta ${file}`),
        bash(`cat ${file} | grep -n beta`),
        bash(`printf 'note\\n' > ${join(dir, 'b.txt')}`),
        bash(`grep -n beta ${file}`),
        bash(`sed -i s/alpha/ALPHA/ ${file}`),
        bash(`grep -n beta ${file}`),
      )
      const agent = await runBash(script, { rereads: true, ignoreArguments: ['bash.description'] })
      expect(toolResults(agent).map(([, text]) => text)).toEqual([
        '2:beta\n',
        'a.txt\n',
        '2:beta\n',
        '2:beta\n',
        '(no output)',
        '2:beta\n',
        '(no output)',
        '2:beta\n',
      ])
      expect(reminders(agent).map((r) => [r.afterCall, r.text, summary(r)])).toEqual([
        [3, rereadText(2), 'bash × 2 (reread)'],
        [4, rereadText(3, `\`bash {"command":"grep -n beta ${file}"}\``), 'bash × 2 (reread)'],
        [6, rereadText(2, `\`bash {"command":"cat ${file} | grep -n beta"}\``), 'bash × 2 (reread)'],
      ])
      expect(reminders(agent)[0]!.text).toBe(
        'Reminder: this call returned exactly what the same call returned ' +
          '2 calls ago, and no call between them changed anything. ' +
          'You already had this result: work from it instead of asking again, or ask something new.',
      )
    },
  )

  it(
    "rereads with dsh's read tool: a read again after a search is reminded; " +
      'coming back after reading another file is navigation',
    async () => {
      const dir = await folder()
      await writeFile(join(dir, 'b.txt'), 'gamma\n')
      const a = join(dir, 'a.txt')
      const agent = await runBash(
        turns(read(a), bash(`grep -c beta ${a}`), read(a), read(join(dir, 'b.txt')), read(a)),
        {
          rereads: true,
        },
      )
      const results = toolResults(agent)
      expect(results[0]![0]).toBe(false)
      expect(results[0]![1]).toContain('beta')
      expect(results[0]).toEqual(results[2])
      expect(results[2]).toEqual(results[4])
      expect(reminders(agent).map((r) => [r.afterCall, r.text, summary(r)])).toEqual([
        [3, rereadText(2), 'read × 2 (reread)'],
      ])
    },
  )

  it('rereads: a rerun of a command not known to only read is no reread, with only reads between', async () => {
    const dir = await folder()
    const run = bash(`sh -c 'cat ${join(dir, 'a.txt')} | wc -l'`)
    const script = turns(run, bash(`head -1 ${join(dir, 'a.txt')}`), run)
    const agent = await runBash(script, { rereads: true })
    expect(toolResults(agent).map(([, text]) => text)).toEqual(['2\n', 'alpha\n', '2\n'])
    expect(reminders(agent)).toEqual([])
  })

  it.each([
    ['an escaped -de\\lete', '-de\\lete', true, []],
    ["a quoted $'-delete'", "$'-delete'", true, []],
    ['a plain -print (the control)', '-print', false, [[4, rereadText(2), 'bash × 2 (reread)']]],
  ])(
    'rereads: find with %s, run by real bash, deletes or not, and only a find that reads is reread',
    async (_, action, deletes, expected) => {
      const dir = await folder()
      await writeFile(join(dir, 'b.log'), 'log\n')
      const find = bash(`find ${dir} -name '*.log' ${action}`)
      const agent = await runBash(turns(find, find, bash(`ls ${dir}`), find), { rereads: true })
      const results = toolResults(agent).map(([, text]) => text)
      expect(results[2]).toBe(deletes ? 'a.txt\n' : 'a.txt\nb.log\n')
      // Calls 2 and 4 return the same, with only a listing between: a reread, had the command only read.
      expect(results[3]).toBe(results[1])
      expect(reminders(agent).map((r) => [r.afterCall, r.text, summary(r)])).toEqual(expected)
    },
  )

  it('rereads: a process read twice while a job runs is no reread: processes change by themselves', async () => {
    const dir = await folder()
    const release = join(dir, 'release')
    // This test's own process: what ps shows of it stays the same, whatever else starts and ends meanwhile.
    const count = bash(`ps -o comm= -p ${process.pid}`)
    const script: Script = (request, index) => {
      if (index === 0) return { calls: [background(`while [ ! -e ${release} ]; do sleep 0.02; done`)] }
      if (index === 1) return { calls: [count] }
      if (index === 2) return { calls: [bash(`ls ${dir}`)] }
      if (index === 3) return { calls: [count] }
      return finish(request, index, release)
    }
    const agent = await runJobs(script, { rereads: true })
    const results = toolResults(agent).map(([, text]) => text)
    expect(results[1]).toBe(results[3])
    expect(reminders(agent)).toEqual([])
  })

  it('rereads: a state setter called twice with a read between is no reread: it is no read', async () => {
    const todos = { name: 'todo_write', args: { todos: [{ content: 'look', status: 'in_progress' }] } }
    const dir = await folder()
    const agent = await runBash(turns(todos, bash(`ls ${dir}`), todos), { rereads: true })
    expect(toolResults(agent).map(([, text]) => text)).toEqual(['todos updated', 'a.txt\n', 'todos updated'])
    expect(reminders(agent)).toEqual([])
  })

  it('rereads: two other commands that both come back empty are no reread; the same command twice is', async () => {
    const dir = await folder()
    const file = join(dir, 'a.txt')
    const grep = bash(`grep zeta ${file} || true`)
    const script = turns(grep, bash(`ls ${dir}`), bash(`cat ${file} | grep zeta || true`), bash(`ls ${dir}`), grep)
    const agent = await runBash(script, { rereads: true })
    expect(toolResults(agent).map(([, text]) => text)).toEqual([
      '(no output)',
      'a.txt\n',
      '(no output)',
      'a.txt\n',
      '(no output)',
    ])
    expect(reminders(agent).map((r) => [r.afterCall, r.text, summary(r)])).toEqual([
      [4, rereadText(2), 'bash × 2 (reread)'],
      [5, rereadText(4), 'bash × 2 (reread)'],
    ])
  })

  it('rereads: a job read twice with a read between is no reread: the busy-poll rule judges job reads', async () => {
    const dir = await folder()
    const release = join(dir, 'release')
    const script: Script = (request, index) => {
      if (index === 0) return { calls: [background(`while [ ! -e ${release} ]; do sleep 0.02; done`)] }
      const job = /started background job ([\w-]+)/.exec(JSON.stringify(request.messages))![1]!
      const read: ScriptedCall = { name: 'job_output', args: { job_id: job } }
      if (index === 1 || index === 3) return { calls: [read] }
      if (index === 2) return { calls: [bash(`ls ${dir}`)] }
      return finish(request, index, release)
    }
    const agent = await runJobs(script, { rereads: true, readOnlyTools: ['job_output', 'read'] })
    const results = toolResults(agent).map(([, text]) => text)
    expect(results[1]).toBe('(no new output)\n[status: running]')
    expect(results[3]).toBe(results[1])
    expect(reminders(agent)).toEqual([])
  })

  it(
    'sameFailure: the same error from other arguments is reminded from ' +
      'the third call, quoting the error and counting the calls',
    async () => {
      const fail = (item: number) => bash(`echo "error: quota exceeded" >&2; exit 3 # item ${item}`)
      const agent = await runBash(turns(fail(1), fail(2), fail(3), fail(4), fail(5)), {
        thresholds: [2, 4],
        sameFailure: true,
      })
      const error = '[stderr]\nerror: quota exceeded\n[exit code: 3]'
      expect(toolResults(agent).map(([, text]) => text)).toEqual(Array.from({ length: 5 }, () => error))
      expect(reminders(agent).map((r) => [r.afterCall, r.text, summary(r)])).toEqual([
        [3, failureReminder('bash', 3, error), 'bash × 3 (same failure)'],
        [5, failureReminder('bash', 5, error), 'bash × 5 (same failure)'],
      ])
      expect(reminders(agent)[0]!.text).toBe(
        'Reminder: your last 3 calls to `bash` failed with the same error, whatever their arguments:\n' +
          `${error}\n` +
          'Another call like them will fail the same way. Read the error and ' +
          'deal with its cause, or take a different approach.',
      )
      expect(reminders(await runBash(turns(fail(1), fail(2), fail(3)), { thresholds: [2, 4] }))).toEqual([])
    },
  )

  it(
    'sameFailure with blockAt: a retry of the last failed item runs, and its result is withheld with the ' +
      'failure text, never one that claims identical arguments',
    async () => {
      const download = (item: string) => bash(`echo "error: quota exceeded" >&2; exit 3 # download ${item}`)
      const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
      const agent = await runBash(turns(...items.map(download), download('h')), {
        thresholds: [2, 4, 7],
        sameFailure: true,
        blockAt: 8,
      })
      const error = '[stderr]\nerror: quota exceeded\n[exit code: 3]'
      const results = toolResults(agent).map(([, text]) => text)
      expect(results.slice(0, 8)).toEqual(Array.from({ length: 8 }, () => error))
      expect(results[8]).toBe(withheldFailureFeedback('bash', 9, error))
      expect(results[8]).toBe(
        'Result withheld by repeat-tool-reminder: your last 9 calls to `bash` failed with the same error, whatever ' +
          `their arguments:\n${error}\nThis call failed the same way; its result is not shown again. Deal with the ` +
          'cause of the error, or take a different approach, before calling it again.',
      )
    },
  )

  it('sameFailure: a success ends the run of failures, the same call or not, and is never quoted', async () => {
    const item = (name: string, ok = false) =>
      bash(ok ? `echo "downloaded ${name}" # c` : `echo "error: quota exceeded" >&2; exit 3 # ${name}`)
    const agent = await runBash(turns(item('a'), item('b'), item('c'), item('c', true), item('d')), {
      thresholds: [2, 3],
      sameFailure: true,
    })
    expect(toolResults(agent).map(([, text]) => text)[3]).toBe('downloaded c\n')
    const error = '[stderr]\nerror: quota exceeded\n[exit code: 3]'
    expect(reminders(agent).map((r) => [r.afterCall, r.text])).toEqual([[3, failureReminder('bash', 3, error)]])
  })

  it(
    'maskNoise: a rerun whose output differs only in its process id and ' + 'clock time repeats under resultAware',
    async () => {
      const call = bash('echo "pid $$ finished at $(date +%H:%M:%S)"')
      const masked = await runBash(turns(call, call), { thresholds: [2], resultAware: true, maskNoise: true })
      const outputs = toolResults(masked).map(([, text]) => text)
      expect(outputs[0]).not.toBe(outputs[1])
      expect(reminders(masked).map((r) => [r.afterCall, r.text])).toEqual([[2, shortReminder({ sameResults: true })]])
      expect(reminders(await runBash(turns(call, call), { thresholds: [2], resultAware: true }))).toEqual([])
    },
  )
})

describe("replaying sessions recorded with dsh's bash tool, in other words", () => {
  it(
    '--suggest without labels judges maskNoise by the one measure: reruns whose output differs in noise ' +
      'did not return the same result, and the rule is not recommended for them',
    async () => {
      const call = bash('echo "pid $$ finished at $(date +%H:%M:%S)"')
      const root = await writeSessions('none', [
        {
          id: 'noise',
          script: turns(call, call, call, call, call),
          setup: async (ctx) => {
            await mountBash(ctx)
          },
        },
      ])
      const advice = (await runReplayJson([root, '--suggest'])).report.suggestions!
      expect(advice.filter((s) => s.recommended).map((s) => [s.name, s.onRepeatedResults, s.onChangedResults])).toEqual(
        [['thresholds 5, 7, 10', 0, 1]],
      )
      expect(advice[0]).toMatchObject({ onRepeatedResults: 0, onChangedResults: 2 })
      expect(advice.find((s) => s.name === 'resultAware, maskNoise')).toMatchObject({
        onRepeatedResults: 0,
        onChangedResults: 2,
      })
    },
  )

  it('replay --rereads reproduces the live reminders of rereads recorded with the defaults', async () => {
    const dir = await folder()
    const file = join(dir, 'a.txt')
    const script = turns(
      bash(`grep -n beta ${file}`),
      bash(`ls ${dir}`),
      bash(`grep -n beta ${file}`),
      bash(`cat ${file} | grep -n beta`),
    )
    const root = await writeSessions('none', [
      {
        id: 'rereads',
        script,
        setup: async (ctx) => {
          await mountBash(ctx)
        },
      },
    ])
    const { report } = await runReplayJson([root, '--rereads'])
    expect(report.sessions[0]!.configReminders.map((r) => r.afterCall)).toEqual([3, 4])
    // Without labels, --suggest judges a reread by the one measure every candidate is judged by: a result that
    // repeats with nothing new seen since. The `ls` between told the model something new, so the same call's
    // result again (call 3) lands after new output, and so does the same answer to other words (call 4).
    const advice = (await runReplayJson([root, '--suggest'])).report.suggestions!
    expect(advice.find((s) => s.name === 'rereads')).toMatchObject({ onRepeatedResults: 0, onChangedResults: 2 })
    expect(advice.filter((s) => s.recommended).map((s) => s.name)).toEqual(['the config given (baseline)'])
  })
})
