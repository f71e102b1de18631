import { describe, expect, it } from 'vitest'
import { failed, failureText } from '../src/failures.ts'

const text = (t: string) => [{ type: 'text' as const, text: t }]

describe('failed: a result that says its call failed with an error to show', () => {
  it.each<[string, boolean, unknown[], boolean]>([
    ['dsh bash, a nonzero exit with output', false, text('boom\n[exit code: 1]'), true],
    ['dsh bash, a nonzero exit with no output', false, text('(no output)\n[exit code: 1]'), false],
    [
      'dsh bash, a sandbox denial and its marker lines',
      false,
      text('cp: denied\n[sandbox: file access denied under workspace mode]'),
      true,
    ],
    ['dsh bash, markers only', false, text('[timed out after 5ms]\n[killed by signal: SIGTERM]'), false],
    ['dsh bash, a success', false, text('fine'), false],
    ['an error result', true, text('quota exceeded'), true],
    ['an error result with an empty text', true, text('  '), false],
    ['an error result without text', true, [{ type: 'image', data: 'x', mimeType: 'image/png' }], true],
    ['an error result without content', true, [], false],
    [
      'mini-swe-agent, a nonzero return code with output',
      false,
      text('<returncode>2</returncode>\n<output>\nTraceback\n</output>'),
      true,
    ],
    [
      'mini-swe-agent, a nonzero return code with no output',
      false,
      text('<returncode>1</returncode>\n<output>\n</output>'),
      false,
    ],
    ['mini-swe-agent, return code 0', false, text('<returncode>0</returncode>\n<output>\nok\n</output>'), false],
    [
      'mini-swe-agent, a two-digit return code',
      false,
      text('<returncode>16</returncode>\n<output>\nlint\n</output>'),
      true,
    ],
    ['mini-swe-agent, no output tag, no white space', false, text('<returncode>1</returncode>boom'), true],
    [
      'mini-swe-agent, no output but a line feed after it',
      false,
      text('<returncode>1</returncode>\n<output>\n</output>\n'),
      false,
    ],
    ['a return code that does not open the text', false, text('log: <returncode>1</returncode> x'), false],
    ['a last block that is no text', false, [{ type: 'image', text: 'boom\n[exit code: 1]' }], false],
    ['a text block whose text is no string', false, [{ type: 'text', text: 5 }], false],
    ['markers alone, the first after a line feed', true, text('\n[exit code: 1]\n[killed by signal: SIGTERM]'), false],
    ['no output but spaces around it', true, text('  (no output)  \n[exit code: 1]'), false],
    ['nothing but spaces before the marker', true, text(' \n[exit code: 1]'), false],
    ['a last line in brackets that is no marker', false, text('out\nlist: [1, 2]'), false],
    ['a marker that does not close its bracket', false, text('out\n[exit code: 1'), false],
  ])('%s: %s', (_, isError, content, expected) => {
    expect(failed(isError, content as never)).toBe(expected)
  })

  it('an error is quoted by its end, from a line start, within 200 characters', () => {
    const long = `${'x'.repeat(300)}\nline two\nthe end`
    expect(failureText({ isError: true, content: text(long) })).toBe('…line two\nthe end')
    expect(failureText({ isError: true, content: text('y'.repeat(250)) })).toBe(`…${'y'.repeat(200)}`)
    expect(failureText({ isError: true, content: [{ type: 'image' }, ...text(' short ')] })).toBe('short')
    expect(failureText(undefined)).toBe('')
    expect(
      failureText({
        isError: true,
        content: [null, { type: 'image', text: 'img' }, { type: 'text', text: 5 }, ...text('err')],
      }),
    ).toBe('err')
    expect(failureText({ isError: true, content: [...text('first'), ...text('second')] })).toBe('first\nsecond')
    // 200 characters are quoted whole; a tail that starts a line is quoted from there.
    const exact = `${'a'.repeat(99)}\n${'b'.repeat(100)}`
    expect(failureText({ isError: true, content: text(exact) })).toBe(exact)
    expect(failureText({ isError: true, content: text(`${'x'.repeat(50)}\n${'y'.repeat(199)}`) })).toBe(
      `…${'y'.repeat(199)}`,
    )
  })
})
