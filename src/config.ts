/**
 * The plugin's name and config: the shared options (`options.ts`) and each
 * rule's (`rules/index.ts`) put together into one schema, with the cross-field
 * rules and unknown keys. `Config(raw)` alone validates: nothing else in the
 * package judges a config. The `Config` type is the schema's.
 */
import Schema from '@deepseek-ai/schemastery'
import { judge, type Option, reject } from './checks.ts'
import { name } from './name.ts'
import { type Shared, SHARED } from './options.ts'
import { Problem } from './problem.ts'
import { closest, show } from './quote.ts'
import { RULES, type RuleValues } from './rules/index.ts'

export { name } from './name.ts'

/** What an operator can set; every field has a default, and what each means is its schema's description. */
export type Config = Shared & RuleValues

/** Every option, shared ones first, then each rule's in the registry's order. */
const OPTIONS: Readonly<Record<string, Option>> = Object.assign({}, SHARED, ...RULES.map((entry) => entry.options))

/** The option names, in the order the schema lists them. */
export const KEYS = Object.keys(OPTIONS) as (keyof Config)[]

/** Every field with its schemastery type, default and description. */
export const fields = Schema.object(Object.fromEntries(KEYS.map((key) => [key, optionOf(key).schema])))

/** An option's declaration: its schema, its error words and its flag's. */
export function optionOf(key: keyof Config): Option {
  return OPTIONS[key] as Option
}

/** What an option means, as its schema describes it. */
export function meaning(key: keyof Config): string {
  return optionOf(key).schema.meta.description as string
}

/** An option's default, as its schema gives it. */
export function defaultOf(key: keyof Config): unknown {
  return optionOf(key).schema.meta.default
}

/**
 * The schema of {@link Config}: a bad value, an unknown key or a `blockAt` below
 * the last threshold throws at load with a message naming the field and value.
 */
export const Config: Schema<Partial<Config>, Config> = Schema.transform(Schema.any(), validate)
  .default({})
  .description('repeat-tool-reminder options; every field is optional.') as Schema<Partial<Config>, Config>

function validate(raw: unknown): Config {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) reject('config must be an object of options', raw)
  for (const key of Object.keys(raw)) {
    if (!Object.hasOwn(OPTIONS, key)) {
      const near = closest(key, KEYS)
      const hint = near === undefined ? '' : ` (did you mean ${JSON.stringify(near)}?)`
      throw new Problem(`unknown option ${show(key)}${hint}`, [name])
    }
  }
  const given: Record<string, unknown> = { ...raw }
  judge(OPTIONS, given)
  const config = fields(given) as Config
  const last = config.thresholds.at(-1) as number
  if (config.blockAt > 0 && config.blockAt < last)
    reject(`blockAt must be an integer at or above the last threshold (${last})`, config.blockAt)
  return config
}
