/**
 * `--config FILE`: the config a user's profile runs, read from a file's text,
 * so that replay judges their sessions with the very config their agents had.
 * The text is a dsh profile's `cordis.patch.yml` (a list of patches, applied
 * over dsh-base's row for this plugin by dsh's own patch function, so a patch's
 * `config` replaces the row's whole config), or one config object, in YAML or
 * JSON. Either is read in dsh's YAML dialect: the JSON schema (no merge keys,
 * no timestamps) and `!!js` expressions, which replay cannot evaluate. The
 * value is left for {@link Config} to judge, as the plugin judges it at load.
 * Bounded for any text: what aliases expand to is counted before anything
 * walks the value.
 */
import { composeEntries } from '@deepseek-ai/dsh-app-boot'
import yaml from 'js-yaml'
import { isRecord } from '../values.ts'
import { name } from '../config.ts'
import { closest } from '../quote.ts'
import pkg from '../../package.json' with { type: 'json' }
import { Problem } from '../problem.ts'

/**
 * The most a config may expand to, counted as one per value plus the length
 * of every text and object key, each time an alias repeats it: a config is a
 * few hundred of these, a profile's patch file a few thousand.
 */
const EXPANDED = 1 << 18

/** How deep values may nest in a config file. */
const DEPTH = 64

/** What a `!!js` expression reads as: dsh keeps its source, to evaluate when it starts. */
const JS = Symbol('!!js')

/** dsh's YAML dialect for entry lists and patches: the JSON schema and `!!js` scalars. */
const DIALECT = yaml.JSON_SCHEMA.extend(
  new yaml.Type('tag:yaml.org,2002:js', {
    kind: 'scalar',
    construct: (source: string) => ({ [JS]: source }),
  }),
)

/** The keys of a loader patch entry (`PatchOptions` in `@deepseek-ai/cordis-plugin-include`). */
const PATCH_KEYS = ['id', 'insert', 'name', 'config', 'group', 'disabled', 'inject', 'intercept', 'isolate']

/**
 * Refuse what is most likely a typo that would make dsh run this plugin's defaults without a word:
 * a patch whose id is this plugin's name misspelt, or a key of this plugin's patch that is a patch
 * key misspelt (`configs:`).
 */
function misspelt(patch: Record<string, unknown>, i: number): void {
  const { id } = patch
  if (typeof id === 'string' && id !== name && closest(id, [name]) !== undefined)
    throw new Problem(`patch ${i + 1} has id ${JSON.stringify(id)}, which names no row (did you mean "${name}"?)`)
  if (id !== name) return
  for (const key of Object.keys(patch)) {
    const near = PATCH_KEYS.includes(key) ? undefined : closest(key, PATCH_KEYS)
    if (near !== undefined)
      throw new Problem(`patch ${i + 1} has key ${JSON.stringify(key)}, which dsh ignores (did you mean "${near}"?)`)
  }
}

/** Whether an inserted row is this plugin's. */
const names = (row: unknown) => isRecord(row) && row.id === name

/** dsh-base's row for this plugin, as its `cordis.patch.yml` inserts it (0.1.0-rc.8). */
const BASE_ROW = { id: name, name: pkg.name, config: { thresholds: [3, 5, 8], argumentsPreviewChars: 500 } }

/**
 * The raw config `text` gives this plugin. Throws a sentence naming what is
 * wrong: a text that is not YAML or JSON, one that expands too far or nests too
 * deep, a `!!js` expression, a patch that is no mapping, a patch list with no
 * patch for this plugin (most likely the wrong file), a profile that disables
 * the plugin, a row whose config is not an object, a value that is neither a
 * config nor a patch list.
 */
export function configFrom(text: string): Record<string, unknown> {
  let value: unknown
  try {
    value = yaml.load(text, { schema: DIALECT })
  } catch (error) {
    // js-yaml's message is a line, then the lines it quotes.
    throw new Problem(`not YAML or JSON: ${(error as Error).message.split('\n')[0]}`)
  }
  measure(value)
  if (isRecord(value)) return value
  if (!Array.isArray(value))
    throw new Problem(
      `holds neither a config object nor a list of profile patches (got ` +
        `${value === undefined ? 'nothing' : JSON.stringify(value)})`,
    )
  value.forEach((patch, i) => {
    if (!isRecord(patch))
      throw new Problem(`patch ${i + 1} is not a mapping (a loader patch entry), which dsh refuses at start`)
    misspelt(patch, i)
  })
  if (!value.some((patch) => patch.id === name || (Array.isArray(patch.insert) && patch.insert.some(names))))
    throw new Problem(
      `has no patch for ${name}: that profile runs the row's defaults, which replay uses without --config`,
    )
  // dsh's own patch function, over the row dsh-base gives this plugin; a patch for another row, or
  // one naming another package for this row, changes nothing here (dsh warns of it at start).
  const rows = composeEntries([[{ insert: [BASE_ROW] }], value as never]) as unknown as Record<string, unknown>[]
  const row = rows.findLast((r) => r.id === name)!
  if (row.disabled === true)
    throw new Problem(`disables ${name} (disabled: true): that profile runs no guard to replay`)
  // A config left empty (null) is the defaults, as the plugin's schema takes it; YAML has no
  // undefined, and the base row has a config.
  if (row.config === null) return {}
  if (!isRecord(row.config))
    throw new Problem(
      `patches ${name} with a config that is not an object of options (got ${JSON.stringify(row.config).slice(0, 80)})`,
    )
  return row.config
}

/**
 * Walk what `value` expands to, aliases counted each time they are used, and
 * throw as soon as it is more than {@link EXPANDED}, nests deeper than
 * {@link DEPTH}, or holds a `!!js` expression. Stops at the bound, so an alias
 * bomb costs what the bound does.
 */
function measure(value: unknown): void {
  let size = 0
  const work: [unknown, number][] = [[value, 0]]
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    const [item, depth] = next
    size += typeof item === 'string' ? item.length + 1 : 1
    if (size > EXPANDED)
      throw new Problem(
        `expands to more than ${EXPANDED.toLocaleString('en-US')} values ` +
          `and characters (YAML aliases count each time they are used); a config ` +
          `is a few hundred`,
      )
    if (typeof item !== 'object' || item === null) continue
    if (depth === DEPTH) throw new Problem(`nests values more than ${DEPTH} levels deep; a config nests two`)
    if (JS in item)
      throw new Problem(
        `holds a !!js expression (${JSON.stringify(String(item[JS])).slice(0, 80)}), ` +
          `which dsh evaluates when it starts; replay takes plain values only`,
      )
    // An object's keys count as text; a list's indexes are not written.
    for (const [key, child] of Object.entries(item)) {
      if (!Array.isArray(item)) size += key.length
      work.push([child, depth + 1])
    }
  }
}
