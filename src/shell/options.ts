/**
 * How a reader's arguments are read against its table of options: short
 * flags, clusters, values attached or next, long options, counts; and the
 * tables' building blocks.
 */

/** How one reader's arguments are read. */
export interface Reader {
  /** Short options that take no value. */
  flags: string
  /** Short options that take a value, attached (`-n5`) or as the next word (`-n 5`). */
  valued?: string
  /** Long options without a value (`--count`). */
  long?: readonly string[]
  /** Long options with a value (`--max-count=5` or `--max-count 5`). */
  longValued?: readonly string[]
  /**
   * Long options whose value is optional (`--color`, `--stat=80`): only ever attached, so the
   * next word is never theirs but an operand or an option of its own.
   */
  longOptional?: readonly string[]
  /** Whether `-20` is a count (`head -20`). */
  numeric?: boolean
  /** Whether it reads its folder besides its operands: `ls` given no path, `rg` given only a pattern. */
  folder?: (operands: readonly string[], values: readonly string[], args: readonly string[]) => boolean
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
  /** Whether it reads its folder (the working directory) besides its operands. */
  folder?: boolean
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
  for (let i = 0, arg = args[0]; arg !== undefined; arg = args[++i]) {
    // The word after, which a valued option takes.
    const next = args[i + 1]
    if (arg === '--') {
      operands.push(...args.slice(i + 1))
      break
    }
    if (arg === '-' || !arg.startsWith('-')) operands.push(arg)
    else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=')
      const long = eq < 0 ? arg.slice(2) : arg.slice(2, eq)
      if (reader.longValued?.includes(long) === true) {
        if (eq < 0 && next !== undefined) {
          values.push(next)
          i++
        }
      } else if (reader.long?.includes(long) !== true && reader.longOptional?.includes(long) !== true) ok = false
    } else if (reader.numeric === true && /^-\d+$/.test(arg)) {
      // `head -20`: a count.
    } else {
      const taken = cluster(reader, arg)
      if (taken === undefined) ok = false
      else if (taken && next !== undefined) {
        values.push(next)
        i++
      }
    }
  }
  const rule = reader.operands?.(operands) ?? true
  return {
    ok: ok && rule,
    operands: [...operands, ...values],
    folder: reader.folder?.(operands, values, args) === true,
  }
}

/**
 * One cluster of short options (`-la`, `-n15`, `-A 3`) read by a table: undefined when an option is
 * unknown; otherwise whether the next word is the last option's value.
 */
function cluster(reader: Reader, arg: string): boolean | undefined {
  for (let j = 1; j < arg.length; j++) {
    const option = arg.charAt(j)
    if (reader.valued?.includes(option) === true) return j === arg.length - 1
    if (!reader.flags.includes(option)) return undefined
  }
  return false
}

/** Every option of these only reads: they have no option that writes a file or runs a command. */
export const ANY = { flags: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789' }

/** Reads `flags` but a few letters, which write or follow what changes by itself. */
export function allBut(letters: string, reader: Omit<Reader, 'flags'> = {}): Reader {
  return { ...reader, flags: [...ANY.flags].filter((f) => !letters.includes(f)).join('') }
}

/** For `ls`, `tree` and `du`: given no path, they read their folder. */
export const noPath = (operands: readonly string[]) => operands.length === 0

/**
 * For `rg`, and `grep -r`: given only a pattern (or a pattern and an option's value, which may be
 * the pattern), they may read their folder.
 */
export const onlyPattern = (operands: readonly string[], values: readonly string[]) =>
  operands.length <= 1 || values.length > 0

/** For `grep`: recursive (`-r`, `-R`, `--recursive`) and given only a pattern, it reads its folder. */
export const recursiveOnlyPattern = (operands: readonly string[], values: readonly string[], args: readonly string[]) =>
  onlyPattern(operands, values) && args.some((a) => /^(-[^-]*[rR]|--(dereference-)?recursive)/.test(a))

/** ls, wc, stat and their kin: any short option; long options as listed. */
export function anyShort(
  long: readonly string[],
  longValued: readonly string[],
  longOptional: readonly string[],
): Reader {
  return { ...ANY, long, longValued, longOptional, folder: noPath }
}
