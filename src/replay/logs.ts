/**
 * Finding session logs. A path names one log, or a folder searched for
 * `session.jsonl` and `session.jsonl.zstd` without following symlinks; only
 * regular files are read, each log once however it was named; a file of
 * another name is told apart from a log under the wrong name. Decoding is
 * `reader.ts`'s. Nothing here writes.
 */
import type { Dirent } from 'node:fs'
import { open, readdir, stat } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import { FAILED, Problem, sentence } from '../problem.ts'

const TRANSCRIPTS = new Set(['session.jsonl', 'session.jsonl.zstd'])

/** Where a path's logs were found, and what could not be read on the way, each a problem of its path. */
export interface Found {
  files: string[]
  problems: Problem[]
}

/**
 * The logs the paths name, sorted within each path and each listed once by its
 * identity on disk (device and inode): a path with a log's name, or every entry
 * with a log's name below a folder, searched without following symlinks. A
 * folder holding both encodings of a log is reported, not read.
 */
export async function discover(paths: readonly string[]): Promise<Found> {
  const files: string[] = []
  const problems: Problem[] = []
  // A log is itself by its identity on disk, so a hard link or a symlink named on the command line is read once.
  const seen = new Set<string>()
  const add = async (file: string) => {
    const { dev, ino } = await stat(file, { bigint: true })
    const identity = `${dev}:${ino}`
    if (seen.has(identity)) return
    seen.add(identity)
    files.push(file)
  }
  for (const path of paths) {
    try {
      const info = await stat(path)
      if (info.isDirectory()) {
        const found: string[] = []
        const before = problems.length
        await walk(resolve(path), found, problems)
        if (found.length === 0 && problems.length === before) {
          problems.push(failure(path, 'no session.jsonl or session.jsonl.zstd below this directory'))
        }
        for (const file of found.sort()) await add(file)
      } else if (!TRANSCRIPTS.has(basename(path))) {
        // Only a regular file is ever opened, to see what it holds: a FIFO would never answer.
        problems.push(failure(path, info.isFile() ? await misnamed(path) : NOT_A_LOG))
      } else {
        // Anything but a regular file is refused when it is read (see LogReader.read).
        await add(resolve(path))
      }
    } catch (error) {
      problems.push(failure(path, sentence(error)))
    }
  }
  return { files, problems }
}

/** An input that could not be read, a problem of its path. */
function failure(path: string, what: string): Problem {
  return new Problem(what, [path], FAILED)
}

const NOT_A_LOG = 'not a session log of the JSONL backend (session.jsonl or session.jsonl.zstd)'

/** The zstd frame magic number, little-endian, that opens every zstd log. */
const ZSTD_MAGIC = 0xfd2fb528

/**
 * Why a file with another name than a log's is not read: its content is a log under the wrong name,
 * or it is no log.
 */
async function misnamed(path: string): Promise<string> {
  const head = Buffer.alloc(4096)
  const file = await open(path, 'r')
  let read: number
  try {
    read = (await file.read(head, 0, head.length, 0)).bytesRead
  } finally {
    await file.close()
  }
  const compression =
    read >= 4 && head.readUInt32LE(0) === ZSTD_MAGIC
      ? 'session.jsonl.zstd'
      : isHeaderLine(head.subarray(0, read))
        ? 'session.jsonl'
        : undefined
  return compression === undefined
    ? NOT_A_LOG
    : `its content looks like a session log, but only a file named ${compression} ` +
        `is read as one (dsh keeps each session's log under that name): rename it`
}

/** Whether bytes open with a session header line: a JSON object of type "session" on the first line. */
function isHeaderLine(bytes: Buffer): boolean {
  const end = bytes.indexOf(0x0a)
  try {
    const first = JSON.parse(bytes.subarray(0, end < 0 ? bytes.length : end).toString('utf8')) as { type?: unknown }
    // A primitive has no type; null's throws, into the catch.
    return first.type === 'session'
  } catch {
    return false
  }
}

/** Collect the logs below `dir`: each entry looked at once, symlinks never followed. */
async function walk(dir: string, found: string[], problems: Problem[]): Promise<void> {
  let entries: Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (error) {
    problems.push(failure(dir, sentence(error)))
    return
  }
  const logs = entries.filter((entry) => !entry.isSymbolicLink() && TRANSCRIPTS.has(entry.name))
  if (logs.length > 1) {
    problems.push(
      failure(
        dir,
        "holds both session.jsonl and session.jsonl.zstd; dsh's JSONL backend " +
          'refuses such a session folder, so neither is replayed (keep the ' +
          'one dsh wrote last)',
      ),
    )
  } else {
    // A log's name on anything but a regular file (a folder, a FIFO) is refused when it is read.
    for (const entry of logs) found.push(join(dir, entry.name))
  }
  for (const entry of entries) {
    if (!entry.isSymbolicLink() && !TRANSCRIPTS.has(entry.name) && entry.isDirectory())
      await walk(join(dir, entry.name), found, problems)
  }
}
