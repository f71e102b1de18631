import { describe, expect, it } from 'vitest'
import { isEmpty } from '../src/failures.ts'
import { jobStatus, maskLocators, outcome, sameOutcome, waitsOn } from '../src/results.ts'

const SPILL = (locator: string) =>
  `head\n…\ntail\n\n(Omitted 14306 bytes. Full formatted result stored ` +
  `at: ${locator}. Use read with offset/limit, or grep this path to ` +
  `search within it.)`

describe("dsh's locators, masked", () => {
  it.each<[string, string, string]>([
    [
      "the spill policy's notice",
      SPILL('/tmp/s/session-1/df99-bash.txt'),
      'head\n…\ntail\n\n(Omitted 14306 bytes. Full formatted result stored at: )',
    ],
    [
      "glob's notice",
      'a.ts\nb.ts\n\n(Showing 2 of 9 paths. Full sorted result stored at: /tmp/x-glob.txt. Use read.)',
      'a.ts\nb.ts\n\n(Showing 2 of 9 paths. Full sorted result stored at: )',
    ],
    [
      "grep's notice",
      'a.ts\n  Line 1: x\n\n(Full grep result stored at: /tmp/x-grep.txt. Use read.)',
      'a.ts\n  Line 1: x\n\n(Full grep result stored at: )',
    ],
    [
      "bash's cut stream",
      '19999\n20000\n[output truncated; full output: /tmp/d/dsh-subprocess-1-ab-stdout.log]\n[exit code: 1]',
      '19999\n20000\n[output truncated; full output: ]\n[exit code: 1]',
    ],
    [
      'a cut stream at the end',
      'x\n[output truncated; full output: (unavailable)]',
      'x\n[output truncated; full output: ]',
    ],
    [
      'both streams cut',
      'o\n[output truncated; full output: /a]\n[stderr]\ne\n[output truncated; full output: /b]',
      'o\n[output truncated; full output: ]\n[stderr]\ne\n[output truncated; full output: ]',
    ],
    [
      'a background read that lost output',
      'tail\n[some output was dropped from memory; full output: /a.log, /b.log]',
      'tail\n[some output was dropped from memory; full output: ]',
    ],
    ['a background start', 'started background job bash-7', 'started background job '],
    ['a notice that is the whole text', ' result stored at: /s/x.txt. Use read.)', ' result stored at: )'],
    ['a marker with nothing but its bracket', '[output truncated; full output: ]', '[output truncated; full output: ]'],
    [
      "bash's marker inside a spilled result",
      '1\n[output truncated; full output: /a]\n[exit code: 1]\n\n(Omitted ' +
        '9 bytes. Full formatted result stored at: /s. Use read.)',
      '1\n[output truncated; full output: ]\n[exit code: 1]\n\n(Omitted 9 bytes. Full formatted result stored at: )',
    ],
  ])('%s', (_label, text, masked) => {
    expect(maskLocators(text)).toBe(masked)
  })

  it('two results that differ only in their locators mask to the same text; any other difference stays', () => {
    expect(maskLocators(SPILL('/tmp/a'))).toBe(maskLocators(SPILL('/tmp/b')))
    expect(maskLocators(SPILL('/tmp/a').replace('14306', '14307'))).not.toBe(maskLocators(SPILL('/tmp/b')))
  })

  it.each<[string, string]>([
    ['no locator at all', 'FAIL test_retry\n[exit code: 1]'],
    ['a notice that does not end the text', '(Full grep result stored at: /a.txt. Use read.)\nmore'],
    ['a notice not closed by a parenthesis', 'x (Full grep result stored at: /a.txt'],
    ['a marker line that does not end with ]', '[output truncated; full output: /a and more\nnext'],
    ['a marker whose ] is on the next line', '[output truncated; full output: \n]'],
    ['a background start with more lines', 'started background job bash-7\nand more'],
    ['a background start not at the start', 'I started background job bash-7'],
    ['one line that ends with a parenthesis but holds no notice', 'all tests passed (12)'],
  ])('left as it is: %s', (_label, text) => {
    expect(maskLocators(text)).toBe(text)
  })

  it('a bad marker line before a good one: the good one is masked, the bad one kept', () => {
    expect(maskLocators('[output truncated; full output: /a x\n[output truncated; full output: /b]')).toBe(
      '[output truncated; full output: /a x\n[output truncated; full output: ]',
    )
  })

  it('an outcome keeps its error flag and non-text blocks, and its content object when nothing is masked', () => {
    const plain = [{ type: 'text' as const, text: 'ok' }]
    expect(outcome('bash', {}, false, plain).content).toBe(plain)
    const image = { type: 'image' as const, mediaType: 'image/png', data: 'AA' }
    const spilled = [image, { type: 'text' as const, text: SPILL('/x') }, { type: 'text' as const, text: 'kept' }]
    const masked = outcome('bash', {}, true, spilled as never)
    expect(masked).toEqual({
      isError: true,
      content: [image, { type: 'text', text: maskLocators(SPILL('/x')) }, { type: 'text', text: 'kept' }],
    })
    expect((masked.content as unknown[])[0]).toBe(image)
    expect(spilled[1]).toEqual({ type: 'text', text: SPILL('/x') })
  })

  it('only text blocks are masked: another block that carries a text field is compared as it is', () => {
    const reasoning = [{ type: 'reasoning', text: 'started background job 7' }]
    expect(outcome('bash', {}, false, reasoning as never).content).toBe(reasoning)
  })

  it(
    'a megabyte of markers and near-markers: each one handled in one ' +
      'pass (a scan that started over at each would not finish here)',
    () => {
      const near = '[output truncated; full output: x\n'.repeat(30_000)
      expect(maskLocators(near)).toBe(near)
      const many = '[output truncated; full output: /a]\n'.repeat(30_000)
      expect(maskLocators(many)).toBe('[output truncated; full output: ]\n'.repeat(30_000))
    },
  )
})

describe("a read of a background job: its outcome is the job's status while it runs", () => {
  const text = (t: string) => [{ type: 'text' as const, text: t }]

  it.each<[string, string, string | undefined]>([
    ['running', 'compiling 3/9\n[status: running]', 'running'],
    ['no new output', '(no new output)\n[status: running]', 'running'],
    ['stopping', '(no new output)\n[status: stopping]', 'stopping'],
    ['a status with a detail', 'done\n[status: failed, exit code 2]', 'failed'],
    ['a detail with no status before it', 'x\n[status: , odd]', ''],
    ['a truncated read', '…tail\n[output truncated]\n[status: running]', 'running'],
    ['the status line alone', '[status: completed]', 'completed'],
    ['a status the job printed, then more output', '[status: running]\nstill going', undefined],
    ['a status line not closed', 'x\n[status: running', undefined],
    ['no status line', 'plain output', undefined],
    [
      'a spilled read: the status line before the spill notice',
      'xx…xx\n[status: running]\n\n(Omitted 12000 bytes. Full formatted ' +
        'result stored at: spill://s/1. Read it with read.)',
      'running',
    ],
    [
      'a spilled read of a finished job',
      'xx\n[status: completed, exit code: 0]\n\n(Omitted 9 bytes. Full formatted result stored at: x. y)',
      'completed',
    ],
    [
      'a notice after one line break only, after a line that would read as a status one character shorter',
      'x\n[status: running]]\n(Omitted 9 bytes. Full formatted result stored at: x. y)',
      undefined,
    ],
    [
      'a notice after one line break only is the last line itself',
      'x\n[status: running]\n(Omitted 9 bytes. Full formatted result stored at: x. y)',
      undefined,
    ],
    ['a last line in parentheses that is no spill notice', 'x\n[status: running]\n\n(no new output)', undefined],
    [
      'a notice line not closed',
      'x\n[status: running]\n\n(Omitted 9 bytes. Full formatted result stored at: x. y',
      undefined,
    ],
    [
      'a notice line that does not open with a parenthesis',
      'x\n[status: running]\n\nOmitted 9 bytes. Full formatted result stored at: x. y)',
      undefined,
    ],
    ['a spill notice alone', '(Omitted 9 bytes. Full formatted result stored at: x. y)', undefined],
  ])('%s', (_label, body, status) => {
    expect(jobStatus(text(body))).toBe(status)
  })

  it('only a result of one text block has a status', () => {
    expect(jobStatus([])).toBeUndefined()
    expect(jobStatus([...text('[status: running]'), ...text('[status: running]')])).toBeUndefined()
    expect(jobStatus([{ type: 'image', mediaType: 'image/png', data: 'AA' }] as never)).toBeUndefined()
    expect(jobStatus([null] as never)).toBeUndefined()
    expect(jobStatus([{ type: 'text', text: 7 }] as never)).toBeUndefined()
    expect(jobStatus([{ type: 'reasoning', text: 'x\n[status: running]' }] as never)).toBeUndefined()
  })

  it(
    'two non-blocking reads of a running job are the same outcome, whatever ' +
      'output each brought; a change of status is a new one',
    () => {
      const read = (body: string) => outcome('job_output', { job_id: 'bash-1' }, false, text(body))
      expect(read('step 1\n[status: running]')).toEqual({ isError: false, content: undefined, running: 'running' })
      expect(sameOutcome(read('step 1\n[status: running]'), read('step 2\n[status: running]'))).toBe(true)
      expect(sameOutcome(read('step 1\n[status: running]'), read('(no new output)\n[status: stopping]'))).toBe(false)
      expect(sameOutcome(read('killing\n[status: stopping]'), read('(no new output)\n[status: stopping]'))).toBe(true)
      expect(sameOutcome(read('step 1\n[status: running]'), read('done\n[status: completed]'))).toBe(false)
      expect(read('done\n[status: completed]')).toEqual({ isError: false, content: text('done\n[status: completed]') })
      expect(
        sameOutcome(read('(no new output)\n[status: completed]'), read('(no new output)\n[status: completed]')),
      ).toBe(true)
    },
  )

  it('a read that waits is never the same outcome as another; an error and another tool are read as any result', () => {
    const waited = outcome(
      'job_output',
      { job_id: 'bash-1', wait: true },
      false,
      text('(no new output)\n[status: running]'),
    )
    expect(waited).toEqual({ isError: false, content: undefined, waited: true })
    expect(sameOutcome(waited, waited)).toBe(false)
    expect(sameOutcome(undefined, waited)).toBe(false)
    expect(sameOutcome(waited, undefined)).toBe(false)
    expect(sameOutcome(undefined, undefined)).toBe(true)
    expect(outcome('job_output', { job_id: 'bash-1', wait: 'yes' }, false, text('x\n[status: running]')).running).toBe(
      'running',
    )
    expect(outcome('job_output', 'raw', false, text('x\n[status: running]')).running).toBe('running')
    expect(outcome('job_output', { job_id: 'bash-1' }, true, text('x\n[status: running]'))).toEqual({
      isError: true,
      content: text('x\n[status: running]'),
    })
    expect(outcome('bash', { command: 'cat log' }, false, text('x\n[status: running]'))).toEqual({
      isError: false,
      content: text('x\n[status: running]'),
    })
  })
})

describe('a poll turned into a wait', () => {
  it.each<[string, [string, unknown, string, unknown], boolean]>([
    [
      'the same job, then with wait: true',
      ['job_output', { job_id: 'j' }, 'job_output', { job_id: 'j', wait: true }],
      true,
    ],
    ['another job', ['job_output', { job_id: 'j' }, 'job_output', { job_id: 'k', wait: true }], false],
    [
      'a read that waited already',
      ['job_output', { job_id: 'j', wait: true }, 'job_output', { job_id: 'j', wait: true }],
      false,
    ],
    ['a next read that does not wait', ['job_output', { job_id: 'j' }, 'job_output', { job_id: 'j' }], false],
    ['another tool first', ['bash', { job_id: 'j' }, 'job_output', { job_id: 'j', wait: true }], false],
    ['another tool next', ['job_output', { job_id: 'j' }, 'bash', { job_id: 'j', wait: true }], false],
    ['arguments that are no object', ['job_output', 'raw', 'job_output', { job_id: 'j', wait: true }], false],
    ['next arguments that are no object', ['job_output', { job_id: 'j' }, 'job_output', 'raw'], false],
  ])('%s', (_label, [tool, args, nextTool, nextArgs], expected) => {
    expect(waitsOn(tool, args, nextTool, nextArgs)).toBe(expected)
  })
})

describe('an empty outcome: weak evidence that two calls asked one question', () => {
  const text = (t: string) => ({ isError: false, content: [{ type: 'text' as const, text: t }] })
  it.each([
    '',
    '  \n',
    '(no output)',
    '<returncode>1</returncode>\n<output>\n</output>',
    '<returncode>12</returncode><output></output>',
  ])('%j is empty', (t) => {
    expect(isEmpty(text(t))).toBe(true)
  })

  it('no block at all is empty; a word, an image or a running job read is not', () => {
    expect(isEmpty({ isError: false, content: [] })).toBe(true)
    expect(isEmpty(text('0'))).toBe(false)
    expect(isEmpty(text('<returncode>0</returncode>\n<output>\nx\n</output>'))).toBe(false)
    expect(isEmpty(text('<returncode>0</returncode>\n<output>\n</output>x'))).toBe(false)
    expect(isEmpty(text('x <returncode>0</returncode><output></output>'))).toBe(false)
    expect(isEmpty({ isError: false, content: [{ type: 'image', data: 'x', mimeType: 'image/png' }] })).toBe(false)
    expect(isEmpty({ isError: false, content: undefined, running: 'running' })).toBe(false)
  })
})
