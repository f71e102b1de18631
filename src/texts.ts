/**
 * The words every kind of loop shares: how a text names the arguments that
 * were compared, a run that resumed and results that repeated; the feedback
 * that replaces a withheld result of an identical run or a cycle; and how
 * every withheld feedback begins. Each rule's own texts are in its module.
 */
import { ignoredKeys } from './arguments.ts'
import { name } from './name.ts'
import type { Measure } from './rules/rule.ts'

/**
 * How a text words a loop beyond its tools and length: arguments left out of the comparison, a run
 * resumed after other calls, results that repeated too, and whether the call ran.
 */
export interface Wording {
  /** The arguments of the call that were not compared, named in the text. */
  omitted?: readonly string[]
  /** The run went on after other calls. */
  resumed?: boolean
  /** The results repeated too (`resultAware`). */
  sameResults?: boolean
  /** For a withheld result: whether the call ran (false: denied before it could). Yes by default. */
  ran?: boolean
}

/**
 * The wording a loop needs: the arguments its calls carry but were not compared, whether it
 * resumed, whether the results repeated too.
 */
export function wording(loop: Measure): Wording {
  const omitted = [...new Set(loop.calls.flatMap((c) => ignoredKeys(c.args, c.ignored)))].sort()
  return { omitted, resumed: loop.resumed, sameResults: loop.calls.every((c) => c.outcome !== undefined) }
}

/** How a text says the arguments were the same: identical, naming the ones not compared. */
export function identical({ omitted = [] }: Wording): string {
  if (omitted.length === 0) return 'identical arguments'
  return `identical arguments (not counting ${omitted.map((key) => `\`${key}\``).join(', ')})`
}

/** How a text says the calls followed each other: in a row, or coming back after other calls. */
export function inARow({ resumed = false }: Wording): string {
  return resumed ? ', coming back to it after other calls,' : ' in a row'
}

/** How every withheld result's feedback begins: what replay recognises one in a log by. */
export const WITHHELD_PREFIX = `Result withheld by ${name}: `

/** What the withheld feedback of a call denied before it ran says of it. */
export const NOT_RUN = 'This time the call was not run, so whatever it does has not happened again.'

/** What the withheld feedback of a call that ran says of it. */
const RAN = 'The call did run, but its result is not shown again.'

/**
 * What the model gets instead of a result that `blockAt` withholds from an identical run or a
 * cycle: of a call that ran, or (`ran` false) of one denied before it could.
 */
export function withheldFeedback(tools: string[], length: number, wording: Wording = {}): string {
  const { sameResults = false, ran = true } = wording
  const same = sameResults ? ' and identical results' : ''
  const what =
    tools.length === 1
      ? `you have made this exact call to \`${tools[0]}\` ${length} times${inARow(wording)} ` +
        `with ${identical(wording)}${same}`
      : `you have repeated the same sequence of calls (${tools.join(' → ')}) ` +
        `${length} times in a row with ${identical(wording)}${same}`
  return (
    `${WITHHELD_PREFIX}${what}, and the repeats are making no progress. ` +
    (ran ? RAN : NOT_RUN) +
    ' Do not repeat it with the same arguments: ' +
    'use the results you already have, take a different action or different arguments, or finish.'
  )
}

/** The withheld feedback of a loop whose calls are its tools in order: an identical run's or a cycle's. */
export function withheldLoop(loop: Measure, ran: boolean): string {
  return withheldFeedback(
    loop.calls.map((c) => c.tool),
    loop.length,
    { ...wording(loop), ran },
  )
}

/**
 * Whether a withheld feedback text is that of a call denied before it ran; undefined when the text
 * is no withheld feedback.
 */
export function deniedBeforeRunning(text: string): boolean | undefined {
  if (!text.startsWith(WITHHELD_PREFIX)) return undefined
  return text.includes(NOT_RUN)
}
