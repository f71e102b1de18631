import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { defineConfig } from 'tsup'

/**
 * The harness packages read their own version as
 * `createRequire(import.meta.url)("../package.json")`: inline it, as a bundle has no such file
 * beside it.
 */
const inlineOwnVersion = {
  name: 'inline-own-version',
  setup(build: {
    onLoad(
      options: { filter: RegExp },
      load: (args: { path: string }) => Promise<{ contents: string; loader: 'js' } | undefined>,
    ): void
  }) {
    build.onLoad({ filter: /node_modules[\\/]@deepseek-ai[\\/][^\\/]+[\\/]lib[\\/][^\\/]+\.js$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8')
      const read = 'createRequire(import.meta.url)("../package.json")'
      if (!source.includes(read)) return undefined
      const { version } = JSON.parse(await readFile(join(dirname(path), '..', 'package.json'), 'utf8')) as {
        version: string
      }
      return { contents: source.replace(read, JSON.stringify({ version })), loader: 'js' }
    })
  },
}

export default defineConfig([
  // The plugin and its companion share the host's harness packages: every import stays external.
  {
    entry: { index: 'src/index.ts', invariant: 'src/invariant.ts' },
    format: ['esm'],
    target: 'node22',
    outDir: 'lib',
    dts: true,
    sourcemap: true,
  },
  // The replay command carries what it reads logs with, so it runs wherever the package lands
  // (npx, a dsh profile) without the optional peers. koffi is the JSONL backend's Windows-only import.
  {
    entry: { 'replay/cli': 'src/replay/cli.ts' },
    format: ['esm'],
    target: 'node22',
    platform: 'node',
    outDir: 'lib',
    noExternal: [/^(?!koffi$)/],
    external: ['koffi'],
    esbuildPlugins: [inlineOwnVersion],
    sourcemap: true,
  },
])
