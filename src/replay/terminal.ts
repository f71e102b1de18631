/** Stderr as the replay command uses it: one line per failure, and a progress line. */
import type { Problem } from '../problem.ts'
import { REPLAY } from './options.ts'
import { printable } from './text.ts'

/** Where the command writes, and whether stderr is a terminal that can show progress. */
export interface Io {
  out(text: string): void
  err(text: string): void
  progress: boolean
  /** The terminal's width, where stdout is one: the help and the report wrap to it. */
  columns?: number | undefined
}

/** Stderr as the command uses it: one line per failure, and a progress line that a failure or the end clears. */
export class Terminal {
  /** Every input that failed, and why. */
  readonly errors: { path: string; reason: string }[] = []
  readonly io: Io
  private shown = false

  constructor(io: Io) {
    this.io = io
  }

  /** Report an input that failed, a problem of its path, on a line of its own. */
  readonly fail = (problem: Problem): void => {
    const [path, ...inside] = problem.where
    this.errors.push({ path: path!, reason: [...inside, problem.what].join(': ') })
    // A progress line on the terminal is cleared first, so the error gets a line of its own.
    if (this.shown) this.io.err('\r\u001b[2K')
    this.io.err(`${printable(problem.within(REPLAY).message)}\n`)
  }

  /** Show how far a pass has come, over the last progress line. */
  progress(text: string): void {
    this.io.err(`\r${text}`)
    this.shown = true
  }

  /** End the progress line, if one is shown. */
  endProgress(): void {
    if (this.shown) this.io.err('\n')
    this.shown = false
  }
}
