/**
 * What a config value must be, where schemastery's own types cannot say it,
 * and the error a person reads at load when a value breaks its type: the
 * option, the rule in words, and the value.
 */
import type Schema from '@deepseek-ai/schemastery'
import { name } from './name.ts'
import { Problem } from './problem.ts'
import { show } from './quote.ts'

/** Throw the error a person reads at load: the plugin, the rule broken and the value that broke it. */
export function reject(rule: string, value: unknown): never {
  throw new Problem(`${rule} (got ${show(value)})`, [name])
}

/**
 * What an option's error says of a bad value, after the option's name: of the value as a whole, and,
 * where a list's entry is judged apart, of the entry (then the entry is quoted, not the list).
 */
export interface Must {
  value: string
  entry?: string
}

/**
 * An option: its schemastery type with its default and description, what its error says, and, where
 * its type alone does not say it, how its flag is shown (`flags.ts`).
 */
export interface Option<T = unknown> {
  // biome-ignore lint/suspicious/noExplicitAny: what an option accepts is judged by `judge`, not by its type.
  schema: Schema<any, T>
  must: Must
  flag: FlagWords
}

/** How an option's flag is shown, where its type alone does not say it. */
export interface FlagWords {
  /** The placeholder help shows for its value. */
  arg?: string
  /**
   * For an option that is `true` or a list of tool patterns: the words of the boolean flag (named
   * after the option) and of the list's (named after it with `-tools`).
   */
  scoped?: { all: string; tools: string }
}

/** The values a config holds for the options `O`. */
export type Values<O> = { -readonly [K in keyof O]: O[K] extends Option<infer T> ? T : never }

/** An option of type `type`, with its default, the description every reader is shown, and its error words. */
export function option<T>(
  // biome-ignore lint/suspicious/noExplicitAny: as in Option.
  type: Schema<any, T>,
  fallback: T,
  description: string,
  must: Must,
  flag: FlagWords = {},
): Option<T> {
  return { schema: type.default(fallback as never).description(description), must, flag }
}

/**
 * Throw the option's own words for the first option in `given` that breaks its schemastery type, naming
 * the entry of a list where its {@link Must} has words for one. The types are judged here as schemastery
 * judges them, before schemastery resolves the values: its errors write a bad value out whole, which for
 * a huge or deeply shared structure costs more time and memory than a config may.
 */
export function judge(options: Readonly<Record<string, Option>>, given: Readonly<Record<string, unknown>>): void {
  for (const [key, value] of Object.entries(given)) {
    const { schema, must } = options[key]!
    const broken = breaks(schema, value)
    if (broken === undefined) continue
    if (broken.index !== undefined && must.entry !== undefined) {
      reject(`${key} ${must.entry}`, (value as unknown[])[broken.index])
    }
    reject(`${key} ${must.value}`, value)
  }
}

/**
 * Whether `value` breaks `schema`, for the types options are made of, and where: the list entry that
 * breaks it (a hole is an entry, and `undefined` breaks a required type), or the value itself.
 */
function breaks(schema: Schema, value: unknown): { index?: number } | undefined {
  const { meta, type } = schema
  const broken = (holds: boolean) => (holds ? undefined : {})
  if (value === undefined || value === null) return broken(!meta.required)
  if (type === 'boolean' || type === 'string') return broken(typeof value === type)
  if (type === 'number') {
    // Every number an option takes is a natural (`Schema.natural()`): whole, from a least value on.
    const { min, max = Infinity } = meta as { min: number; max?: number }
    return broken(Number.isInteger(value) && (value as number) >= min && (value as number) <= max)
  }
  if (type === 'const') return broken(value === schema.value)
  if (type === 'union') return broken((schema.list as Schema[]).some((inner) => breaks(inner, value) === undefined))
  if (type === 'transform') return breaks(schema.inner as Schema, value)
  // A type this judge does not know fails closed: an option of it is a mistake of the package, said at once.
  if (type !== 'array') throw new Problem(`an option's type is not one the config checks judge: ${type}`, [name])
  if (!Array.isArray(value) || value.length < (meta.min ?? 0)) return {}
  for (let index = 0; index < value.length; index++) if (breaks(schema.inner as Schema, value[index])) return { index }
  return undefined
}

/** Thresholds as the guard keeps them: sorted, each once. */
export function distinctSorted(thresholds: number[]): number[] {
  const sorted = [...thresholds].sort((a, b) => a - b)
  sorted.forEach((threshold, i) => {
    if (threshold === sorted[i - 1]) reject('thresholds must not repeat a value', threshold)
  })
  return sorted
}

/** `ignoreArguments` entries, each `<tool pattern>.<argument>` with both parts there. */
export function argumentEntries(entries: string[]): string[] {
  for (const entry of entries) {
    const dot = entry.lastIndexOf('.')
    const key = 'ignoreArguments entries'
    if (dot < 0) reject(`${key} must be <tool pattern>.<argument>, with a dot before the argument`, entry)
    if (dot === 0) reject(`${key} need a tool pattern before the dot (* for every tool)`, entry)
    if (dot === entry.length - 1) reject(`${key} need an argument name after the dot`, entry)
  }
  return entries
}
