/**
 * The small lexer that reads a `bash` command, in one pass, linear in its
 * length: plain words, quotes and escapes, pipelines and lists, redirections
 * to a file, and here-documents whose body cannot expand anything. Anything
 * else proves nothing: {@link lex} gives up on it.
 */
import { body, doubleQuoted, type HereDocument, redirect, type Target } from './syntax.ts'

/**
 * The most simple commands judged in one command: a read is a pipeline of a few. A longer list
 * proves nothing, so that a command of thousands of pipes costs no more than one of a hundred.
 */
export const MOST_COMMANDS = 100

/**
 * The most words read in one command, redirection targets counted: a read names a few files. More
 * prove nothing, so that a command of thousands of words costs no more than one of a few hundred.
 */
export const MOST_WORDS = 256

/** One simple command: its words, quotes removed, and its redirections; shared, so read only. */
export interface Simple {
  readonly words: readonly string[]
  /** The files its redirections write. */
  readonly writes: readonly string[]
  /** The files its redirections read (`< file`). */
  readonly reads: readonly string[]
  /**
   * Whether a word of it starts with a glob (`*`, `?x`, `[-]x`), which may expand to a file named
   * like an option (`-delete`, `-i`).
   */
  readonly globbed?: true
}

/** A simple command while the lexer reads it. */
type Reading = { words: string[]; writes: string[]; reads: string[]; globbed?: true }

/** What starts a word that may expand to an option: an unquoted glob character. */
const GLOB_START = /^[*?[]/

/**
 * What starts an expansion after `$`: a name, a digit, a special parameter, a brace, a paren, a quote,
 * or a bracket (`$[…]`, the old arithmetic expansion).
 */
const EXPANSION = /[A-Za-z0-9_{(@*#?$!'"[-]/

/** A run of characters that stand for themselves outside quotes (at least one, whatever it is). */
const PLAIN = /.[^ \t\n;|&<>'"\\$`(){}#]*/suy

/** Characters that end a word outside quotes. */
const BREAKS = new Set([' ', '\t', '\n', ';', '|', '&', '<', '>'])

/** Characters that open syntax the lexer does not read: a substitution, a subshell or group, brace expansion. */
const UNREAD = new Set(['`', '(', ')', '{', '}'])

/** The command lexed last and what it gave: every rule that asks about one call's command shares one pass. */
let latest: { source: string; simples: readonly Simple[] | undefined } | undefined

/**
 * The simple commands of `source`, in order; undefined where it uses syntax
 * the lexer does not read (see the module comment), or where it holds more
 * than {@link MOST_COMMANDS} commands or {@link MOST_WORDS} words. One pass
 * over the text; the same text again, as the next rule asks, is not read
 * again, so the commands given are shared and never changed by those who ask.
 */
export function lex(source: string): readonly Simple[] | undefined {
  if (latest?.source !== source) latest = { source, simples: new Lexer(source).run() }
  return latest.simples
}

/** One pass of the lexer over a command: where it is, the word and command in hand, what is still open. */
class Lexer {
  private readonly source: string
  private readonly commands: Reading[] = []
  private current: Reading = { words: [], writes: [], reads: [] }
  /** The word being read, quotes removed, and whether one is open (an empty quoted word is a word). */
  private word = ''
  private open = false
  /** Whether the word being read is still plain: no quote nor escape yet, so that `2>` is a descriptor's. */
  private plain = true
  /** Whether the word being read starts with an unquoted glob character. */
  private glob = false
  /** Where the next word goes: a command's words, or a redirection's target (whether it writes). */
  private target: Target = 'word'
  /** Whether the command that ends next must have words: after `|`, `&&` and `||`. */
  private needed = false
  /** The here-documents whose bodies start at the next line, in order. */
  private pending: HereDocument[] = []
  /** Where the pass is. */
  private i = 0
  /** The words read so far, redirection targets counted. */
  private words = 0

  constructor(source: string) {
    this.source = source
  }

  run(): readonly Simple[] | undefined {
    const { source } = this
    while (this.i < source.length) {
      const c = source.charAt(this.i)
      if (!(this.open || !BREAKS.has(c) ? this.inWord(c) : this.between(c))) return undefined
    }
    if (!this.end() || !this.close(false) || this.needed || this.pending.length > 0) return undefined
    return this.commands.length === 0 ? undefined : this.commands
  }

  /** One step in a word, or at its start; false where the lexer does not read on. */
  private inWord(c: string): boolean {
    const { source, i } = this
    if (c === "'") {
      const closing = source.indexOf("'", i + 1)
      if (closing === -1) return false
      this.quoted(source.slice(i + 1, closing), closing + 1)
      return true
    }
    if (c === '"') {
      const quoted = doubleQuoted(source, i + 1)
      if (quoted === undefined) return false
      this.quoted(quoted.text, quoted.end)
      return true
    }
    if (c === '\\') {
      if (i + 1 >= source.length) return false
      if (source[i + 1] === '\n') this.i += 2
      else this.quoted(source.charAt(i + 1), i + 2)
      return true
    }
    if ((c === '$' && EXPANSION.test(source[i + 1] ?? '')) || UNREAD.has(c)) return false
    if (c === '#' && !this.open) {
      const newline = source.indexOf('\n', i)
      this.i = newline === -1 ? source.length : newline
    } else if (BREAKS.has(c)) {
      // A plain number against a redirection is its descriptor (`2>err`); any other word ends there.
      if ((c === '>' || c === '<') && this.plain && /^\d+$/.test(this.word)) {
        this.word = ''
        this.open = false
      } else if (!this.end()) return false
    } else {
      // A run of plain characters at once: a long word costs one slice, not one concatenation a character.
      PLAIN.lastIndex = i
      PLAIN.test(source)
      const run = source.slice(i, PLAIN.lastIndex)
      if (!this.open) this.glob = GLOB_START.test(run)
      this.word += run
      this.open = true
      this.i = PLAIN.lastIndex
    }
    return true
  }

  /** Add quoted or escaped text to the word, which is then no longer plain, and go on at `next`. */
  private quoted(text: string, next: number): void {
    this.word += text
    this.open = true
    this.plain = false
    this.i = next
  }

  /** One step at a break outside a word: a blank, a separator or a redirection; false where it does not read on. */
  private between(c: string): boolean {
    const { source, i } = this
    if (c === ' ' || c === '\t') {
      this.i++
      return true
    }
    if (c === '\n' || c === ';') return this.separator(c)
    if (c === '|') {
      if (!this.close(true)) return false
      this.i += source[i + 1] === '|' || source[i + 1] === '&' ? 2 : 1
      return true
    }
    if (c === '&') return this.ampersand()
    // A redirection's operand must come before another operator: `> >f` and `<>` are not read.
    if (this.target !== 'word') return false
    const redirection = redirect(source, i)
    this.i = redirection.end
    this.target = redirection.target
    return true
  }

  /** A line's end or `;`: the command ends, and after a line the bodies of its here-documents follow. */
  private separator(c: string): boolean {
    const { source } = this
    if (source[this.i + 1] === ';' || !this.close(false)) return false
    this.i++
    // The here-documents of the line just ended: their bodies are the lines that follow.
    if (c === '\n') {
      for (const document of this.pending) {
        const after = body(source, this.i, document)
        if (after === undefined) return false
        this.i = after
      }
      this.pending = []
    }
    return true
  }

  /** `&&` ends a command that another must follow; `&>` and `&>>` write stdout and stderr to a file. */
  private ampersand(): boolean {
    const { source, i } = this
    if (source[i + 1] === '&') {
      if (!this.close(true)) return false
      this.i += 2
      return true
    }
    // A lone `&` starts a background job.
    if (source[i + 1] !== '>' || this.target !== 'word') return false
    this.i += source[i + 2] === '>' ? 3 : 2
    this.target = 'write'
    return true
  }

  /** End the word in hand, if one is open: it goes where the target says; false past {@link MOST_WORDS} words. */
  private end(): boolean {
    if (!this.open) return true
    const { word, target, current } = this
    if (target === 'word') {
      this.words++
      current.words.push(word)
      // `[` alone is the test command.
      if (this.glob && word !== '[') current.globbed = true
    } else if (target === 'document' || target === 'tabbed document')
      this.pending.push({ delimiter: word, literal: !this.plain, tabbed: target === 'tabbed document' })
    else if (target === 'read') {
      this.words++
      current.reads.push(word)
    } else if ((target === 'write' || (target === 'descriptor' && !/^(\d+|-)$/.test(word))) && word !== '/dev/null') {
      this.words++
      current.writes.push(word)
    }
    this.target = 'word'
    this.word = ''
    this.open = false
    this.plain = true
    this.glob = false
    return this.words <= MOST_WORDS
  }

  /** Close the command in hand; `next` says whether another must follow (a pipe or `&&`). */
  private close(next: boolean): boolean {
    if (this.target !== 'word' || this.commands.length >= MOST_COMMANDS) return false
    if (this.current.words.length === 0) {
      if (this.needed || next || this.current.writes.length > 0) return false
    } else this.commands.push(this.current)
    this.current = { words: [], writes: [], reads: [] }
    this.needed = next
    return true
  }
}
