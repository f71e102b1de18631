/**
 * What a call does over time, for the rules about polling: whether it waits on
 * purpose (`waits`): a `bash` command in which some command sleeps for a
 * second or more, bounds another with `timeout`, or waits for background jobs
 * (`wait`), or a `job_output` read with `wait: true`; and whether a `bash`
 * command writes files (a redirection, `tee`), so that a changing answer may
 * be its own doing; and whether it asks the clock (`date`, `uptime`, …), whose
 * answer `maskNoise` must leave alone. Judged by the lexer: a command it does not read whole
 * neither waits nor writes here, and is judged as any other call.
 * Synchronous, nothing kept between calls.
 */
import { isRecord } from '../values.ts'
import { shellArguments } from './command.ts'
import { lex, type Simple } from './lexer.ts'

/** The tool that reads a background job's output: with `wait: true`, it blocks until the job ends. */
const JOB_READ = 'job_output'

/** The words that may stand before a command in a loop or a condition: `do sleep 5`. */
const KEYWORDS = new Set(['do', 'then', 'else', '!'])

/** What each suffix of a `sleep` duration multiplies its number by, in seconds; none is seconds. */
const UNITS = new Map([
  ['s', 1],
  ['m', 60],
  ['h', 3600],
  ['d', 86400],
])

/** Whether a call to `tool` with `args` waits on purpose. */
export function waits(tool: string, args: unknown): boolean {
  if (tool === JOB_READ) return isRecord(args) && args.wait === true
  // Most commands name none of the words: they are not lexed at all.
  const command = commandOf(tool, args, /sleep|wait|timeout/)
  return command !== undefined && (lex(command)?.some(({ words }) => waitsIn(words)) ?? false)
}

/** Whether a call to `tool` with `args` is a `bash` command that writes files: a redirection, or `tee`. */
export function writesFiles(tool: string, args: unknown): boolean {
  const command = commandOf(tool, args, />|tee/)
  const written = ({ words, writes }: Simple) => writes.length > 0 || words[0] === 'tee'
  return command !== undefined && (lex(command)?.some(written) ?? false)
}

/** The commands that answer what time it is: their times and dates are the answer, not noise. */
const CLOCKS = new Set<string | undefined>(['date', 'uptime', 'timedatectl', 'hwclock'])

/** Whether a call to `tool` with `args` is a `bash` command that asks the clock. */
export function asksTheClock(tool: string, args: unknown): boolean {
  const command = commandOf(tool, args, /date|uptime|clock/)
  return command !== undefined && (lex(command)?.some(({ words }) => CLOCKS.has(nameOf(words)[0])) ?? false)
}

/** The `bash` command of a call, when it holds a match of `mark`; undefined for any other call. */
function commandOf(tool: string, args: unknown, mark: RegExp): string | undefined {
  const command = shellArguments(tool, args)?.command
  return mark.test(command ?? '') ? command : undefined
}

/** A simple command's words from its name on: the keywords of a loop or a condition before it left out. */
function nameOf(words: readonly string[]): readonly string[] {
  return words.slice(words.findIndex((word) => !KEYWORDS.has(word)))
}

/** Whether one simple command waits: `sleep` for a second or more (every operand a duration), `timeout`, `wait`. */
function waitsIn(words: readonly string[]): boolean {
  const [name, ...operands] = nameOf(words)
  if (name === 'timeout' || name === 'wait') return true
  return name === 'sleep' && operands.reduce((total, operand) => total + seconds(operand), 0) >= 1
}

/**
 * The seconds a `sleep` operand stands for: `30`, `0.5`, `2m`; not a number (so no wait in all) for
 * one that is no duration as read here, digits and dots with an optional unit.
 */
function seconds(operand: string): number {
  const factor = UNITS.get(operand.slice(-1))
  const number = factor === undefined ? operand : operand.slice(0, -1)
  return /^[\d.]+$/.test(number) ? Number(number) * (factor ?? 1) : Number.NaN
}
