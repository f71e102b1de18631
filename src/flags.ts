/**
 * The config as command-line flags, defined once: the `parseArgs` options, the
 * values they parse to, the help lines and the raw config they make all derive
 * from {@link CONFIG_FLAGS}. Values are left for {@link Config} to judge, so a
 * bad flag gets the same message as a bad `cordis.yml` value.
 */
import { defaultOf, meaning, name, type Config } from './config.ts'
import { Problem } from './problem.ts'
import { WIDTH, wrap } from './wrap.ts'

/**
 * One flag: the config key it sets (the flag is named after it) and how `parseArgs` reads it; its
 * help is the option's description.
 */
interface Flag {
  key: keyof Config
  type: 'string' | 'boolean'
  multiple?: true
  /** How a string flag's text becomes a config value. */
  read?: 'number' | 'numbers' | 'patterns'
  /** The placeholder shown in help. */
  arg?: string
  /** For a second flag of one option: what it sets instead of the whole option. */
  scope?: string
}

/** The config flags, in help order. */
export const CONFIG_FLAGS = {
  thresholds: { key: 'thresholds', type: 'string', read: 'numbers', arg: 'LIST' },
  include: { key: 'include', type: 'string', multiple: true, read: 'patterns', arg: 'PATTERN' },
  exclude: { key: 'exclude', type: 'string', multiple: true, read: 'patterns', arg: 'PATTERN' },
  'arguments-preview-chars': { key: 'argumentsPreviewChars', type: 'string', read: 'number', arg: 'N' },
  'result-aware': {
    key: 'resultAware',
    type: 'boolean',
    scope: 'Opt-in: a repeat counts only when its outcome repeats too, for every tool.',
  },
  'result-aware-tools': {
    key: 'resultAware',
    type: 'string',
    multiple: true,
    read: 'patterns',
    arg: 'PATTERN',
    scope: 'As --result-aware, for the matching tools only.',
  },
  'ignore-arguments': { key: 'ignoreArguments', type: 'string', multiple: true, read: 'patterns', arg: 'TOOL.ARG' },
  relapse: { key: 'relapse', type: 'boolean' },
  cycles: { key: 'cycles', type: 'boolean' },
  'max-cycle-period': { key: 'maxCyclePeriod', type: 'string', read: 'number', arg: 'N' },
  'remind-every': { key: 'remindEvery', type: 'string', read: 'number', arg: 'N' },
  'block-at': { key: 'blockAt', type: 'string', read: 'number', arg: 'N' },
  'mask-noise': { key: 'maskNoise', type: 'boolean' },
  'same-failure': { key: 'sameFailure', type: 'boolean' },
  rereads: { key: 'rereads', type: 'boolean' },
  'read-only-tools': { key: 'readOnlyTools', type: 'string', multiple: true, read: 'patterns', arg: 'PATTERN' },
  'navigation-tools': { key: 'navigationTools', type: 'string', multiple: true, read: 'patterns', arg: 'PATTERN' },
} as const satisfies Record<string, Flag>

type Flags = typeof CONFIG_FLAGS

/** The values `parseArgs` reads for {@link CONFIG_FLAGS}. */
export type ConfigFlags = {
  -readonly [K in keyof Flags]?:
    | (Flags[K]['type'] extends 'boolean' ? boolean : Flags[K] extends { multiple: true } ? string[] : string)
    | undefined
}

/** The `parseArgs` options for the config flags. */
export const configOptions = Object.fromEntries(
  Object.entries(CONFIG_FLAGS).map(([flag, { type, ...rest }]) => [
    flag,
    'multiple' in rest ? { type, multiple: true } : { type },
  ]),
) as {
  [K in keyof Flags]: Flags[K] extends { multiple: true }
    ? { type: Flags[K]['type']; multiple: true }
    : { type: Flags[K]['type'] }
}

/**
 * The help lines for the config flags, the flag column `width` characters
 * wide: each option's description (without its code marks), its default when
 * it is a number or a list of them, and whether the flag repeats; wrapped to
 * {@link WIDTH} columns under the description column.
 */
export function flagsHelp(width: number): string {
  return (Object.entries(CONFIG_FLAGS) as [string, Flag][])
    .flatMap(([flag, spec]) => {
      const left = `  --${flag}${spec.arg === undefined ? '' : ` ${spec.arg}`}`
      const fallback = defaultOf(spec.key)
      const numeric = typeof fallback === 'number' || (Array.isArray(fallback) && typeof fallback[0] === 'number')
      const help = [
        (spec.scope ?? meaning(spec.key)).replaceAll('`', ''),
        ...(numeric ? [`Default ${String(fallback)}.`] : []),
        ...(spec.multiple ? ['Repeatable, or a comma list.'] : []),
      ].join(' ')
      return wrap(help, WIDTH - width, 0).map((line, i) => `${i === 0 ? left.padEnd(width) : ' '.repeat(width)}${line}`)
    })
    .join('\n')
}

/**
 * Raw plugin config from parsed flags, left for the plugin's schema to judge:
 * a text that is a number becomes one, any other text stays text so the error
 * names it; `--include`/`--exclude` may repeat and take comma lists.
 */
export function configFromFlags(values: ConfigFlags): Partial<Record<keyof Config, unknown>> {
  const raw: Partial<Record<keyof Config, unknown>> = {}
  for (const [flag, spec] of Object.entries(CONFIG_FLAGS) as [keyof Flags, Flag][]) {
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

/** A number where the text is one; otherwise the text, for the config schema to judge and name. */
function numberOrText(text: string): number | string {
  const n = Number(text)
  return text.trim() !== '' && Number.isFinite(n) ? n : text
}
