/** Files a test writes for the command to read, in scratch folders removed after the test. */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { scratch } from '../../support/scratch.ts'

/** A file named `name` with `text`, in a scratch folder labelled `label`. */
export async function scratchFile(label: string, name: string, text: string): Promise<string> {
  const path = join(await scratch(label), name)
  await writeFile(path, text)
  return path
}
