/**
 * `git`: the subcommands that only read the repository and run nothing a config names, with their
 * options, and how a git command is judged. Most of git reads configuration that can run a program:
 * `status`, `diff`, `ls-files`, `grep` and `describe --dirty` ask `core.fsmonitor`; a diff runs
 * `diff.external` and textconv filters, and a clean filter for a changed file; `log`, `show` and
 * `blame` check signatures with `gpg.program` or run textconv. None of these is proven to only read.
 */
import { options, type Read, type Reader } from './options.ts'

/** The git subcommands that only read objects and refs, never the work tree, with their options. */
const GIT: ReadonlyMap<string, Reader> = new Map<string, Reader>([
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
      longValued: ['git-path'],
      longOptional: ['abbrev-ref', 'short'],
    },
  ],
  [
    'describe',
    {
      flags: '',
      long: ['tags', 'always', 'long', 'exact-match', 'all', 'contains', 'first-parent'],
      longValued: ['match', 'exclude', 'candidates'],
      longOptional: ['abbrev'],
    },
  ],
  ['cat-file', { flags: 'tpse' }],
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
  const read = options(reader, args.slice(i + 1))
  // It reads the repository, in its folder or above it.
  return { ok: read.ok, operands: [...operands, sub as string, ...read.operands], folder: true }
}
