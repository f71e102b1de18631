/**
 * Scratch folders for tests: made under the system's temporary folder and
 * removed when the test that made them finishes, so that repeated runs (a
 * mutation run is thousands) do not fill the disk. A test worker that is
 * killed (Stryker stops one at a timeout) cannot remove its folders, so each
 * is named for its process, and the first scratch folder a process makes
 * removes those of processes that have ended. Outside a test (the
 * benchmarks), the caller removes what it made.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'

/** Remove the `rtr-<pid>-…` folders in `root` whose process has ended; resolve to their names. */
export async function sweep(root: string): Promise<string[]> {
  const removed: string[] = []
  for (const name of await readdir(root)) {
    const owner = /^rtr-(\d+)-/.exec(name)
    if (owner === null || alive(Number(owner[1]))) continue
    await rm(join(root, name), { recursive: true, force: true })
    removed.push(name)
  }
  return removed.sort()
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

let swept: Promise<unknown> | undefined

/** A new empty folder named `rtr-<pid>-<label>-…`, removed after the current test. */
export async function scratch(label: string): Promise<string> {
  swept ??= sweep(tmpdir())
  await swept
  const dir = await mkdtemp(join(tmpdir(), `rtr-${process.pid}-${label}-`))
  try {
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
  } catch {
    // Not inside a test: the benchmark that asked removes it.
  }
  return dir
}
