/**
 * How the plugin and its command say what is wrong: one error type, a
 * {@link Problem}, thrown where the wrong thing is found, and said as a sentence
 * in one place, its message. A problem names what is wrong, the places it was
 * found in (outermost first: the plugin or the command, a file, a line), and
 * the exit status a command ends with for it. A place is added on the way out,
 * never parsed back out of a message.
 */

/** The exit status of a command refused outright: bad options, a bad config or labels file. */
const REFUSED = 2

/** The exit status of a command some of whose inputs could not be read whole. */
export const FAILED = 1

/** What is wrong, where, and the exit status a command ends with for it. */
export class Problem extends Error {
  /** What is wrong, without where. */
  readonly what: string
  /** Where it was found, outermost first. */
  readonly where: readonly string[]
  /** The exit status a command ends with for it. */
  readonly status: number

  constructor(what: string, where: readonly string[] = [], status = REFUSED) {
    super([...where, what].join(': '))
    this.what = what
    this.where = where
    this.status = status
  }

  /**
   * Any error as a problem: a problem as it is (one from another copy of this package too, such as the
   * built plugin a host loaded), any other error by its {@link sentence}.
   */
  static of(error: unknown, status = REFUSED): Problem {
    if (error instanceof Problem) return error
    const { what, where, status: its } = error as Partial<Problem>
    if (typeof what === 'string' && Array.isArray(where) && typeof its === 'number')
      return new Problem(what, where, its)
    return new Problem(sentence(error), [], status)
  }

  /** The same problem, found inside `place`. */
  within(place: string): Problem {
    return new Problem(this.what, [place, ...this.where], this.status)
  }

  /** The same problem said of `place` instead of where it was found (a config file, not the plugin). */
  at(place: string): Problem {
    return new Problem(this.what, [place], this.status)
  }
}

/** What the file system's error codes mean, as a reader of the report needs it. */
const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied: this user may not read it',
  EPERM: 'operation not permitted: this user may not read it',
  ENOTDIR: 'a part of the path is not a folder',
  ELOOP: 'too many symbolic links in a row',
  ENAMETOOLONG: 'the path is too long',
  EMFILE: 'too many files open at once',
  EIO: 'the disk could not be read (an I/O error)',
}

/**
 * What went wrong, in a few words: a file system error by what it means (never Node's message),
 * any other error by its message.
 */
export function sentence(error: unknown): string {
  const { code, message } = error as { code?: unknown; message: string }
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return message
  return FILE_ERRORS[code] ?? `it cannot be read (${code})`
}
