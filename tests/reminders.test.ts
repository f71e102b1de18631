import { rejectedText } from '../src/rules/rejected.ts'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import type { PostToolDecision, ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import { NOTICE_KINDS, noticeKind, notice, readNotice } from '../src/reminders.ts'
import { cycleReminder } from '../src/rules/cycle.ts'
import { failureReminder, withheldFailureFeedback } from '../src/rules/failure.ts'
import { detailedPollReminder, shortPollReminder, withheldPollFeedback } from '../src/rules/poll.ts'
import { rereadText } from '../src/rules/reread.ts'
import { rerunText } from '../src/rules/rerun.ts'
import { detailedReminder, shortReminder } from '../src/rules/run.ts'
import { deniedBeforeRunning, withheldFeedback } from '../src/texts.ts'
import { type Kind, RULES, type Verdict } from '../src/rules/index.ts'
import type { RunVerdict } from '../src/rules/run.ts'
import { harness, injected, runAgent as run, requestContext } from '../support/harness.ts'
import type { ScriptedCall } from '../support/model.ts'
import { source, times, turns } from './support/calls.ts'

const GREP_X: ScriptedCall = { name: 'grep', args: { pattern: 'x', path: 'src' } }

describe('thresholds', () => {
  it('by default: short at 3, detailed at 5 and 8, then silent', async () => {
    const agent = await run(turns(...times(12, GREP_X)))
    expect(injected(agent)).toEqual([
      { afterCall: 3, text: shortReminder(), source: source('grep × 3') },
      { afterCall: 5, text: detailedReminder('grep', 5, '{"path":"src","pattern":"x"}'), source: source('grep × 5') },
      { afterCall: 8, text: detailedReminder('grep', 8, '{"path":"src","pattern":"x"}'), source: source('grep × 8') },
    ])
  })

  /** Every ```text block of a file, taken back to column 0 when it sits inside a list item. */
  const quotes = async (file: string) => {
    const text = await readFile(join(import.meta.dirname, '..', file), 'utf8')
    return [...text.matchAll(/^( *)```text\n([\s\S]*?)^ *```$/gm)].map(([, indent, body]) =>
      body!.replace(new RegExp(`^${indent}`, 'gm'), '').trimEnd(),
    )
  }
  const count = '<count>' as unknown as number
  const back = '<n>' as unknown as number

  it.each([
    ['README.md', 'docs/opt-ins.md'],
    ['README.zh.md', 'docs/opt-ins.zh.md'],
  ])('the texts are exactly what %s and %s quote, and each quote is a text', async (readme, optIns) => {
    const fromReadme = await quotes(readme)
    expect(fromReadme).toEqual([
      shortReminder(),
      detailedReminder('<tool>', count, '<canonical arguments, at most argumentsPreviewChars, then … (N more chars)>'),
    ])
    const fromOptIns = await quotes(optIns)
    const cycle = cycleReminder(
      [
        { tool: '<tool>', preview: '<canonical arguments>' },
        { tool: '<tool>', preview: '<canonical arguments>' },
      ],
      count,
    )
    expect(fromOptIns).toEqual([
      shortPollReminder('<job id>'),
      detailedPollReminder('<job id>', count, '<canonical arguments>'),
      cycle.replace('sequence of 2 tool calls', 'sequence of <n> tool calls'),
      withheldFeedback(['<tool>'], count),
      withheldFeedback(['<tool>'], count, { ran: false }),
      failureReminder('<tool>', count, '<the error, its last 200 characters at most>'),
      withheldFailureFeedback('<tool>', count, '<the error, its last 200 characters at most>'),
      rereadText(back),
      rereadText(back, '`<tool> <canonical arguments>`'),
      rerunText(back),
      rejectedText('<tool>', back, 'user', 'the user rejected tool "<tool>"'),
    ])
  })

  it('a withheld failure says whether the call ran, as every withheld result does, and replay reads which', () => {
    const denied = withheldFailureFeedback('bash', 3, 'boom', { ran: false })
    expect(denied).toBe(
      'Result withheld by repeat-tool-reminder: your last 3 calls to `bash` failed with the same error, whatever ' +
        'their arguments:\nboom\nThis time the call was not run, so whatever it does has not happened again. Deal ' +
        'with the cause of the error, or take a different approach, before calling it again.',
    )
    expect([deniedBeforeRunning(denied), deniedBeforeRunning(withheldFailureFeedback('bash', 3, 'boom'))]).toEqual([
      true,
      false,
    ])
  })

  it('the texts, word for word', () => {
    expect(shortReminder()).toBe(
      'Reminder: you are repeating the exact same tool call with identical arguments. ' +
        'Study its last result. If the task is not done, change your approach ' +
        'or your arguments instead of making the same call again.',
    )
    expect(detailedReminder('grep', 5, '{"pattern":"x"}')).toBe(
      'Reminder: you have called `grep` 5 times in a row with identical arguments:\n' +
        '{"pattern":"x"}\n' +
        'These repeats are making no progress. Do not call this tool with these exact arguments again. ' +
        'Inspect the latest result and choose a different action or different ' +
        'arguments, or finish if you already have enough evidence.',
    )
  })

  it('thresholds are normalized ascending and the short text follows the first one: [4, 2]', async () => {
    const agent = await run(turns(...times(6, GREP_X)), { thresholds: [4, 2] })
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([
      [2, shortReminder()],
      [4, detailedReminder('grep', 4, '{"path":"src","pattern":"x"}')],
    ])
  })

  it('a single threshold gives only the short reminder', async () => {
    const agent = await run(turns(...times(6, GREP_X)), { thresholds: [2] })
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([[2, shortReminder()]])
  })

  it('canonical arguments sort keys deeply in code-unit order', async () => {
    const args = { z: 1, B: { y: [{ b: 1, a: 2 }, [], 3], x: null }, a: 'é', é: true, _: false }
    const agent = await run(turns(...times(3, { name: 'grep', args })), { thresholds: [2, 3] })
    expect(injected(agent)[1]?.text).toBe(
      detailedReminder('grep', 3, '{"B":{"x":null,"y":[{"a":2,"b":1},[],3]},"_":false,"a":"é","z":1,"é":true}'),
    )
  })

  it('the preview is the head of the canonical arguments, with the rest counted', async () => {
    const agent = await run(turns(...times(3, { name: 'grep', args: { pattern: 'abcdefghij' } })), {
      thresholds: [2, 3],
      argumentsPreviewChars: 10,
    })
    expect(injected(agent)[1]?.text).toBe(detailedReminder('grep', 3, '{"pattern"… (14 more chars)'))
  })

  it('arguments exactly as long as the cap are quoted whole', async () => {
    const agent = await run(turns(...times(3, { name: 'grep', args: { p: 'abc' } })), {
      thresholds: [2, 3],
      argumentsPreviewChars: 11,
    })
    expect(injected(agent)[1]?.text).toBe(detailedReminder('grep', 3, '{"p":"abc"}'))
  })

  it('the preview never splits a surrogate pair', async () => {
    const agent = await run(turns(...times(3, { name: 'grep', args: { p: '😀😀' } })), {
      thresholds: [2, 3],
      argumentsPreviewChars: 7,
    })
    expect(injected(agent)[1]?.text).toBe(detailedReminder('grep', 3, '{"p":"… (6 more chars)'))
  })

  it('the preview cap bounds only the text: calls that differ past the cap are different', async () => {
    const head = 'x'.repeat(50)
    const calls = [`${head}1`, `${head}2`, `${head}1`].map((pattern) => ({
      calls: [{ name: 'grep', args: { pattern } }],
    }))
    const agent = await run(calls, { thresholds: [2], argumentsPreviewChars: 10 })
    expect(injected(agent)).toEqual([])
  })

  it('a long tool name keeps the summary within the harness bound', async () => {
    const tool = `t${'o'.repeat(200)}l`
    const agent = await run(turns(...times(2, { name: tool, args: {} })), { thresholds: [2] })
    const summary = (injected(agent)[0]!.source as { summary: string }).summary
    expect(summary.length).toBeLessThanOrEqual(120)
    expect(summary.startsWith('tooo')).toBe(true)
  })
})

describe('delivery', () => {
  it('the reminder reaches the next model request right after the tool result', async () => {
    const h = await harness(turns(...times(3, GREP_X)), { thresholds: [3] })
    const { agent } = await h.agent()
    await h.prompt(agent)
    expect(h.model.requests.map(requestContext)).toEqual([[], [], [], [shortReminder()]])
    const last = h.model.requests[3]!.messages
    expect(last.at(-2)?.source).toEqual({ kind: 'tool', callId: 'call-3-1' })
    expect(last.at(-1)).toMatchObject({
      role: 'user',
      source: source('grep × 3'),
      content: [{ type: 'text', text: shortReminder() }],
    })
  })

  it('the tool result itself is never changed', async () => {
    const h = await harness(turns(...times(3, GREP_X)), { thresholds: [2, 3] })
    const { agent } = await h.agent()
    await h.prompt(agent)
    const results = agent.session.events.filter((e) => e.type === 'tool/result').map((e) => e.data.message.content)
    expect(results).toEqual(
      ['call-1-1', 'call-2-1', 'call-3-1'].map((toolCallId) => [
        { type: 'tool-result', toolCallId, content: [{ type: 'text', text: 'no match for x' }], isError: false },
      ]),
    )
  })

  it.each<[string, PostToolDecision]>([
    ['an accept with contexts', { kind: 'accept' }],
    ['an accept that replaces content', { kind: 'accept', content: [{ type: 'text', text: 'redacted' }] }],
    ['an accept that replaces the value', { kind: 'accept', value: [{ type: 'text', text: 'replaced' }] }],
    ['a block with feedback', { kind: 'block', feedback: [{ type: 'text', text: 'blocked by policy' }] }],
  ])('%s downstream keeps its kind, payload and contexts; the reminder goes first', async (_label, downstream) => {
    const h = await harness(turns(...times(2, GREP_X)), { thresholds: [2] })
    const seen: ToolExecutionResult[] = []
    h.ctx.on('tools/post-execute', async (exec) => {
      const note = createUserMessage({
        content: [{ type: 'text', text: `note ${exec.callId}` }],
        source: { kind: 'plugin', plugin: 'policy' },
      })
      return { ...downstream, additionalContexts: [note] } as PostToolDecision
    })
    h.ctx.on('tools/result', (_exec, result) => {
      seen.push(result)
    })
    const { agent } = await h.agent()
    await h.prompt(agent)
    expect(injected(agent).map((r) => [r.afterCall, r.text])).toEqual([
      [1, 'note call-1-1'],
      [2, shortReminder()],
      [2, 'note call-2-1'],
    ])
    const payload =
      downstream.kind === 'block'
        ? downstream.feedback
        : 'content' in downstream
          ? downstream.content
          : 'value' in downstream
            ? downstream.value
            : undefined
    const expected = payload ?? [{ type: 'text', text: 'no match for x' }]
    expect(seen.map((r) => r.content)).toEqual([expected, expected])
    expect(seen.map((r) => r.isError)).toEqual([downstream.kind === 'block', downstream.kind === 'block'])
  })
})

describe('a notice read back as replay reads it: the writer and the reader agree', () => {
  const call = (tool: string) => ({ tool, args: { p: 1 }, ignored: [], outcome: undefined })
  const base = { run: 3, length: 3, measured: 3, complete: true, resumed: false }
  const run = (extra: Partial<RunVerdict> = {}): RunVerdict => {
    const grep = call('grep')
    return { kind: 'run', call: grep, calls: [grep], ...base, ...extra }
  }
  const read = (verdict: Verdict, first: boolean) => {
    const message = notice(verdict, { first, cap: 500 })
    return readNotice((message.source as { summary: string }).summary, message.content)
  }
  const job = call('job_output')
  const fetch = call('fetch')

  it.each<[string, Verdict, boolean, ReturnType<typeof readNotice>]>([
    ['a short reminder', run(), true, { tools: ['grep'], kind: 'run', detailed: false }],
    ['a detailed reminder', run({ length: 5 }), false, { tools: ['grep'], kind: 'run', detailed: true }],
    [
      'a short one on repeated results, resumed',
      run({ calls: [{ ...call('grep'), outcome: { isError: false, content: [] } }], resumed: true }),
      true,
      { tools: ['grep'], kind: 'run', detailed: false },
    ],
    [
      'a cycle',
      { kind: 'cycle', calls: [call('grep'), call('read_file')], ...base, length: 2 },
      true,
      { tools: ['grep', 'read_file'], kind: 'cycle', detailed: true },
    ],
    [
      "a busy poll's short reminder",
      { kind: 'poll', call: job, calls: [job], ...base, job: 'bash-1' },
      true,
      { tools: ['job_output'], kind: 'poll', detailed: false },
    ],
    [
      "a busy poll's detailed reminder",
      { kind: 'poll', call: job, calls: [job], ...base, job: 'bash-1', length: 6 },
      false,
      { tools: ['job_output'], kind: 'poll', detailed: true },
    ],
    [
      'a failure run',
      { kind: 'failure', call: fetch, calls: [fetch], ...base, error: 'quota' },
      true,
      { tools: ['fetch'], kind: 'failure', detailed: true },
    ],
    [
      'a reread',
      { kind: 'reread', call: fetch, calls: [fetch], ...base, length: 2, back: 3, otherWords: undefined },
      true,
      { tools: ['fetch'], kind: 'reread', detailed: false },
    ],
  ])('%s', (_label, verdict, first, expected) => {
    expect(read(verdict, first)).toEqual(expected)
  })

  it('how replay files each: a run by its text, any other kind by its kind', () => {
    const filed = (kind: Kind, detailed: boolean) => noticeKind({ tools: [], kind, detailed })
    expect([filed('run', false), filed('run', true), filed('poll', false), filed('reread', true)]).toEqual([
      'short',
      'detailed',
      'poll',
      'reread',
    ])
    // Each kind once, in the registry's order: an identical run's two texts first, then every other kind.
    expect(NOTICE_KINDS.slice(0, 2)).toEqual(['short', 'detailed'])
    expect(NOTICE_KINDS.slice(2)).toEqual(
      [...new Set(RULES.map((entry) => entry.kind))].filter((kind) => kind !== 'run'),
    )
  })

  it("a summary's tools: before the last ×, split at the arrows; a summary without × is all tool", () => {
    expect(readNotice('a × b → c × 2', []).tools).toEqual(['a × b', 'c'])
    expect(readNotice('grep', []).tools).toEqual(['grep'])
    expect(
      readNotice('grep × 3', [
        { type: 'image', mediaType: 'image/png', data: 'AA' },
        { type: 'text', text: 7 },
      ] as never),
    ).toEqual({ tools: ['grep'], kind: 'run', detailed: false })
  })

  it("a kind's mark read anywhere but at the end is no mark", () => {
    expect(readNotice('grep (busy poll) × 3', []).kind).toBe('run')
  })
})

describe('busy polls, in words', () => {
  it('the texts, word for word', () => {
    expect(shortPollReminder('bash-3')).toBe(
      'Reminder: background job `bash-3` is still running, and you keep ' +
        'reading it without waiting: each read only shows that it has not finished. ' +
        'dsh tells you in this session when it finishes. Until then, work ' +
        'on steps that do not need it, or, if you are blocked on it, read ' +
        'it once with `wait: true`.',
    )
    expect(detailedPollReminder('bash-3', 6, '{"job_id":"bash-3"}')).toBe(
      'Reminder: you have read background job `bash-3` 6 times in a row ' +
        'while it is still running, and no read has shown it finished:\n' +
        '{"job_id":"bash-3"}\n' +
        "Stop polling it: dsh announces the job's completion in this session, and wakes you for it if you are idle. " +
        'Work on steps that do not depend on it; if you cannot go on without ' +
        'its result, call `job_output` with `wait: true` (and `timeout_ms` ' +
        'for a bound) instead of reading it again. ' +
        'Use `job_kill` if it no longer matters.',
    )
    expect(withheldPollFeedback('bash-3', 9)).toBe(
      'Result withheld by repeat-tool-reminder: you have read background ' +
        'job `bash-3` 9 times in a row while it is still running. ' +
        'The read did run, but its output is not shown: the job has not finished. ' +
        'dsh announces its completion in this session; ' +
        'work on other steps until then, or read it once with `wait: true` if you are blocked on it.',
    )
  })

  it('resumed after other calls (relapse), they do not say "in a row"', () => {
    expect(shortPollReminder('j', { resumed: true })).toContain(
      'without waiting, coming back to it after other calls: each read',
    )
    expect(detailedPollReminder('j', 6, '{}', { resumed: true })).toContain(
      '6 times, coming back to it after other calls, while it is still running',
    )
    expect(withheldPollFeedback('j', 9, { resumed: true })).toContain(
      '9 times, coming back to it after other calls, while',
    )
  })
})
