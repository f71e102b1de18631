/**
 * How a line of the commands' output fits the terminal: the widest line, and how a longer one
 * wraps. Used by replay's report and by the help the flags print. Pure.
 */

/** The widest line the command prints, in characters: a longer one is wrapped, its continuation indented. */
export const WIDTH = 100

/**
 * A line cut into lines of at most `width` characters: at the last space that
 * fits, or in the middle of a word longer than a line; each continuation is
 * indented `hang` more than the line it continues.
 */
export function wrap(line: string, width: number, hang = 4): [...string[], string] {
  const indent = ' '.repeat(line.length - line.trimStart().length + hang)
  const out: string[] = []
  let rest = line
  let lead = ''
  while (lead.length + rest.length > width) {
    const room = width - lead.length
    const space = rest.lastIndexOf(' ', room)
    // A break inside the leading indentation would leave an empty line: cut the word instead.
    const cut = space > rest.length - rest.trimStart().length ? space : room
    out.push(lead + rest.slice(0, cut))
    rest = rest.slice(cut).trimStart()
    lead = indent
  }
  return [...out, lead + rest]
}
