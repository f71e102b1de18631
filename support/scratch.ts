/**
 * Scratch folders for tests: made under the system's temporary folder and
 * removed when the test that made them finishes, so that repeated runs (a
 * mutation run is thousands) do not fill the disk. Outside a test (the
 * benchmarks), the caller removes what it made.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'

/** A new empty folder named `rtr-<label>-…`, removed after the current test. */
export async function scratch(label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `rtr-${label}-`))
  try {
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
  } catch {
    // Not inside a test: the benchmark that asked removes it.
  }
  return dir
}
