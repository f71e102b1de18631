import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/invariant.ts', 'src/replay/cli.ts'],
  format: ['esm'],
  target: 'node22',
  outDir: 'lib',
  dts: true,
  clean: true,
  sourcemap: true,
})
