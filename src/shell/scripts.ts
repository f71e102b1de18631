/**
 * The readers whose arguments no table describes: `find` with its tests and
 * actions, `sed` with its script, `awk` with its program.
 */
import { options, type Read } from './options.ts'

/**
 * The tests and actions of `find` that only read, and how many words each takes. None compares a
 * time with now (`-mmin`, `-mtime`, `-used`, …): their answer changes by itself.
 */
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
export function find(args: readonly string[]): Read {
  const operands: string[] = []
  let ok = true
  // Given no starting point, it starts at its folder.
  let folder = true
  for (let i = 0, arg = args[0]; arg !== undefined; arg = args[++i]) {
    const takes = FIND_PRIMARIES.get(arg)
    if (operands.length === 0 && !/^[-(!]/.test(arg)) folder = false
    if (takes !== undefined) {
      for (let k = 0; k < takes; k++) operands.push(args[++i] ?? '')
    } else if (/^-(H|L|P)$/.test(arg) || arg === '(' || arg === ')' || arg === '!' || arg === ',') {
      // Symlink policy and the expression's operators.
    } else if (arg.startsWith('-')) ok = false
    else operands.push(arg)
  }
  return { ok, operands, folder }
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
    } else while (i < n && /[\d$~+]/.test(script.charAt(i))) i++
    return true
  }
  while (i < n) {
    while (i < n && /[\s;}]/.test(script.charAt(i))) i++
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
      while (i < n && /\d/.test(script.charAt(i))) i++
    } else if (command === 's' || command === 'y') {
      const delimiter = script[i++]
      if (delimiter === undefined || delimiter === '\\' || delimiter === '\n') return false
      if (!part(delimiter) || !part(delimiter)) return false
      while (i < n && /[gpiImM\d]/.test(script.charAt(i))) i++
      // A flag that writes (`w file`) or runs the pattern space (`e`) follows the others.
      if (i < n && /[A-Za-z]/.test(script.charAt(i))) return false
    } else if ('aicrR'.includes(command)) toLineEnd()
    else if ('btT:'.includes(command)) while (i < n && script[i] !== ';' && script[i] !== '\n') i++
    else return false
  }
  return true
}

/** sed's short options that take no value; `-e` gives a script, `-l` a line length, `-i` edits in place. */
const SED_FLAGS = 'nErsuz'

/** sed's long options that take no value. */
const SED_LONG = new Set([
  'quiet',
  'silent',
  'regexp-extended',
  'separate',
  'unbuffered',
  'null-data',
  'posix',
  'debug',
])

/**
 * `sed`: a script that only prints ({@link sedPrints}), given as its first operand or with `-e`
 * (`-e SCRIPT`, `-eSCRIPT`, `-ne SCRIPT`, `--expression`); with `-i` (its backup suffix attached) or
 * `--in-place` it edits its files, the operands after the script. `-f` reads a script no one has
 * seen: like any option not named here, it is not a read.
 */
export function sed(args: readonly string[]): Read {
  let edits = false
  let ok = true
  const scripts: string[] = []
  const operands: string[] = []
  for (let i = 0, arg = args[0]; arg !== undefined; arg = args[++i]) {
    if (arg === '--') {
      operands.push(...args.slice(i + 1))
      break
    }
    // `-` alone, standard input, names no file: it goes where an unknown cluster would, and counts for nothing.
    if (!arg.startsWith('-')) operands.push(arg)
    else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=')
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq)
      const attached = eq === -1 ? undefined : arg.slice(eq + 1)
      if (name === 'expression') scripts.push(attached ?? args[++i] ?? '')
      else if (name === 'in-place') edits = true
      else if (name === 'line-length') i += attached === undefined ? 1 : 0
      else ok &&= SED_LONG.has(name) && attached === undefined
    } else {
      // A cluster of flags, ended by an option that takes the rest of the word or the next word.
      const cluster = [...arg.slice(1)]
      for (const [j, option] of cluster.entries()) {
        if (option === 'i') {
          // Its backup suffix: whatever follows the i.
          edits = true
          break
        }
        if (option === 'e' || option === 'l') {
          const value = j + 1 < cluster.length ? cluster.slice(j + 1).join('') : (args[++i] ?? '')
          if (option === 'e') scripts.push(value)
          break
        }
        ok &&= SED_FLAGS.includes(option)
      }
    }
  }
  const named = operands.filter((a) => a !== '-')
  const files = scripts.length === 0 ? named.slice(1) : named
  if (scripts.length === 0 && named[0] !== undefined) scripts.push(named[0])
  ok &&= scripts.length > 0 && scripts.every(sedPrints)
  return { ok, operands: [...new Set([...scripts, ...files])], files, edits }
}

/**
 * `awk`: a program given inline that neither writes (`print > file`, `|`),
 * runs a command (`system`, `|`), reads one (`getline`) nor loads code (`@`);
 * `-F` and `-v` only set values. `-f` reads a program no one has seen, and
 * gawk's `-i inplace` edits files.
 */
export function awk(args: readonly string[]): Read {
  const read = options({ flags: '', valued: 'Fv' }, args)
  const program = read.operands[0]
  const ok = read.ok && program !== undefined && !/[>|@]|system|getline/.test(program)
  return { ok, operands: read.operands }
}
