/**
 * `npm run lint`'s size check on `src/`: no file over 250 lines and no function over 60, so that a
 * reader sees a module's job and a function whole. Prints each one over as `file:line (n lines)`
 * and exits 1 when there is one.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

const ROOT = join(import.meta.dirname, '..')
const MOST_LINES = 250
const MOST_FUNCTION_LINES = 60

const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.ts'))
  .map((name) => join('src', name))
const over: string[] = []
for (const file of files) {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
  if (lines > MOST_LINES) over.push(`${file} (${lines} lines, at most ${MOST_LINES})`)
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const line = (at: number) => source.getLineAndCharacterOfPosition(at).line
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const length = line(node.getEnd()) - line(node.getStart()) + 1
      if (length > MOST_FUNCTION_LINES)
        over.push(
          `${file}:${line(node.getStart()) + 1} (a function of ${length} lines, at most ${MOST_FUNCTION_LINES})`,
        )
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
}
if (over.length > 0) {
  console.error(`Over the size limits:\n${over.join('\n')}`)
  process.exitCode = 1
}
