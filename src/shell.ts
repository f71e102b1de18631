/**
 * What a `bash` command does, as far as a real shell parser can show: whether
 * it only reads (every command in it a known reader, no redirection that
 * writes), and the question it asks (its operands, whatever the commands and
 * flags around them). The parser is tree-sitter's bash grammar, run by
 * web-tree-sitter: loaded once per process by {@link loadShell}, about 35 ms,
 * and only then (a config without `rereads` never imports it);
 * until then, or for a command it cannot parse whole, nothing is proven, and
 * a command counts as one that may change what later calls read.
 */
import type { Node, Parser } from 'web-tree-sitter'
import { Problem } from './problem.ts'

/** The tool whose `command` argument is a shell command: dsh's `bash`. */
export const SHELL_TOOL = 'bash'

/**
 * What a parsed command is: whether it only reads, and (for one that does) its question: its
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
const FILE_VIEWERS = new Set(['cat', 'head', 'tail', 'nl', 'sed', 'less', 'more'])

/**
 * The commands that show content rather than answer a question: the file viewers, and commands that
 * show nothing of a file.
 */
const VIEWERS = new Set([...FILE_VIEWERS, 'cd', 'echo'])

/**
 * Where the grammar is: beside the built plugin (`lib/`), one folder up from
 * the bundled replay command (`lib/replay/`), or in the grammar's own package
 * while the package is developed from its sources.
 */
const GRAMMAR = [
  './tree-sitter-bash.wasm',
  '../tree-sitter-bash.wasm',
  '../node_modules/tree-sitter-bash/tree-sitter-bash.wasm',
].map((path) => new URL(path, import.meta.url))

let parser: Parser | undefined
let loading: Promise<void> | undefined

/**
 * Load the parser, once per process (from the first of `grammars` that exists); later calls share
 * the first load. Rejects when the grammar cannot be loaded.
 */
export function loadShell(grammars: readonly (string | URL)[] = GRAMMAR): Promise<void> {
  loading ??= (async () => {
    // Imported here, not at the top: a config without `rereads` never loads the parser, nor node:fs.
    const [{ Language, Parser }, { existsSync }, { fileURLToPath }] = await Promise.all([
      import('web-tree-sitter'),
      import('node:fs'),
      import('node:url'),
    ])
    await Parser.init()
    const paths = grammars.map((path) => (typeof path === 'string' ? path : fileURLToPath(path)))
    const grammar = paths.find((path) => existsSync(path))
    if (grammar === undefined) throw new Problem(`the bash grammar is missing (looked for ${paths.join(', ')})`)
    const loaded = new Parser()
    loaded.setLanguage(await Language.load(grammar))
    parser = loaded
  })()
  return loading
}

/**
 * Load the parser for the live plugin: a load that fails (a broken install)
 * is said once through `logger`, and every `bash` command then counts as one
 * that may change anything; it never rejects.
 */
export function loadShellOrWarn(
  logger: { warn(message: string): void },
  grammars: readonly (string | URL)[] = GRAMMAR,
): Promise<void> {
  return loadShell(grammars).catch((error: unknown) => {
    logger.warn(
      `rereads: the shell parser did not load, so no bash command counts as read-only: ${(error as Error).message}`,
    )
  })
}

/** The commands that only read, whatever their arguments; others have their own rule in {@link READERS}. */
const PLAIN_READERS = [
  'cat',
  'head',
  'tail',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ls',
  'wc',
  'nl',
  'cut',
  'tr',
  'file',
  'stat',
  'du',
  'df',
  'pwd',
  'echo',
  'printf',
  'tree',
  'diff',
  'cmp',
  'which',
  'type',
  'realpath',
  'readlink',
  'basename',
  'dirname',
  'true',
  'false',
  'test',
  'cd',
  'column',
  'od',
  'hexdump',
  'strings',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'printenv',
  'less',
  'more',
]

/** `git` subcommands that only read. */
const GIT_READERS = new Set<string | undefined>([
  'status',
  'diff',
  'log',
  'show',
  'blame',
  'grep',
  'ls-files',
  'ls-tree',
  'rev-parse',
  'describe',
  'shortlog',
  'cat-file',
])

/** `find` actions that write, delete or run a command. */
const FIND_WRITERS = new Set([
  '-delete',
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
])

/** Each known reader, and when its arguments keep it one. */
const READERS = new Map<string, (args: readonly string[]) => boolean>([
  ...PLAIN_READERS.map((name): [string, () => boolean] => [name, () => true]),
  // Not in place (-i, -i.bak, -ni, --in-place), and no `w` command or flag writing a file (`1,5w out`, `s/a/b/w out`).
  [
    'sed',
    (args) => args.every((a) => !(/^-[^-]*i/.test(a) || a.startsWith('--in-place') || /(^|[^a-zA-Z\\])w\s/.test(a))),
  ],
  ['sort', (args) => args.every((a) => !(/^-[^-]*o/.test(a) || a.startsWith('--output')))],
  // uniq's second operand is a file it writes.
  ['uniq', (args) => args.filter((a) => !a.startsWith('-')).length <= 1],
  ['find', (args) => args.every((a) => !FIND_WRITERS.has(a))],
  // awk can write (print > file), pipe to a command or run one: only a script with none of those.
  ['awk', (args) => args.every((a) => !/[>|]|system|getline/.test(a))],
  ['git', (args) => GIT_READERS.has(gitCommand(args))],
])

/** The files a viewer shows: its operands but for `sed`'s script (its first) and plain numbers (`head -n 15`). */
function shown(node: Node, name: string): string[] {
  const operands = node
    .childrenForFieldName('argument')
    .map((a) => word(a!))
    .filter((a) => !a.startsWith('-') && !/^\d+$/.test(a))
  return name === 'sed' ? operands.slice(1) : operands
}

/** The files a `sed -i` edits in place: its operands after the script; undefined for any other command. */
function editedInPlace(node: Node): string[] | undefined {
  if (node.childForFieldName('name')!.text !== 'sed') return undefined
  const args = node.childrenForFieldName('argument').map((a) => word(a!))
  const operands = args.filter((a) => !a.startsWith('-'))
  // The script is the first operand unless given with -e or -f.
  return args.some((a) => a === '-e' || a === '-f' || a.startsWith('--expression') || a.startsWith('--file'))
    ? undefined
    : operands.slice(1)
}

/** git's options that take the next word as their value (`git -C dir status`). */
const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace'])

/** The git subcommand among `args`: the first word that is no option nor an option's value; undefined for none. */
function gitCommand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (GIT_VALUED.has(args[i]!)) i++
    else if (!args[i]!.startsWith('-')) return args[i]
  }
  return undefined
}

/** Redirections that write to their destination; `>&` and `<&` with a number only copy a descriptor. */
const WRITES = new Set(['>', '>>', '&>', '&>>', '>|', '>&'])

/**
 * The longest command parsed, in characters: a read is a line or two, and a
 * command of 600 kB (100,000 pipes) takes the parser two seconds. A longer one
 * proves nothing, as one it cannot parse.
 */
const LONGEST_COMMAND = 16_384

/**
 * What `command` is, parsed; undefined before the parser has loaded, for a
 * command longer than {@link LONGEST_COMMAND}, or for a command it cannot
 * parse whole. Every command in it counts, in pipelines,
 * lists, subshells and substitutions alike.
 */
export function shellCommand(command: string): Command | undefined {
  if (command.length > LONGEST_COMMAND) return undefined
  const tree = parser?.parse(command)
  if (tree == null) return undefined
  try {
    if (tree.rootNode.hasError) return undefined
    const operands = new Set<string>()
    let readOnly = true
    let view = true
    let known = true
    const written: string[] = []
    const files: string[] = []
    const work: Node[] = [tree.rootNode]
    while (work.length > 0) {
      const node = work.pop()!
      if (node.type === 'command') {
        const reader = reads(node, operands)
        readOnly &&= reader
        // A command that parses whole always has a name.
        const name = node.childForFieldName('name')!.text
        view &&= VIEWERS.has(name)
        if (FILE_VIEWERS.has(name)) files.push(...shown(node, name))
        if (!reader) {
          const edited = editedInPlace(node)
          if (edited === undefined) known = false
          else written.push(...edited)
        }
      } else if (node.type === 'file_redirect' && writes(node)) {
        readOnly = false
        written.push(node.childForFieldName('destination')!.text)
      } else if (node.type === 'function_definition') readOnly = known = false
      // One push per child: a command with a huge number of words would overflow a spread.
      for (const child of node.namedChildren) work.push(child!)
    }
    return {
      readOnly,
      question: [...operands].sort().join('\n'),
      view: readOnly && view,
      files,
      writes: known ? written : undefined,
    }
  } finally {
    tree.delete()
  }
}

/** Whether one simple command is a known reader with arguments that keep it one; its operands go into `operands`. */
function reads(node: Node, operands: Set<string>): boolean {
  const args = node.childrenForFieldName('argument').map((a) => word(a!))
  for (const arg of args) if (!arg.startsWith('-')) operands.add(arg)
  const rule = READERS.get(node.childForFieldName('name')!.text)
  return rule?.(args) === true
}

/**
 * Whether a redirection writes to a file: a writing operator whose destination is neither a
 * descriptor nor /dev/null (`3>&-` closes one: its operator is `>&-`).
 */
function writes(node: Node): boolean {
  const operator = node.children.find((c) => !c!.isNamed)!.text
  if (!WRITES.has(operator)) return false
  // A writing operator always has a destination.
  const destination = node.childForFieldName('destination')!.text
  return destination !== '/dev/null' && !/^\d+$/.test(destination) && destination !== '-'
}

/** An argument as the command receives it, for the plain quoted forms: 'x' and "x" without their quotes. */
function word(node: Node): string {
  const { text } = node
  if (node.type === 'raw_string') return text.slice(1, -1)
  if (node.type === 'string' && node.namedChildren.every((c) => c!.type === 'string_content')) return text.slice(1, -1)
  return text
}
