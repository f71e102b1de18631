/**
 * A dsh profile's rows as dsh composes them, read and patched by dsh's own
 * code: the base bundle's patch (a copy of dsh-base 0.1.0-rc.8 in
 * tests/fixtures), then a user's layer written to a profile's `cordis.patch.yml`.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { composeEntries, loadOptionalPatches, loadOverlayPatches } from '@deepseek-ai/dsh-app-boot'
import { scratch } from '../../support/scratch.ts'

/** One composed row of a profile's `cordis.yml`. */
export type Row = { id?: string; name?: string; config?: Record<string, unknown>; disabled?: boolean }

/** A bundle's patch as tests/fixtures holds it: `dsh-base`, or `dsh-headless`, the layer a headless profile adds. */
const bundle = (name: string) =>
  loadOverlayPatches('dsh', join(import.meta.dirname, '..', 'fixtures', name, 'cordis.patch.yml'))

/**
 * The profile's rows with `userLayer` as its `cordis.patch.yml`, over dsh-base (and, for a headless profile,
 * dsh-headless); throws on any warning dsh's patch layer gives.
 */
export async function compose(userLayer: string, headless = false): Promise<Row[]> {
  const bundles = headless ? [bundle('dsh-base'), bundle('dsh-headless')] : [bundle('dsh-base')]
  const file = join(await scratch('profile'), 'cordis.patch.yml')
  await writeFile(file, userLayer)
  const warnings: string[] = []
  const rows = composeEntries([...bundles, loadOptionalPatches('dsh', file)!], (message) =>
    warnings.push(message),
  ) as Row[]
  if (warnings.length > 0) throw new Error(`dsh's patch layer warned: ${warnings.join('; ')}`)
  return rows
}

/** The row with `id`; throws when the composition has none. */
export function row(rows: readonly Row[], id: string): Row {
  const found = rows.find((r) => r.id === id)
  if (found === undefined) throw new Error(`no row ${id} in the composed profile`)
  return found
}

/** Every `cordis.patch.yml` snippet `file` (a README) shows a dsh user, in order, taken back to column 0. */
export async function readmeSnippets(file: string): Promise<string[]> {
  const text = await readFile(join(import.meta.dirname, '..', '..', file), 'utf8')
  return [...text.matchAll(/```yaml\n( *)(# ~\/\.dsh\/profiles\/<name>\/cordis\.patch\.yml\n[\s\S]*?)```/g)].map(
    ([, indent, body]) => body!.replace(new RegExp(`^${indent}`, 'gm'), ''),
  )
}

/** The YAML block of `file` (a README) that turns dsh's HMR row on, taken back to column 0. */
export async function readmeHmrSnippet(file: string): Promise<string> {
  const text = await readFile(join(import.meta.dirname, '..', '..', file), 'utf8')
  const [, indent, body] = /```yaml\n( *)(- id: hmr\n[\s\S]*?)```/.exec(text)!
  return body!.replace(new RegExp(`^${indent}`, 'gm'), '')
}
