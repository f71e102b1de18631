/**
 * A command line read strictly, replay's or the demo's: an option it does not
 * know, a value missing or one given to a flag, each said as a problem that
 * names the option and what it may have meant; and a config the plugin refuses,
 * said as a problem of the command.
 */
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util'
import { Problem } from '../problem.ts'
import { closest } from '../quote.ts'

/** What `build` returns; a config the plugin refuses, said as a problem of `command`. */
export function configured<T>(command: string, build: () => T): T {
  try {
    return build()
  } catch (error) {
    throw Problem.of(error).at(command)
  }
}

/** Flags a release renamed: the old name, and the one that took its place. */
const RENAMED: Record<string, string> = {
  '--preview': '--arguments-preview-chars (renamed in 0.3.0)',
}

/**
 * Parse a command line, replay's or the demo's, by `options` (strict,
 * positionals allowed); what `parseArgs` refuses, said as a problem of
 * `command` that names the option (and what it may have meant) and points to
 * the help.
 */
export function commandLine<const O extends ParseArgsOptionsConfig>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, strict: true, allowPositionals: true, options })
  } catch (error) {
    const { message } = error as Error
    // parseArgs quotes the option first in each of its messages: '--bogus', or '--top <value>'.
    const option = /'(-[^' ]+)/.exec(message)?.[1]
    const why = message.includes('argument missing')
      ? `${option} needs a value`
      : message.includes('does not take an argument')
        ? `${option} takes no value`
        : `unknown option ${option}${hint(option!, Object.keys(options))}`
    throw new Problem(`${why} (--help lists the options)`, [command])
  }
}

/** What an unknown option may have meant: the name a renamed flag took, or a known option spelt closely. */
function hint(option: string, known: readonly string[]): string {
  if (Object.hasOwn(RENAMED, option)) return `: it is now ${RENAMED[option]}`
  const near = closest(option.replace(/^--?/, ''), known)
  return near === undefined ? '' : `: did you mean --${near}?`
}
