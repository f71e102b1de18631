/**
 * The config as command-line flags, defined once: the `parseArgs` options, the
 * values they parse to, the help lines and the raw config they make all derive
 * from {@link CONFIG_FLAGS}. Values are left for {@link Config} to judge, so a
 * bad flag gets the same message as a bad `cordis.yml` value.
 */
import { name, type Config } from './config.ts'

/** One flag: the config key it sets, how `parseArgs` reads it, and its help text. */
interface Flag {
  key: keyof Config
  type: 'string' | 'boolean'
  multiple?: true
  /** How a string flag's text becomes a config value. */
  read?: 'number' | 'numbers' | 'patterns'
  /** The placeholder shown in help. */
  arg?: string
  help: string
}

/** The config flags, in help order. */
export const CONFIG_FLAGS = {
  'thresholds': { key: 'thresholds', type: 'string', read: 'numbers', arg: 'LIST', help: 'run lengths that get a reminder (default 3,5,8)' },
  'include': { key: 'include', type: 'string', multiple: true, read: 'patterns', arg: 'PATTERN', help: 'track only matching tools (repeatable, or a comma list)' },
  'exclude': { key: 'exclude', type: 'string', multiple: true, read: 'patterns', arg: 'PATTERN', help: 'never track matching tools (repeatable, or a comma list)' },
  'preview': { key: 'argumentsPreviewChars', type: 'string', read: 'number', arg: 'N', help: 'characters of arguments quoted in a detailed reminder (default 500)' },
  'result-aware': { key: 'resultAware', type: 'boolean', help: 'compare outcomes too (resultAware)' },
  'result-aware-tools': { key: 'resultAware', type: 'string', multiple: true, read: 'patterns', arg: 'PATTERN', help: 'compare outcomes of matching tools only (repeatable, or a comma list)' },
  'ignore-arguments': { key: 'ignoreArguments', type: 'string', multiple: true, read: 'patterns', arg: 'TOOL.ARG', help: 'leave an argument out when comparing calls (repeatable, or a comma list)' },
  'relapse': { key: 'relapse', type: 'boolean', help: 'a run interrupted by other calls goes on when the call comes back' },
  'cycles': { key: 'cycles', type: 'boolean', help: 'recognise cycles of distinct calls' },
  'max-cycle-period': { key: 'maxCyclePeriod', type: 'string', read: 'number', arg: 'N', help: 'longest cycle (default 4)' },
  'remind-every': { key: 'remindEvery', type: 'string', read: 'number', arg: 'N', help: 'remind again every N repeats past the last threshold' },
  'block-at': { key: 'blockAt', type: 'string', read: 'number', arg: 'N', help: 'block from run length N on' },
} as const satisfies Record<string, Flag>

type Flags = typeof CONFIG_FLAGS

/** The values `parseArgs` reads for {@link CONFIG_FLAGS}. */
export type ConfigFlags = {
  -readonly [K in keyof Flags]?: (Flags[K]['type'] extends 'boolean' ? boolean : Flags[K] extends { multiple: true } ? string[] : string) | undefined
}

/** The `parseArgs` options for the config flags. */
export const configOptions = Object.fromEntries(Object.entries(CONFIG_FLAGS)
  .map(([flag, { type, ...rest }]) => [flag, 'multiple' in rest ? { type, multiple: true } : { type }])) as {
  [K in keyof Flags]: Flags[K] extends { multiple: true } ? { type: Flags[K]['type'], multiple: true } : { type: Flags[K]['type'] }
}

/** The help lines for the config flags, the flag column `width` characters wide. */
export function flagsHelp(width: number): string {
  return Object.entries(CONFIG_FLAGS).map(([flag, spec]) => {
    const left = `  --${flag}${'arg' in spec ? ` ${spec.arg}` : ''}`
    return `${left.padEnd(width)}${spec.help}`
  }).join('\n')
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
    if (Object.hasOwn(raw, spec.key)) throw new Error(`${name}: --${flag} sets ${spec.key}, which another flag already set; give one of them`)
    raw[spec.key] = typeof value === 'boolean' ? value
      : spec.read === 'numbers' ? (value as string).split(',').map(numberOrText)
        : spec.read === 'patterns' ? (value as string[]).flatMap((item) => item.split(',')).filter((item) => item !== '')
          : numberOrText(value as string)
  }
  return raw
}

/** A number where the text is one; otherwise the text, for the config schema to judge and name. */
function numberOrText(text: string): number | string {
  const n = Number(text)
  return text.trim() !== '' && Number.isFinite(n) ? n : text
}
