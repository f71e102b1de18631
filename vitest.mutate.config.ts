import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.ts'

// What `npm run mutate` runs for each mutant: every suite but the one that builds and installs the package,
// and the one that holds the ledger to the lines of src/, which Stryker's sandbox holds instrumented.
// Instrumented code runs several times slower, so a test gets 30 s instead of 5 before it counts as failed.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ['tests/package.test.ts', 'tests/mutant-excuses.test.ts', 'node_modules/**'],
      testTimeout: 30_000,
    },
  }),
)
