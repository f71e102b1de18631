/**
 * The README's recommended config, read from its first profile patch as
 * `replay --config` reads one: the one place the benchmarks take it from.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Config } from '../src/config.ts'
import { configFrom } from '../src/replay/profile.ts'

/** The config the README recommends, validated. */
export function readmeConfig(): Config {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
  const [, indent, body] = /```yaml\n( *)(# ~\/\.dsh\/profiles\/<name>\/cordis\.patch\.yml\n[\s\S]*?)```/.exec(readme)!
  return Config(configFrom(body!.replace(new RegExp(`^${indent}`, 'gm'), '')))
}
