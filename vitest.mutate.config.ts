import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.ts'

// What `npm run mutate` runs for each mutant: every suite but the one that builds and installs the package.
export default mergeConfig(base, defineConfig({ test: { exclude: ['tests/package.test.ts', 'node_modules/**'] } }))
