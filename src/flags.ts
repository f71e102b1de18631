/**
 * The config as command-line flags, made from the options themselves: each
 * option (`config.ts`) is a flag named after it in kebab case, its type says
 * how the flag is read and shown, its description is its help. An option that
 * is `true` or a list of tool patterns has two flags: the boolean one and the
 * list's (`-tools`). Values are left for {@link Config} to judge, so a bad flag
 * gets the same message as a bad `cordis.yml` value.
 */
import type Schema from '@deepseek-ai/schemastery'
import { type Config, KEYS, name, optionOf } from './config.ts'
import { Problem } from './problem.ts'
import { WIDTH, wrap } from './wrap.ts'

/** One flag: the config key it sets, how `parseArgs` reads it and how help shows it. */
interface Flag {
  key: keyof Config
  type: 'string' | 'boolean'
  multiple: boolean
  /** How a string flag's text becomes a config value. */
  read: 'number' | 'numbers' | 'patterns' | undefined
  /** The placeholder shown in help. */
  arg: string | undefined
  /** Its help: the option's description, or for one of two flags of an option, what it sets. */
  help: string
}

/** How a flag of tool patterns is read: repeatable, each a comma list. */
const PATTERNS = { type: 'string', multiple: true, read: 'patterns', arg: 'PATTERN' } as const

/** The config flags, in help order: the options' order. */
const FLAGS: ReadonlyMap<string, Flag> = new Map(KEYS.flatMap(flagsOf))

/** The values `parseArgs` reads for the config flags. */
export type ConfigFlags = Partial<Record<string, string | boolean | (string | boolean)[]>>

/** The `parseArgs` options for the config flags. */
export const configOptions: Record<string, { type: 'string' | 'boolean'; multiple?: true }> = Object.fromEntries(
  [...FLAGS].map(([flag, { type, multiple }]) => [flag, multiple ? { type, multiple: true } : { type }]),
)

/** The flags of one option, named after it. */
function flagsOf(key: keyof Config): [string, Flag][] {
  const flag = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
  const { schema, flag: words } = optionOf(key)
  const help = schema.meta.description as string
  const base = { key, help, arg: words.arg }
  if (words.scoped !== undefined)
    return [
      [flag, { ...base, type: 'boolean', multiple: false, read: undefined, help: words.scoped.all }],
      [`${flag}-tools`, { ...base, ...PATTERNS, help: words.scoped.tools }],
    ]
  const read = readAs(schema)
  if (read === 'boolean') return [[flag, { ...base, type: 'boolean', multiple: false, read: undefined }]]
  if (read === 'number') return [[flag, { type: 'string', multiple: false, read, ...base, arg: 'N' }]]
  if (read === 'numbers') return [[flag, { ...base, type: 'string', multiple: false, read, arg: 'LIST' }]]
  return [[flag, { ...PATTERNS, ...base, arg: words.arg ?? 'PATTERN' }]]
}

/**
 * How a flag's text becomes a value of `schema`'s type: a boolean, a number, a list of numbers or of
 * patterns. A union is read as its members are, when they all read alike (`0` or a natural: a
 * number). Any other type fails closed: an option no flag can set is a mistake of the package.
 */
export function readAs(schema: Schema): 'boolean' | 'number' | 'numbers' | 'patterns' {
  const { type, value } = schema
  if (type === 'transform') return readAs(schema.inner as Schema)
  // A constant (the only type with a value) reads as its value's type.
  if (type === 'boolean' || typeof value === 'boolean') return 'boolean'
  if (type === 'number' || typeof value === 'number') return 'number'
  if (type === 'array') {
    const inner = (schema.inner as Schema).type
    if (inner === 'number') return 'numbers'
    if (inner === 'string') return 'patterns'
  }
  const members = type === 'union' ? [...new Set((schema.list as Schema[]).map(readAs))] : []
  const [only] = members
  if (only === undefined || members.length > 1)
    throw new Problem(`an option's type has no flag that can set it: ${type}`, [name])
  return only
}

/**
 * The help lines for the config flags, the flag column `width` characters
 * wide: each option's description (without its code marks), its default when
 * it is a number or a list of them, and whether the flag repeats; wrapped to
 * `columns` under the description column.
 */
export function flagsHelp(width: number, columns = WIDTH): string {
  const rows = [...FLAGS].map(([flag, spec]): [string, string] => {
    const fallback = optionOf(spec.key).schema.meta.default
    const numeric = typeof fallback === 'number' || (Array.isArray(fallback) && typeof fallback[0] === 'number')
    const help = [
      spec.help.replaceAll('`', ''),
      ...(numeric ? [`Default ${String(fallback)}.`] : []),
      ...(spec.multiple ? ['Repeatable, or a comma list.'] : []),
    ].join(' ')
    return [`--${flag}${spec.arg === undefined ? '' : ` ${spec.arg}`}`, help]
  })
  return helpRows(rows, width, columns)
}

/**
 * Flags and their help as a table: each flag indented two spaces in a column `width` characters
 * wide, its help beside it, wrapped to `columns` under the help's column.
 */
export function helpRows(rows: readonly (readonly [string, string])[], width: number, columns = WIDTH): string {
  return rows
    .flatMap(([flag, help]) =>
      wrap(help, columns - width, 0).map(
        (line, i) => `${i === 0 ? `  ${flag}`.padEnd(width) : ' '.repeat(width)}${line}`,
      ),
    )
    .join('\n')
}

/**
 * Raw plugin config from parsed flags, left for the plugin's schema to judge:
 * a text that is a number becomes one, any other text stays text so the error
 * names it; a list flag may repeat and take comma lists.
 */
export function configFromFlags(values: ConfigFlags): Partial<Record<keyof Config, unknown>> {
  const raw: Partial<Record<keyof Config, unknown>> = {}
  for (const [flag, spec] of FLAGS) {
    const value = values[flag]
    if (value === undefined) continue
    if (Object.hasOwn(raw, spec.key))
      throw new Problem(`--${flag} sets ${spec.key}, which another flag already set; give one of them`, [name])
    raw[spec.key] =
      typeof value === 'boolean'
        ? value
        : spec.read === 'numbers'
          ? (value as string).split(',').map(numberOrText)
          : spec.read === 'patterns'
            ? (value as string[]).flatMap((item) => item.split(',')).filter((item) => item !== '')
            : numberOrText(value as string)
  }
  return raw
}

/** The flags, by name, with the config key each sets: what a test holds to the options. */
export function flagKeys(): [string, keyof Config][] {
  return [...FLAGS].map(([flag, { key }]) => [flag, key])
}

/** A number where the text is one; otherwise the text, for the config schema to judge and name. */
function numberOrText(text: string): number | string {
  const n = Number(text)
  return text.trim() !== '' && Number.isFinite(n) ? n : text
}
