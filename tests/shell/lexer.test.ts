import { describe, expect, it } from 'vitest'
import { lex, MOST_WORDS, type Simple } from '../../src/shell/lexer.ts'

/** A simple command as the lexer gives it. */
const simple = (words: string[], writes: string[] = [], reads: string[] = []): Simple => ({ words, writes, reads })

describe('lex: the simple commands of a bash command', () => {
  it.each<[string, Simple[]]>([
    // Blanks: spaces and tabs between words, anywhere.
    ['ls\t-la', [simple(['ls', '-la'])]],
    ['cat \tf', [simple(['cat', 'f'])]],
    ['cat\t\tf', [simple(['cat', 'f'])]],
    // A backslash escapes the next character; before a newline it joins the lines.
    ['echo a\\ b', [simple(['echo', 'a b'])]],
    ['ls \\\n-la', [simple(['ls', '-la'])]],
    // A plain number against a redirection is its descriptor, whatever the operator and however long.
    ['2>/dev/null ls', [simple(['ls'])]],
    ['cat 0<in', [simple(['cat'], [], ['in'])]],
    ['cat 10>x', [simple(['cat'], ['x'])]],
    // Any other word before it is a word: one with a letter, or one quoted.
    ['cat a2>x', [simple(['cat', 'a2'], ['x'])]],
    ['cat 2a>x', [simple(['cat', '2a'], ['x'])]],
    ['cat "2">x', [simple(['cat', '2'], ['x'])]],
    // `>&` takes a descriptor, `-` to close one; any other word is a file written; `<&` likewise.
    ['ls >&2', [simple(['ls'])]],
    ['ls >&10', [simple(['ls'])]],
    ['ls >&-', [simple(['ls'])]],
    ['ls >&a2', [simple(['ls'], ['a2'])]],
    ['ls >&2a', [simple(['ls'], ['2a'])]],
    ['cat <&f', [simple(['cat'], ['f'])]],
    ['ls &>f', [simple(['ls'], ['f'])]],
    ['ls &>>f', [simple(['ls'], ['f'])]],
    // Pipes and lists: `|`, `|&`, `||`, `&&`, `;` and newlines, with or without blanks.
    ['cat f|grep x', [simple(['cat', 'f']), simple(['grep', 'x'])]],
    ['cat f||grep x', [simple(['cat', 'f']), simple(['grep', 'x'])]],
    ['ls;\nls', [simple(['ls']), simple(['ls'])]],
    // A here-document's body follows the line that opens it, not a `;`.
    ['cat <<E; echo x\nbody\nE', [simple(['cat']), simple(['echo', 'x'])]],
    // A plain `<<` keeps a tabbed line in the body; `<<-` strips every leading tab, and only leading ones.
    ['cat <<E\n\tE\nE', [simple(['cat'])]],
    ['cat <<-E\n\t\tE', [simple(['cat'])]],
    ['cat <<-E\nE\t\nE', [simple(['cat'])]],
    // In double quotes an escaped quote is part of the word; the text before it is no string of its own.
    ['grep "\\" f" g', [simple(['grep', '" f', 'g'])]],
    ['grep "a\\x" f', [simple(['grep', 'a\\x', 'f'])]],
  ])('%j is %j', (command, commands) => {
    expect(lex(command)).toEqual(commands)
  })

  it.each([
    // Syntax it does not read: a subshell, a group, brace expansion; any paren or brace, opening or closing.
    'cat x(',
    'cat {a,b}',
    'cat {a',
    'cat a}',
    // A background job, and an operator where a redirection's operand should be.
    'ls & cat f',
    'ls > &>f',
    'ls >(cat)',
    'cat <(ls)',
    'cat <> f',
    // A command that ends in a redirection with no operand, or that is nothing but a redirection.
    'cat f; ls >',
    '> f; ls',
    // A double-quoted string that is never closed, whatever it ends with.
    'grep "a\\',
    'grep "a$',
  ])('%j proves nothing', (command) => {
    expect(lex(command)).toBeUndefined()
  })

  it(`reads at most ${MOST_WORDS} words, redirection targets counted, and gives up at the next`, () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ')
    expect(lex(words(MOST_WORDS))?.[0]?.words).toHaveLength(MOST_WORDS)
    // The word past the bound, at the end of the command or before more of it.
    expect(lex(words(MOST_WORDS + 1))).toBeUndefined()
    expect(lex(`${words(MOST_WORDS + 1)} | cat "unclosed`)).toBeUndefined()
    expect(lex(`${words(MOST_WORDS - 2)} < in > out`)).toEqual([
      simple(words(MOST_WORDS - 2).split(' '), ['out'], ['in']),
    ])
    expect(lex(`${words(MOST_WORDS - 1)} < in > out`)).toBeUndefined()
    expect(lex(`${words(MOST_WORDS)} > out`)).toBeUndefined()
    // Nothing written to /dev/null, and no here-document's delimiter, is a word.
    expect(lex(`${words(MOST_WORDS)} > /dev/null`)).toHaveLength(1)
    expect(lex(`${words(MOST_WORDS)} <<'E'\nbody\nE`)).toHaveLength(1)
  })

  it('the same text again is not read again: its commands are shared; another text is read', () => {
    const first = lex('cat a | grep x')
    expect(lex('cat a | grep x')).toBe(first)
    expect(lex('cat b')).toEqual([simple(['cat', 'b'])])
    expect(lex('cat a | grep x')).not.toBe(first)
    expect(lex('cat a | grep x')).toEqual(first)
  })
})
