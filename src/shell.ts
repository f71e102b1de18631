/**
 * What a `bash` command does, judged by an allowlist: it only reads when every
 * command in it is a known reader of files and folders and every option it
 * gives is known to only read, and no redirection writes; then it asks a
 * question (its operands, whatever the commands and flags around them). The
 * command is read by a small lexer, in one pass, linear in its length: plain
 * words, quotes and escapes, pipelines and lists, and redirections to a file.
 * Anything else (an expansion, a substitution, a subshell, a function, a
 * background job, a here-document whose body expands anything) proves nothing,
 * and such a command counts as one that may change anything. So does any
 * command or option not on the list: what is not known to only read may write.
 * Synchronous, no dependencies, nothing kept between calls.
 */
import { options, READERS } from './readers.ts'

/** The tool whose `command` argument is a shell command: dsh's `bash`. */
export const SHELL_TOOL = 'bash'

/**
 * What a judged command is: whether it only reads, and (for one that does) its question: its
 * operands, sorted, one per line.
 */
export interface Command {
  readOnly: boolean
  question: string
  /**
   * The files it writes, when it changes nothing else: through redirections and `sed -i`; undefined
   * when it may change anything.
   */
  writes: string[] | undefined
  /**
   * Whether it only shows files' content (every command a viewer such as `cat`, `head` or `sed
   * -n`): a reread of it is most often navigation.
   */
  view: boolean
  /** The files its viewers show: their operands but for `sed`'s script and plain numbers. */
  files: string[]
}

/** The commands that show files' content rather than answer a question. */
const FILE_VIEWERS = new Set(['cat', 'head', 'tail', 'nl', 'sed'])

/**
 * The commands that show content rather than answer a question: the file viewers, and commands that
 * show nothing of a file.
 */
const VIEWERS = new Set([...FILE_VIEWERS, 'cd', 'echo'])

/**
 * The longest command judged, in characters: a read is a line or two. A longer
 * one proves nothing, as one the lexer does not read whole.
 */
export const LONGEST_COMMAND = 16_384

/**
 * The most simple commands judged in one command: a read is a pipeline of a few. A longer list
 * proves nothing, so that a command of thousands of pipes costs no more than one of a hundred.
 */
export const MOST_COMMANDS = 100

/** One simple command as the lexer reads it: its words, quotes removed, and where it redirects output. */
interface Simple {
  words: string[]
  /** The files its redirections write. */
  writes: string[]
  /** The files its redirections read (`< file`). */
  reads: string[]
}

/**
 * What `command` is; undefined for a command longer than
 * {@link LONGEST_COMMAND} or one the lexer does not read whole. Every
 * command in it counts, in pipelines and lists alike.
 */
export function shellCommand(command: string): Command | undefined {
  if (command.length > LONGEST_COMMAND) return undefined
  const simples = lex(command)
  if (simples === undefined) return undefined
  const operands = new Set<string>()
  let readOnly = true
  let view = true
  let known = true
  const written: string[] = []
  const files: string[] = []
  for (const { words, writes, reads } of simples) {
    const [name, ...args] = words as [string, ...string[]]
    const judged = judge(name, args)
    for (const operand of [...judged.operands, ...reads]) operands.add(operand)
    readOnly &&= judged.reads && writes.length === 0
    view &&= VIEWERS.has(name)
    if (FILE_VIEWERS.has(name)) files.push(...judged.shown)
    written.push(...writes)
    if (!judged.reads) {
      if (judged.edits === undefined) known = false
      else written.push(...judged.edits)
    }
  }
  return {
    readOnly,
    question: [...operands].sort().join('\n'),
    view: readOnly && view,
    files,
    writes: known ? written : undefined,
  }
}

/** One simple command judged: whether it only reads, its operands, the files it shows, and the files `sed -i` edits. */
interface Judged {
  reads: boolean
  operands: string[]
  shown: string[]
  /** For `sed -i` with a script that only edits: the files it edits; otherwise undefined. */
  edits: string[] | undefined
}

/** One simple command judged against the allowlist. */
function judge(name: string, args: readonly string[]): Judged {
  const reader = READERS.get(name)
  const read = reader === undefined ? undefined : options(reader, args)
  const operands = read?.operands ?? args.filter((a) => !a.startsWith('-'))
  // A viewer's files: its operands but for sed's script (its first, unless given with -e) and plain numbers.
  const files = read?.files ?? operands
  const shown = files.filter((a) => !/^\d+$/.test(a))
  if (read === undefined || !read.ok) return { reads: false, operands, shown, edits: undefined }
  if (read.edits) return { reads: false, operands, shown, edits: read.files }
  return { reads: true, operands, shown, edits: undefined }
}

/** What starts an expansion after `$`: a name, a digit, a special parameter, a brace, a paren or a quote. */
const EXPANSION = /[A-Za-z0-9_{(@*#?$!'"-]/

/** What a double-quoted string's reading stops at: its end, an escape, an expansion. */
const SPECIAL_QUOTED = /["\\$`]/g

/** The same inside double quotes, where `$"` is a dollar sign and the closing quote. */
const QUOTED_EXPANSION = /[A-Za-z0-9_{(@*#?$!-]/

/** A run of characters that stand for themselves outside quotes (at least one, whatever it is). */
const PLAIN = /.[^ \t\n;|&<>'"\\$`(){}#]*/suy

/** Characters that end a word outside quotes. */
const BREAKS = new Set([' ', '\t', '\n', ';', '|', '&', '<', '>'])

/** Characters that open syntax the lexer does not read: a substitution, a subshell or group, brace expansion. */
const UNREAD = new Set(['`', '(', ')', '{', '}'])

/**
 * The simple commands of `source`, in order; undefined where it uses syntax
 * the lexer does not read (see the module comment). One pass over the text.
 */
function lex(source: string): Simple[] | undefined {
  const commands: Simple[] = []
  let current: Simple = { words: [], writes: [], reads: [] }
  /** The word being read, quotes removed, and whether one is open (an empty quoted word is a word). */
  let word = ''
  let open = false
  /** Whether the word being read is still plain: no quote nor escape yet, so that `2>` is a descriptor's. */
  let plain = true
  /** Where the next word goes: a command's words, or a redirection's target (whether it writes). */
  let target: Target = 'word'
  /** Whether the command that ends next must have words: after `|`, `&&` and `||`. */
  let needed = false
  /** The here-documents whose bodies start at the next line, in order. */
  let pending: HereDocument[] = []
  const end = (): void => {
    if (!open) return
    if (target === 'word') current.words.push(word)
    else if (target === 'document' || target === 'tabbed document')
      pending.push({ delimiter: word, literal: !plain, tabbed: target === 'tabbed document' })
    else if (target === 'read') current.reads.push(word)
    else if (target === 'write' || (target === 'descriptor' && !/^(\d+|-)$/.test(word))) {
      if (word !== '/dev/null') current.writes.push(word)
    }
    target = 'word'
    word = ''
    open = false
    plain = true
  }
  /** Close the command in hand; `next` says whether another must follow (a pipe or `&&`). */
  const close = (next: boolean): boolean => {
    if (target !== 'word' || commands.length >= MOST_COMMANDS) return false
    if (current.words.length === 0) {
      if (needed || next || current.writes.length > 0) return false
    } else commands.push(current)
    current = { words: [], writes: [], reads: [] }
    needed = next
    return true
  }
  let i = 0
  while (i < source.length) {
    const c = source[i]!
    if (open || !BREAKS.has(c)) {
      if (c === "'") {
        const closing = source.indexOf("'", i + 1)
        if (closing < 0) return undefined
        word += source.slice(i + 1, closing)
        open = true
        plain = false
        i = closing + 1
        continue
      }
      if (c === '"') {
        const quoted = doubleQuoted(source, i + 1)
        if (quoted === undefined) return undefined
        word += quoted.text
        open = true
        plain = false
        i = quoted.end
        continue
      }
      if (c === '\\') {
        if (i + 1 >= source.length) return undefined
        if (source[i + 1] !== '\n') {
          word += source[i + 1]
          open = true
          plain = false
        }
        i += 2
        continue
      }
      if (c === '$' && EXPANSION.test(source[i + 1] ?? '')) return undefined
      if (UNREAD.has(c)) return undefined
      if (c === '#' && !open) {
        const newline = source.indexOf('\n', i)
        i = newline < 0 ? source.length : newline
        continue
      }
      if (BREAKS.has(c)) {
        // A plain number against a redirection is its descriptor (`2>err`); any other word ends there.
        if ((c === '>' || c === '<') && plain && /^\d+$/.test(word)) {
          word = ''
          open = false
        } else end()
        continue
      }
      // A run of plain characters at once: a long word costs one slice, not one concatenation a character.
      PLAIN.lastIndex = i
      PLAIN.test(source)
      word += source.slice(i, PLAIN.lastIndex)
      open = true
      i = PLAIN.lastIndex
      continue
    }
    // A break outside a word: a blank, a separator or a redirection.
    if (c === ' ' || c === '\t') {
      i++
      continue
    }
    if (c === '\n' || c === ';') {
      if (source[i + 1] === ';' || !close(false)) return undefined
      i++
      // The here-documents of the line just ended: their bodies are the lines that follow.
      if (c === '\n') {
        for (const document of pending) {
          const after = body(source, i, document)
          if (after === undefined) return undefined
          i = after
        }
        pending = []
      }
      continue
    }
    if (c === '|') {
      if (!close(true)) return undefined
      i += source[i + 1] === '|' || source[i + 1] === '&' ? 2 : 1
      continue
    }
    if (c === '&') {
      if (source[i + 1] === '&') {
        if (!close(true)) return undefined
        i += 2
        continue
      }
      // `&>` and `&>>` write stdout and stderr to a file; a lone `&` starts a background job.
      if (source[i + 1] !== '>' || target !== 'word') return undefined
      i += source[i + 2] === '>' ? 3 : 2
      target = 'write'
      continue
    }
    const redirection = redirect(source, i)
    if (redirection === undefined || target !== 'word') return undefined
    i = redirection.end
    target = redirection.target
  }
  end()
  if (!close(false) || needed || pending.length > 0) return undefined
  return commands.length === 0 ? undefined : commands
}

/**
 * Where a word goes: a command's words, or a redirection's operand: a file it writes or reads, a
 * descriptor (or, when not a number, a file it writes), a here-string.
 */
type Target = 'word' | 'write' | 'read' | 'descriptor' | 'string' | 'document' | 'tabbed document'

/** A here-document to read: its delimiter, whether it was quoted (its body is then literal), and `<<-`'s tabs. */
interface HereDocument {
  delimiter: string
  literal: boolean
  tabbed: boolean
}

/**
 * Past the body of a here-document that starts at `from`: where the line after its delimiter
 * starts; undefined when no line ends it, or when a body that is not literal may expand something.
 */
function body(source: string, from: number, { delimiter, literal, tabbed }: HereDocument): number | undefined {
  for (let at = from; ; ) {
    const newline = source.indexOf('\n', at)
    const end = newline < 0 ? source.length : newline
    const line = tabbed ? source.slice(at, end).replace(/^\t+/, '') : source.slice(at, end)
    if (line === delimiter) return end + 1
    if ((!literal && /[$`\\]/.test(line)) || newline < 0) return undefined
    at = newline + 1
  }
}

/** The redirection operator at `at`: where its operand goes, and where the operator ends. */
function redirect(source: string, at: number): { target: Target; end: number } | undefined {
  const next = source[at + 1]
  if (source[at] === '>') {
    if (next === '(') return undefined
    if (next === '>' || next === '|') return { target: 'write', end: at + 2 }
    if (next === '&') return { target: 'descriptor', end: at + 2 }
    return { target: 'write', end: at + 1 }
  }
  // `<`: a file read; `<<<` a string; `<<` and `<<-` a here-document; `<&` a descriptor; `<>` and `<(` are not read.
  if (next === '<') {
    const third = source[at + 2]
    if (third === '<') return { target: 'string', end: at + 3 }
    return third === '-' ? { target: 'tabbed document', end: at + 3 } : { target: 'document', end: at + 2 }
  }
  if (next === '&') return { target: 'descriptor', end: at + 2 }
  if (next === '>' || next === '(') return undefined
  return { target: 'read', end: at + 1 }
}

/**
 * A double-quoted string from `from` (after its opening quote): its text, escapes resolved, and
 * where it ends; undefined when it is not closed or expands anything.
 */
function doubleQuoted(source: string, from: number): { text: string; end: number } | undefined {
  // Most strings hold no escape and no dollar sign: their text is what stands between the quotes.
  const closing = source.indexOf('"', from)
  if (closing < 0) return undefined
  const plain = source.slice(from, closing)
  if (!/[\\$`]/.test(plain)) return { text: plain, end: closing + 1 }
  let text = ''
  let i = from
  for (;;) {
    SPECIAL_QUOTED.lastIndex = i
    const found = SPECIAL_QUOTED.exec(source)
    if (found === null) return undefined
    text += source.slice(i, found.index)
    i = found.index
    const c = found[0]
    if (c === '"') return { text, end: i + 1 }
    if (c === '`' || (c === '$' && QUOTED_EXPANSION.test(source[i + 1] ?? ''))) return undefined
    const next = source[i + 1]
    if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
      if (next !== '\n') text += next
      i += 2
    } else {
      text += c
      i++
    }
  }
}
