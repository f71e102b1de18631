/**
 * The allowlist of shell commands that only read files and folders, each with
 * the options known to only read. A command is on it only when what it reads
 * is the workspace: nothing that changes by itself (processes, jobs, the
 * network, clocks, the system), and nothing it runs. An option not in a
 * command's table, an option that names a file it writes, a script that can
 * write or run a command, or a command it runs: none is here, so each means
 * the command may write. Data only, with the few rules a table cannot say.
 */

/** How one reader's arguments are read. */
export interface Reader {
  /** Short options that take no value. */
  flags: string
  /** Short options that take a value, attached (`-n5`) or as the next word (`-n 5`). */
  valued?: string
  /** Long options without a value (`--count`). */
  long?: readonly string[]
  /** Long options with a value (`--max-count=5` or `--max-count 5`); `--color` may go without one. */
  longValued?: readonly string[]
  /** Whether `-20` is a count (`head -20`). */
  numeric?: boolean
  /** A rule its operands must meet besides the options' (uniq's output file, sed's script); true when none. */
  operands?: (operands: readonly string[]) => boolean
  /** For a command whose arguments no table describes (`find`, `git`, `sed`, `awk`): the whole judgement. */
  judge?: (args: readonly string[]) => Read
}

/** What a reader's arguments come to: whether all of them are known, its operands and the files it names. */
export interface Read {
  ok: boolean
  /** Its operands and the values of its options given as separate words: the question it asks. */
  operands: string[]
  /** The files it reads (for `sed`, its operands after the script); when undefined, its operands. */
  files?: string[]
  /** Whether it edits its files in place (`sed -i`). */
  edits?: boolean
}

/**
 * A reader's arguments read by its option table: every option must be on it,
 * and the reader's own rule judges its operands.
 */
export function options(reader: Reader, args: readonly string[]): Read {
  if (reader.judge !== undefined) return reader.judge(args)
  const operands: string[] = []
  const values: string[] = []
  let ok = true
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--') {
      operands.push(...args.slice(i + 1))
      break
    }
    if (arg === '-' || !arg.startsWith('-')) operands.push(arg)
    else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=')
      const long = eq < 0 ? arg.slice(2) : arg.slice(2, eq)
      if (reader.longValued?.includes(long) === true) {
        if (eq < 0 && i + 1 < args.length) values.push(args[++i]!)
      } else if (reader.long?.includes(long) !== true) ok = false
    } else if (reader.numeric === true && /^-\d+$/.test(arg)) {
      // `head -20`: a count.
    } else {
      const taken = cluster(reader, arg)
      if (taken === undefined) ok = false
      else if (taken && i + 1 < args.length) values.push(args[++i]!)
    }
  }
  const rule = reader.operands?.(operands) ?? true
  return { ok: ok && rule, operands: [...operands, ...values] }
}

/**
 * One cluster of short options (`-la`, `-n15`, `-A 3`) read by a table: undefined when an option is
 * unknown; otherwise whether the next word is the last option's value.
 */
function cluster(reader: Reader, arg: string): boolean | undefined {
  for (let j = 1; j < arg.length; j++) {
    const option = arg[j]!
    if (reader.valued?.includes(option) === true) return j === arg.length - 1
    if (!reader.flags.includes(option)) return undefined
  }
  return false
}

const GREP: Reader = {
  flags: 'EFGPiyvwxcLloqsbHhnTZzaIrRUJ',
  valued: 'efmABCdD',
  long: [
    'extended-regexp',
    'fixed-strings',
    'basic-regexp',
    'perl-regexp',
    'ignore-case',
    'no-ignore-case',
    'invert-match',
    'word-regexp',
    'line-regexp',
    'count',
    'color',
    'colour',
    'files-without-match',
    'files-with-matches',
    'only-matching',
    'quiet',
    'silent',
    'no-messages',
    'byte-offset',
    'with-filename',
    'no-filename',
    'line-number',
    'initial-tab',
    'null',
    'null-data',
    'text',
    'recursive',
    'dereference-recursive',
    'binary',
    'line-buffered',
  ],
  longValued: [
    'regexp',
    'file',
    'max-count',
    'after-context',
    'before-context',
    'context',
    'directories',
    'devices',
    'include',
    'exclude',
    'exclude-dir',
    'exclude-from',
    'label',
    'binary-files',
    'color',
    'colour',
  ],
}

/** Every option of these only reads: they have no option that writes a file or runs a command. */
const ANY = { flags: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789' }

/** Reads `flags` but a few letters, which write or follow what changes by itself. */
function allBut(letters: string, reader: Omit<Reader, 'flags'> = {}): Reader {
  return { ...reader, flags: [...ANY.flags].filter((f) => !letters.includes(f)).join('') }
}

/** ls, wc, stat and their kin: any short option; long options as listed. */
function anyShort(long: readonly string[], longValued: readonly string[] = []): Reader {
  return { ...ANY, long, longValued }
}

const SORT: Reader = {
  flags: 'bdfgiMhnRrVcCsuz',
  valued: 'ktS',
  long: [
    'ignore-leading-blanks',
    'dictionary-order',
    'ignore-case',
    'general-numeric-sort',
    'ignore-nonprinting',
    'month-sort',
    'human-numeric-sort',
    'numeric-sort',
    'random-sort',
    'reverse',
    'version-sort',
    'check',
    'stable',
    'unique',
    'zero-terminated',
    'debug',
  ],
  longValued: ['key', 'field-separator', 'buffer-size', 'parallel', 'sort', 'check'],
}

const TREE: Reader = {
  flags: 'adlfxACDFNQSUghinpqrstuv',
  valued: 'LPI',
  long: ['noreport', 'dirsfirst', 'gitignore', 'prune', 'du', 'si', 'matchdirs', 'ignore-case', 'filesfirst'],
  longValued: ['filelimit', 'sort', 'charset'],
}

const RG: Reader = {
  flags: 'iSsFwxvcloNnHhLuUpqIab0',
  valued: 'egtTmABCMjd',
  long: [
    'files',
    'hidden',
    'no-ignore',
    'line-number',
    'no-line-number',
    'no-heading',
    'heading',
    'with-filename',
    'no-filename',
    'count',
    'count-matches',
    'files-with-matches',
    'files-without-match',
    'fixed-strings',
    'ignore-case',
    'smart-case',
    'case-sensitive',
    'word-regexp',
    'line-regexp',
    'invert-match',
    'only-matching',
    'json',
    'vimgrep',
    'follow',
    'multiline',
    'no-messages',
    'column',
    'trim',
    'null',
    'stats',
    'text',
    'color',
    'colour',
    'pretty',
    'quiet',
    'type-list',
    'no-ignore-vcs',
    'no-config',
  ],
  longValued: [
    'regexp',
    'glob',
    'iglob',
    'type',
    'type-not',
    'max-count',
    'max-depth',
    'after-context',
    'before-context',
    'context',
    'sort',
    'sortr',
    'color',
    'colour',
    'max-columns',
    'threads',
    'encoding',
    'max-filesize',
  ],
}

/** Options of git's diff and log family that only read (no `--output`, `--ext-diff`, `--textconv`). */
const HISTORY: Reader = {
  flags: 'pusSGnMCBDRwbazlLWNXq0123456789',
  valued: 'nUSG',
  numeric: true,
  long: [
    'patch',
    'no-patch',
    'stat',
    'numstat',
    'shortstat',
    'name-only',
    'name-status',
    'oneline',
    'cached',
    'staged',
    'color',
    'no-color',
    'ignore-all-space',
    'ignore-space-change',
    'ignore-blank-lines',
    'graph',
    'all',
    'decorate',
    'no-decorate',
    'follow',
    'reverse',
    'abbrev-commit',
    'word-diff',
    'summary',
    'full-index',
    'merges',
    'no-merges',
    'first-parent',
    'raw',
    'check',
    'exit-code',
    'quiet',
    'minimal',
    'histogram',
    'patience',
    'no-renames',
    'find-renames',
    'relative',
    'compact-summary',
    'dirstat',
    'left-right',
    'topo-order',
    'date-order',
    'source',
    'no-ext-diff',
    'no-textconv',
    'no-prefix',
    'format-patch',
  ],
  longValued: [
    'format',
    'pretty',
    'since',
    'until',
    'after',
    'before',
    'author',
    'committer',
    'grep',
    'date',
    'unified',
    'diff-filter',
    'max-count',
    'skip',
    'abbrev',
    'stat',
    'color',
    'word-diff',
    'relative',
    'find-renames',
    'dirstat',
    'decorate',
  ],
}

/** The git subcommands that only read, with their options. */
const GIT: ReadonlyMap<string, Reader> = new Map([
  ['diff', HISTORY],
  ['log', HISTORY],
  ['show', HISTORY],
  ['shortlog', { ...HISTORY, flags: `${HISTORY.flags}ce`, long: [...HISTORY.long!, 'summary', 'numbered', 'email'] }],
  [
    'status',
    {
      flags: 'sbvz',
      valued: '',
      long: ['short', 'branch', 'long', 'verbose', 'show-stash', 'ahead-behind', 'no-ahead-behind', 'renames'],
      longValued: ['porcelain', 'untracked-files', 'ignored', 'ignore-submodules', 'column'],
    },
  ],
  ['blame', { flags: 'lstfnpcwe', valued: 'L', long: ['porcelain', 'line-porcelain', 'show-email', 'show-name'] }],
  [
    'ls-files',
    {
      flags: 'cdmoskitvfz',
      valued: 'xX',
      long: ['cached', 'deleted', 'modified', 'others', 'ignored', 'stage', 'killed', 'full-name', 'exclude-standard'],
      longValued: ['exclude', 'exclude-from', 'abbrev'],
    },
  ],
  ['ls-tree', { flags: 'rdtlz', long: ['name-only', 'name-status', 'full-tree', 'full-name', 'long'] }],
  [
    'rev-parse',
    {
      flags: 'q',
      long: [
        'show-toplevel',
        'show-prefix',
        'show-cdup',
        'git-dir',
        'absolute-git-dir',
        'is-inside-work-tree',
        'is-inside-git-dir',
        'is-bare-repository',
        'verify',
        'quiet',
        'symbolic',
        'symbolic-full-name',
        'all',
        'branches',
        'tags',
      ],
      longValued: ['abbrev-ref', 'short', 'git-path'],
    },
  ],
  [
    'describe',
    {
      flags: '',
      long: ['tags', 'always', 'long', 'exact-match', 'all', 'contains', 'first-parent'],
      longValued: ['abbrev', 'dirty', 'match', 'exclude', 'candidates'],
    },
  ],
  ['cat-file', { flags: 'tpse' }],
  [
    'grep',
    {
      flags: 'ivwlLcnhHEFPIrazo',
      valued: 'efABCm',
      long: ['cached', 'untracked', 'no-index', 'line-number', 'count', 'ignore-case', 'word-regexp', 'full-name'],
      longValued: ['max-depth', 'after-context', 'before-context', 'context'],
    },
  ],
])

/**
 * `git`: its global options that only point it somewhere (`-C`, `--git-dir`, `--work-tree`,
 * `--no-pager`), then a subcommand that only reads. `-c` is none of them: a config value can
 * make git run a command.
 */
function git(args: readonly string[]): Read {
  let i = 0
  const operands: string[] = []
  for (; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '-C') operands.push(args[++i] ?? '')
    else if (arg === '--no-pager' || arg === '-P' || /^--(git-dir|work-tree)=/.test(arg)) {
      // Where it reads: kept out of the question, as the folder is.
    } else break
  }
  const sub = args[i]
  const reader = sub === undefined ? undefined : GIT.get(sub)
  if (reader === undefined) return { ok: false, operands: args.filter((a) => !a.startsWith('-')) }
  const rest = args.slice(i + 1)
  // git status -uno: the untracked-files mode attached to -u.
  const read = options(reader, sub === 'status' ? rest.filter((a) => !/^-u(no|normal|all)?$/.test(a)) : rest)
  return { ok: read.ok, operands: [...operands, sub!, ...read.operands] }
}

/** The tests and actions of `find` that only read, and how many words each takes. */
const FIND_PRIMARIES: ReadonlyMap<string, number> = new Map([
  ...[
    '-name',
    '-iname',
    '-path',
    '-ipath',
    '-wholename',
    '-iwholename',
    '-regex',
    '-iregex',
    '-type',
    '-xtype',
    '-size',
    '-mtime',
    '-mmin',
    '-atime',
    '-amin',
    '-ctime',
    '-cmin',
    '-newer',
    '-perm',
    '-user',
    '-group',
    '-links',
    '-maxdepth',
    '-mindepth',
    '-samefile',
    '-inum',
    '-uid',
    '-gid',
    '-lname',
    '-ilname',
    '-printf',
    '-regextype',
    '-fstype',
    '-used',
  ].map((p): [string, number] => [p, 1]),
  ...[
    '-print',
    '-print0',
    '-ls',
    '-prune',
    '-quit',
    '-empty',
    '-readable',
    '-writable',
    '-executable',
    '-nouser',
    '-nogroup',
    '-true',
    '-false',
    '-depth',
    '-follow',
    '-xdev',
    '-mount',
    '-daystart',
    '-noleaf',
    '-nowarn',
    '-warn',
    '-not',
    '-a',
    '-and',
    '-o',
    '-or',
    '-d',
  ].map((p): [string, number] => [p, 0]),
])

/** `find`: its starting points, then an expression of tests and actions that only read. */
function find(args: readonly string[]): Read {
  const operands: string[] = []
  let ok = true
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const takes = FIND_PRIMARIES.get(arg)
    if (takes !== undefined) {
      for (let k = 0; k < takes; k++) operands.push(args[++i] ?? '')
    } else if (/^-(H|L|P)$/.test(arg) || arg === '(' || arg === ')' || arg === '!' || arg === ',') {
      // Symlink policy and the expression's operators.
    } else if (arg.startsWith('-')) ok = false
    else operands.push(arg)
  }
  return { ok, operands }
}

/**
 * Whether a sed script only prints: its commands are among those that print,
 * delete from the output or move between lines, and no `w`, `W` or `e`
 * command and no `w` or `e` flag of `s` writes a file or runs a command. Read
 * as GNU sed reads a script, in one pass; anything it does not know is a
 * command that may write.
 */
export function sedPrints(script: string): boolean {
  let i = 0
  const n = script.length
  /** Past a regular expression or replacement ended by `delimiter`; false when it does not end. */
  const part = (delimiter: string): boolean => {
    for (; i < n && script[i] !== delimiter; i++) if (script[i] === '\\') i++
    if (i >= n) return false
    i++
    return true
  }
  const toLineEnd = () => {
    for (; i < n && script[i] !== '\n'; i++) if (script[i] === '\\') i++
  }
  const address = (): boolean => {
    const c = script[i]
    if (c === '/') {
      i++
      if (!part('/')) return false
      while (script[i] === 'I' || script[i] === 'M') i++
    } else if (c === '\\') {
      const delimiter = script[i + 1]
      i += 2
      if (delimiter === undefined || !part(delimiter)) return false
    } else while (i < n && /[\d$~+]/.test(script[i]!)) i++
    return true
  }
  while (i < n) {
    while (i < n && /[\s;}]/.test(script[i]!)) i++
    if (i >= n) return true
    if (script[i] === '#') {
      toLineEnd()
      continue
    }
    if (!address()) return false
    if (script[i] === ',') {
      i++
      if (!address()) return false
    }
    while (script[i] === ' ' || script[i] === '!') i++
    const command = script[i++]
    if (command === undefined) return false
    if ('{pPdDnNgGhHxlzF=qQLv'.includes(command)) {
      while (i < n && /\d/.test(script[i]!)) i++
    } else if (command === 's' || command === 'y') {
      const delimiter = script[i++]
      if (delimiter === undefined || delimiter === '\\' || delimiter === '\n') return false
      if (!part(delimiter) || !part(delimiter)) return false
      while (i < n && /[gpiImM\d]/.test(script[i]!)) i++
      // A flag that writes (`w file`) or runs the pattern space (`e`) follows the others.
      if (i < n && /[A-Za-z]/.test(script[i]!)) return false
    } else if ('aicrR'.includes(command)) toLineEnd()
    else if ('btT:'.includes(command)) while (i < n && script[i] !== ';' && script[i] !== '\n') i++
    else return false
  }
  return true
}

/** sed's options: `-n`, `-E`, scripts given with `-e`; `-i` edits in place, and `-f` reads a script no one has seen. */
const SED: Reader = {
  flags: 'nErsuzi',
  valued: 'el',
  long: ['quiet', 'silent', 'regexp-extended', 'separate', 'unbuffered', 'null-data', 'posix', 'debug', 'sandbox'],
  longValued: ['expression', 'line-length', 'in-place'],
}

/**
 * `sed`: a script that only prints ({@link sedPrints}), given as its first operand or with `-e`;
 * with `-i` (a suffix attached, or `--in-place`) it edits its files in place.
 */
function sed(args: readonly string[]): Read {
  let edits = false
  const scripts: string[] = []
  const rest: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '-e' || arg === '--expression') scripts.push(args[++i] ?? '')
    else if (arg.startsWith('--expression=')) scripts.push(arg.slice('--expression='.length))
    else if (arg === '--in-place' || arg.startsWith('--in-place=')) edits = true
    else if (/^-[nErsuz]*i/.test(arg)) {
      // -i takes its backup suffix attached (-i.bak): whatever follows the i.
      edits = true
      rest.push(arg.slice(0, arg.indexOf('i')))
    } else rest.push(arg)
  }
  const read = options(
    SED,
    rest.filter((a) => a !== '-'),
  )
  const operands = read.operands
  if (scripts.length === 0 && operands.length > 0) scripts.push(operands[0]!)
  const files = scripts.length > 0 && operands[0] === scripts[0] ? operands.slice(1) : operands
  const ok = read.ok && scripts.length > 0 && scripts.every(sedPrints)
  return { ok, operands: [...scripts, ...files].filter((v, i, all) => all.indexOf(v) === i), files, edits }
}

/**
 * `awk`: a program given inline that neither writes (`print > file`, `|`),
 * runs a command (`system`, `|`), reads one (`getline`) nor loads code (`@`);
 * `-F` and `-v` only set values. `-f` reads a program no one has seen, and
 * gawk's `-i inplace` edits files.
 */
function awk(args: readonly string[]): Read {
  const read = options({ flags: '', valued: 'Fv' }, args)
  const program = read.operands[0]
  const ok = read.ok && program !== undefined && !/[>|@]|system|getline/.test(program)
  return { ok, operands: read.operands }
}

/** Each command known to only read, by name, with how its arguments are read. */
export const READERS: ReadonlyMap<string, Reader> = new Map<string, Reader>([
  ['cat', ANY],
  [
    'head',
    {
      ...ANY,
      numeric: true,
      valued: 'nc',
      long: ['quiet', 'silent', 'verbose', 'zero-terminated'],
      longValued: ['lines', 'bytes'],
    },
  ],
  // -f and -F follow a file as it grows: what changes by itself.
  [
    'tail',
    allBut('fFs', {
      numeric: true,
      valued: 'nc',
      long: ['quiet', 'silent', 'verbose', 'zero-terminated'],
      longValued: ['lines', 'bytes'],
    }),
  ],
  ['nl', { ...ANY, valued: 'bdfhinsvw' }],
  ['grep', GREP],
  ['egrep', GREP],
  ['fgrep', GREP],
  ['rg', RG],
  [
    'ls',
    anyShort(
      ['all', 'almost-all', 'human-readable', 'recursive', 'reverse', 'directory', 'classify'],
      [
        'color',
        'sort',
        'time-style',
        'format',
        'ignore',
        'hide',
        'block-size',
        'time',
        'indicator-style',
        'quoting-style',
      ],
    ),
  ],
  ['wc', anyShort(['lines', 'words', 'chars', 'bytes', 'max-line-length'], ['files0-from'])],
  ['stat', { ...ANY, valued: 'c', long: ['dereference', 'file-system', 'terse'], longValued: ['format', 'printf'] }],
  [
    'du',
    {
      ...ANY,
      valued: 'dBt',
      long: [
        'all',
        'apparent-size',
        'bytes',
        'total',
        'human-readable',
        'summarize',
        'count-links',
        'dereference',
        'one-file-system',
        'si',
      ],
      longValued: ['max-depth', 'exclude', 'block-size', 'threshold'],
    },
  ],
  [
    'cut',
    {
      flags: 'sznw',
      valued: 'bcdf',
      long: ['complement', 'only-delimited', 'zero-terminated'],
      longValued: ['bytes', 'characters', 'delimiter', 'fields', 'output-delimiter'],
    },
  ],
  ['tr', { flags: 'cdstC', long: ['complement', 'delete', 'squeeze-repeats', 'truncate-set1'] }],
  // -C compiles a magic file, which it writes.
  [
    'file',
    {
      flags: 'bchiklLNnprsSz0E',
      valued: 'efFmP',
      long: [
        'brief',
        'mime',
        'mime-type',
        'mime-encoding',
        'dereference',
        'no-dereference',
        'keep-going',
        'raw',
        'special-files',
        'uncompress',
      ],
      longValued: ['separator', 'magic-file', 'exclude'],
    },
  ],
  ['sort', SORT],
  // uniq's second operand is a file it writes.
  [
    'uniq',
    {
      flags: 'cdDiuz',
      valued: 'fsw',
      long: ['count', 'repeated', 'ignore-case', 'unique', 'zero-terminated'],
      longValued: ['skip-fields', 'skip-chars', 'check-chars', 'all-repeated', 'group'],
      operands: (o) => o.length <= 1,
    },
  ],
  ['tree', TREE],
  [
    'diff',
    anyShort(
      [
        'unified',
        'brief',
        'recursive',
        'new-file',
        'text',
        'ignore-all-space',
        'ignore-space-change',
        'ignore-blank-lines',
        'ignore-case',
        'side-by-side',
        'report-identical-files',
        'strip-trailing-cr',
        'minimal',
        'color',
      ],
      ['unified', 'context', 'exclude', 'label', 'color', 'width'],
    ),
  ],
  [
    'cmp',
    {
      flags: 'blsz',
      valued: 'in',
      long: ['print-bytes', 'verbose', 'quiet', 'silent'],
      longValued: ['ignore-initial', 'bytes'],
    },
  ],
  [
    'comm',
    {
      flags: '123z',
      long: ['check-order', 'nocheck-order', 'total', 'zero-terminated'],
      longValued: ['output-delimiter'],
    },
  ],
  ['column', { flags: 'tnxeJ', valued: 'scoNRTlW' }],
  ['od', { flags: 'bcdfilosxv', valued: 'AjNtwS' }],
  ['hexdump', { flags: 'bcCdoxv', valued: 'efns' }],
  [
    'strings',
    { flags: 'afw', valued: 'ntde', long: ['all', 'print-file-name'], longValued: ['bytes', 'radix', 'encoding'] },
  ],
  ...['md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'cksum', 'b2sum'].map((n): [string, Reader] => [
    n,
    { flags: 'bctwz', long: ['binary', 'check', 'tag', 'text', 'quiet', 'status', 'strict', 'warn', 'zero'] },
  ]),
  ['basename', { flags: 'asz', valued: 's', long: ['multiple', 'zero'], longValued: ['suffix'] }],
  ['dirname', { flags: 'z', long: ['zero'] }],
  [
    'realpath',
    {
      flags: 'eLmPqsz',
      long: [
        'canonicalize-existing',
        'canonicalize-missing',
        'logical',
        'physical',
        'quiet',
        'strip',
        'no-symlinks',
        'zero',
      ],
      longValued: ['relative-to', 'relative-base'],
    },
  ],
  [
    'readlink',
    {
      flags: 'femnqsvz',
      long: [
        'canonicalize',
        'canonicalize-existing',
        'canonicalize-missing',
        'no-newline',
        'quiet',
        'silent',
        'verbose',
        'zero',
      ],
    },
  ],
  ['pwd', { flags: 'LP' }],
  ['echo', { flags: 'neE' }],
  ['printf', { flags: '' }],
  ['true', ANY],
  ['false', ANY],
  ['test', ANY],
  ['[', ANY],
  ['cd', { flags: 'LPe@' }],
  ['which', { flags: 'as', long: ['all'] }],
  ['type', { flags: 'afptP' }],
  [
    'jq',
    {
      flags: 'rcsneSajMCRC',
      valued: '',
      long: [
        'raw-output',
        'compact-output',
        'slurp',
        'null-input',
        'exit-status',
        'sort-keys',
        'ascii-output',
        'join-output',
        'tab',
        'raw-input',
        'monochrome-output',
        'color-output',
      ],
      longValued: ['indent', 'arg', 'argjson'],
    },
  ],
  ['find', { flags: '', judge: find }],
  ['git', { flags: '', judge: git }],
  ['sed', { flags: '', judge: sed }],
  ['awk', { flags: '', judge: awk }],
])
