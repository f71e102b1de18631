/**
 * How a line of the commands' output fits the terminal: the widest line, and how a longer one
 * wraps. Used by replay's report and by the help the commands print. Pure.
 */

/** The widest line the command prints where no terminal says its width (a pipe, a file), in characters. */
export const WIDTH = 100

/** The narrowest and widest a terminal's width is taken to be: the help's flag column needs room beside it. */
const NARROWEST = 60
const WIDEST = 200

/** The width to print at: a terminal's own `columns`, within bounds; {@link WIDTH} where there is none. */
export function widthOf(columns: number | undefined): number {
  const given = columns ?? 0
  return given > 0 ? Math.min(Math.max(given, NARROWEST), WIDEST) : WIDTH
}

/**
 * A line cut into lines of at most `width` characters, at the last space that fits; each
 * continuation is indented `hang` more than the line it continues. A word longer than a line (a
 * file's path) is never cut: it stands whole on a line of its own, longer than `width`.
 */
export function wrap(line: string, width: number, hang = 4): [...string[], string] {
  const indent = ' '.repeat(line.length - line.trimStart().length + hang)
  const out: string[] = []
  let rest = line
  let lead = ''
  while (lead.length + rest.length > width) {
    const start = rest.length - rest.trimStart().length
    const space = rest.lastIndexOf(' ', width - lead.length)
    // No space that fits past the leading indentation: the line ends after its first word.
    const cut = space > start ? space : rest.indexOf(' ', start)
    if (cut === -1) break
    out.push(lead + rest.slice(0, cut))
    rest = rest.slice(cut).trimStart()
    lead = indent
  }
  return [...out, lead + rest]
}
