/** `git`: the subcommands that only read, with their options, and how a git command is judged. */
import { options, type Read, type Reader } from './options.ts'

/** Options of git's diff and log family that only read (no `--output`, `--ext-diff`, `--textconv`). */
const HISTORY = {
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
} satisfies Reader

/** The git subcommands that only read, with their options. */
const GIT: ReadonlyMap<string, Reader> = new Map<string, Reader>([
  ['diff', HISTORY],
  ['log', HISTORY],
  ['show', HISTORY],
  ['shortlog', { ...HISTORY, flags: `${HISTORY.flags}ce`, long: [...HISTORY.long, 'summary', 'numbered', 'email'] }],
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
export function git(args: readonly string[]): Read {
  let i = 0
  const operands: string[] = []
  for (let arg = args[0]; arg !== undefined; arg = args[++i]) {
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
  return { ok: read.ok, operands: [...operands, sub as string, ...read.operands] }
}
