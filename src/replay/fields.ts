/**
 * The keys of a labels file's line as written: each top-level value's source
 * text, which `JSON.parse` does not keep, and a key written twice, which it
 * lets the later one win silently. For a line `JSON.parse` accepted as an
 * object; linear in its length, no recursion.
 */

/**
 * The source text of each top-level value of `source`, a JSON object's text
 * that `JSON.parse` accepted, by key; and the first key written twice, which
 * `JSON.parse` would have let the later one win silently.
 */
export function fields(source: string): { values: Map<string, string>; twice: string | undefined } {
  const values = new Map<string, string>()
  let twice: string | undefined
  // Past the opening brace: the line is trimmed, and JSON.parse read it as an object.
  let at = 1
  for (;;) {
    at = skipSpace(source, at)
    if (source[at] === ',') at = skipSpace(source, at + 1)
    if (source[at] === '}') return { values, twice }
    const keyEnd = endOfString(source, at)
    const key = JSON.parse(source.slice(at, keyEnd)) as string
    // Past the colon and the space around it.
    const start = skipSpace(source, skipSpace(source, keyEnd) + 1)
    const end = endOfValue(source, start)
    if (values.has(key)) twice ??= key
    values.set(key, source.slice(start, end))
    at = end
  }
}

/** Past the white space at `at`: a line holds no line feed, so spaces, tabs and carriage returns. */
function skipSpace(text: string, at: number): number {
  while (text[at] === ' ' || text[at] === '\t' || text[at] === '\r') at++
  return at
}

/** The index just past the string that opens at `at`. */
function endOfString(text: string, at: number): number {
  let i = at + 1
  while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1
  return i + 1
}

/**
 * The index just past the value that opens at `at`: a string, a container to its closing bracket,
 * or a literal or number to its end.
 */
function endOfValue(text: string, at: number): number {
  if (text[at] === '"') return endOfString(text, at)
  if (text[at] !== '{' && text[at] !== '[') {
    let i = at
    // A top-level literal ends at the comma or brace after it, or at white space.
    while (i < text.length && !',} \t\r'.includes(text.charAt(i))) i++
    return i
  }
  let depth = 0
  let i = at
  do {
    const c = text.charAt(i)
    if (c === '"') {
      i = endOfString(text, i)
      continue
    }
    if (c === '{' || c === '[') depth++
    else if (c === '}' || c === ']') depth--
    i++
  } while (depth > 0)
  return i
}
