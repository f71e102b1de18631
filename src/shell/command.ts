/**
 * What a `bash` command does, judged by an allowlist: it only reads when every
 * command in it is a known reader of files and folders and every option it
 * gives is known to only read, and no redirection writes; then it asks a
 * question (its operands, whatever the commands and flags around them). The
 * command is read by a small lexer (`lexer.ts`), in one pass, linear in its length.
 * Anything else (an expansion, a substitution, a subshell, a function, a
 * background job, a here-document whose body expands anything) proves nothing,
 * and such a command counts as one that may change anything. So does any
 * command or option not on the list: what is not known to only read may write.
 * Synchronous, no dependencies, nothing kept between calls.
 */
import { isRecord } from '../values.ts'
import { lex, type Simple } from './lexer.ts'
import { options } from './options.ts'
import { READERS } from './readers.ts'

/** The tool whose `command` argument is a shell command: dsh's `bash`. */
export const SHELL_TOOL = 'bash'

/**
 * The command of a call and the folder it runs in, when the call is `bash` with a command that runs
 * now; undefined otherwise. One run in the background only starts a job: its answer is the job's id.
 */
export function shellArguments(tool: string, args: unknown): { command: string; workdir: unknown } | undefined {
  if (tool !== SHELL_TOOL || !isRecord(args) || startsJob(tool, args)) return undefined
  const { command, workdir } = args
  return typeof command === 'string' ? { command, workdir } : undefined
}

/** Whether a call is `bash` run in the background (`run_in_background: true`): it starts a job. */
export function startsJob(tool: string, args: unknown): boolean {
  return tool === SHELL_TOOL && isRecord(args) && args.run_in_background === true
}

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
  /**
   * For a command that only reads, the paths it may read: its operands, the files its redirections
   * read, and `.` for a command that reads its folder (`ls`, `find -name x`).
   */
  paths: string[]
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
 * What `command` is; undefined for a command longer than
 * {@link LONGEST_COMMAND}, or one the lexer does not read whole (of more than
 * `MOST_WORDS` words, too). Every command in it counts, in pipelines and lists alike.
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
  let folder = false
  // Whether a `cd` came before: a relative path after it is in a folder not known.
  let moved = false
  for (const simple of simples) {
    const [name] = simple.words
    const judged = judge(simple)
    readOnly &&= judged.reads && simple.writes.length === 0
    // The question is asked only by a command that only reads, whose every command is on the list.
    if (readOnly) for (const operand of [...judged.operands!, ...simple.reads]) operands.add(operand)
    folder ||= judged.folder === true
    view &&= VIEWERS.has(name as string)
    // The file viewers are all on the list.
    if (FILE_VIEWERS.has(name as string)) files.push(...judged.shown!)
    const writes = judged.edits === undefined ? simple.writes : [...simple.writes, ...judged.edits]
    if (moved && writes.some((path) => !path.startsWith('/'))) known = false
    written.push(...writes)
    if (!judged.reads && judged.edits === undefined) known = false
    moved ||= name === 'cd'
  }
  return {
    readOnly,
    question: [...operands].sort().join('\n'),
    view: readOnly && view,
    files,
    writes: known ? written : undefined,
    paths: folder ? [...operands, '.'] : [...operands],
  }
}

/**
 * One simple command judged: whether it only reads; for a command on the list, its operands and the
 * files it shows; and the files `sed -i` edits.
 */
interface Judged {
  reads: boolean
  operands?: string[]
  shown?: string[]
  /** For `sed -i` with a script that only edits: the files it edits; otherwise undefined. */
  edits: string[] | undefined
  /** Whether it reads its folder besides its operands. */
  folder?: boolean
}

/**
 * One simple command judged against the allowlist. A word that may expand to an option proves
 * nothing. (Whether a path it reads is `/proc`, `/sys` or `/dev` is judged with its call's folder.)
 */
function judge({ words, globbed }: Simple): Judged {
  const [name, ...args] = words as [string, ...string[]]
  const reader = READERS.get(name)
  // A command not on the list may do anything: it asks nothing and shows nothing.
  if (reader === undefined) return { reads: false, edits: undefined }
  const read = options(reader, args)
  const { operands, folder } = read
  // A viewer's files: its operands but for sed's script (its first, unless given with -e) and plain numbers.
  const shown = (read.files ?? operands).filter((a) => !/^\d+$/.test(a))
  if (!read.ok || globbed === true) return { reads: false, operands, shown, edits: undefined }
  if (read.edits) return { reads: false, operands, shown, edits: read.files }
  return { reads: true, operands, shown, edits: undefined, folder: folder === true }
}
