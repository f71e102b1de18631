/**
 * `--config FILE`: the config a user's profile runs, read from a file, so that
 * replay judges their sessions with the very config their agents had. The file
 * is a dsh profile's `cordis.patch.yml` (a list of patches: this plugin's row
 * is patched as dsh patches it, each patch's keys replacing the row's, so its
 * `config` replaces the row's whole config), or one config object, in YAML or
 * JSON. The value is left for {@link Config} to judge, as the plugin judges it
 * at load. Reads one file; writes nothing.
 */
import { readFile } from 'node:fs/promises'
import yaml from 'js-yaml'
import { isRecord } from '../arguments.ts'
import { name } from '../config.ts'

/**
 * The raw config `file` gives this plugin. Throws a sentence naming what is
 * wrong: a file that cannot be read or parsed, a profile that disables the
 * plugin, a row whose config is not an object, a value that is neither.
 */
export async function configFile(file: string): Promise<Record<string, unknown>> {
  const text = new TextDecoder().decode(await readFile(file))
  let value: unknown
  try {
    value = yaml.load(text)
  } catch (error) {
    throw new Error(`not YAML or JSON: ${(error as Error).message.split('\n')[0]}`)
  }
  if (isRecord(value)) return value
  if (!Array.isArray(value)) throw new Error(`holds neither a config object nor a list of profile patches (got ${JSON.stringify(value) ?? String(value)})`)
  // dsh-base's row for this plugin, patched in order as dsh's patch layer does: each patch's keys replace the row's.
  const row: Record<string, unknown> = { config: {} }
  for (const patch of value) {
    if (!isRecord(patch) || patch.id !== name || patch.insert !== undefined) continue
    Object.assign(row, patch)
  }
  if (row.disabled === true) throw new Error(`disables ${name} (disabled: true): that profile runs no guard to replay`)
  if (!isRecord(row.config)) throw new Error(`patches ${name} with a config that is not an object of options (got ${JSON.stringify(row.config)})`)
  return row.config
}
