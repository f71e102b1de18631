/**
 * The allowlist of shell commands that only read files and folders, each with
 * the options known to only read. A command is on it only when what it reads
 * is the workspace: nothing that changes by itself (processes, jobs, the
 * network, clocks, the system), and nothing it runs. An option not in a
 * command's table, an option that names a file it writes, a script that can
 * write or run a command, or a command it runs: none is here, so each means
 * the command may write. Data only, with the few rules a table cannot say.
 */
import { git } from './git.ts'
import { ANY, allBut, anyShort, noPath, type Reader } from './options.ts'
import { awk, find, sed } from './scripts.ts'
import { GREP, RG, SORT, TREE } from './tables.ts'

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
      ['sort', 'time-style', 'format', 'ignore', 'hide', 'block-size', 'time', 'indicator-style', 'quoting-style'],
      ['color'],
    ),
  ],
  ['wc', anyShort(['lines', 'words', 'chars', 'bytes', 'max-line-length'], ['files0-from'], [])],
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
      folder: noPath,
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
      longValued: ['skip-fields', 'skip-chars', 'check-chars'],
      longOptional: ['all-repeated', 'group'],
      operands: (o) => o.length <= 1,
    },
  ],
  ['tree', TREE],
  [
    'diff',
    anyShort(
      [
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
      ],
      ['exclude', 'label', 'width'],
      ['unified', 'context', 'color'],
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
  // `-v` names a variable, and bash evaluates an array subscript in it, substitutions and all.
  ['test', allBut('v')],
  ['[', allBut('v')],
  // `cd` alone goes home, `cd -` back: a folder the command does not name.
  ['cd', { flags: 'LPe@', operands: (o) => o.length === 1 && o[0] !== '-' }],
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
