/**
 * Decoding one session log at a time with dsh's own JSONL backend, so a bad
 * file costs only itself: torn tails as the backend reads them, and plain
 * logs corrupt in the middle read around their bad lines. Nothing here writes.
 */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { Context } from '@deepseek-ai/cordis'
import SessionStore, { decodeStorageRecord, type SessionEvent, type SessionHeader } from '@deepseek-ai/dsh-session'
import JsonlSessionPersistence from '@deepseek-ai/dsh-session-persistence-jsonl'
import { Problem } from '../problem.ts'

/** One decoded session log. */
export interface Log {
  file: string
  meta: SessionHeader
  events: readonly SessionEvent[]
  /** A log whose tail was torn (a crash mid-write): how many of its bytes held the events read, of how many. */
  torn?: Torn
  /** A plain log with lines that cannot be read where readable ones follow: corruption, not a tear. */
  corrupt?: Corrupt
}

/** Where a plain log is corrupt, in 1-based lines (the header is line 1); the readable lines around them were read. */
export interface Corrupt {
  /**
   * The first line the backend could not take: unreadable, or with events that do not follow on
   * from those before (some are missing).
   */
  from: number
  /** The lines that cannot be read as events. */
  lines: number[]
}

/** Where a torn log's committed part ends: every complete event before it is read, nothing after. */
export interface Torn {
  afterBytes: number
  ofBytes: number
}

/** The backend's reader of one stored log, which this module calls directly (see {@link LogReader}). */
interface PrefixReader {
  readPrefix(
    path: string,
    expectedId: undefined,
  ): Promise<{ meta: SessionHeader; events: SessionEvent[]; tornMarker?: { truncateTo: number } }>
}

/** The most lines of a corrupt log the error names. */
const NAMED_LINES = 10

/**
 * Decodes logs with the JSONL backend's own reader, one per encoding: its
 * stored-prefix read (the same bytes-to-events path `inspect()` takes, torn
 * tails, packed chunk rows and format versions included), called per file. The
 * backend would first find a log by id under its root, scanning every project
 * folder, and insist that the file sits where its header says; replay reads the
 * file it was given instead, so that check is switched off on this private
 * instance. The command bundles this exact backend version, and the tests pin it.
 *
 * The backend reads a plain log up to its first line that cannot be read, and
 * calls the rest a torn tail (or refuses the log when a turn ended after it).
 * A tear ends a log; where readable lines follow the bad one, the log is
 * corrupt instead: the lines before it are read by the backend, each line
 * after it by dsh's own record decoder, and the bad lines are named.
 */
export class LogReader {
  private readonly contexts: Context[] = []
  private readonly readers = new Map<string, Promise<PrefixReader>>()
  /** Bytes the plain backend reads in place of a file's: the readable part of a corrupt log. */
  private readonly given = new Map<string, Buffer>()

  /** Decode one log file; throws with the backend's reason when it cannot. */
  async read(file: string): Promise<Log> {
    // Checked again right before reading, in case the file was replaced since it was found: only a
    // regular file is ever opened.
    const info = await stat(file)
    if (!info.isFile()) throw new Problem('not a regular file')
    const zstd = file.endsWith('.zstd')
    const reader = await this.reader(zstd ? 'zstd' : 'none')
    let prefix: Awaited<ReturnType<PrefixReader['readPrefix']>> | undefined
    try {
      prefix = await reader.readPrefix(file, undefined)
    } catch (error) {
      // A plain log with a bad line before a turn's end: looked at line by line below.
      if (zstd || !(error as Error).message.startsWith('corrupt session log: ')) throw error
    }
    const torn =
      prefix?.tornMarker === undefined ? undefined : { afterBytes: prefix.tornMarker.truncateTo, ofBytes: info.size }
    // The backend reads every complete event before a tear (of a zstd log, every complete frame,
    // and what the torn one still yields) and says where it is.
    if (prefix !== undefined && (torn === undefined || zstd))
      return { file, meta: prefix.meta, events: prefix.events, ...(torn === undefined ? {} : { torn }) }
    return (
      (await this.recover(file, reader, prefix)) ?? { file, meta: prefix!.meta, events: prefix!.events, torn: torn! }
    )
  }

  /**
   * Read a plain log whose backend read stopped at a line: when readable lines
   * follow it, the lines before the first bad one through the backend, then
   * every later line by itself; undefined when nothing readable follows (a tear).
   */
  private async recover(
    file: string,
    reader: PrefixReader,
    prefix: { meta: SessionHeader; events: SessionEvent[] } | undefined,
  ): Promise<Log | undefined> {
    const bytes = await readFile(file)
    const lines = completeLines(bytes)
    // The first line the backend would stop at: one that is no event row, or whose events do not follow on.
    let next = 0
    let stop = 1
    for (; stop < lines.length; stop++) {
      const events = eventsOf(lines[stop]!.text)
      if (events === undefined || events[0]!.seq !== next) break
      next += events.length
    }
    const after = lines.slice(stop).map((line, i) => ({ number: stop + i + 1, events: eventsOf(line.text) }))
    if (prefix !== undefined && after.every((line) => line.events === undefined)) return undefined
    // The backend reads the part before the stop as a whole log.
    this.given.set(file, bytes.subarray(0, lines[stop]?.start ?? bytes.length))
    let read: Awaited<ReturnType<PrefixReader['readPrefix']>>
    try {
      read = await reader.readPrefix(file, undefined)
    } finally {
      this.given.delete(file)
    }
    const events = [...read.events]
    const bad: number[] = []
    for (const line of after) {
      if (line.events === undefined) bad.push(line.number)
      else for (const event of line.events) events.push(event)
    }
    // A last line without its newline is torn, and cannot be read either.
    if (bytes.lastIndexOf(0x0a) + 1 < bytes.length) bad.push(lines.length + 1)
    return { file, meta: read.meta, events, corrupt: { from: stop + 1, lines: bad } }
  }

  /** Release the backends. */
  async close(): Promise<void> {
    for (const ctx of this.contexts) await ctx.fiber.dispose()
  }

  private reader(compression: 'zstd' | 'none'): Promise<PrefixReader> {
    let reader = this.readers.get(compression)
    if (reader === undefined) {
      reader = this.mount(compression)
      this.readers.set(compression, reader)
    }
    return reader
  }

  private async mount(compression: 'zstd' | 'none'): Promise<PrefixReader> {
    const ctx = new Context()
    this.contexts.push(ctx)
    await ctx.plugin(SessionStore)
    // A root that does not exist: this backend never lists, finds, creates or writes anything.
    await ctx.plugin(JsonlSessionPersistence, {
      root: join(tmpdir(), 'repeat-tool-reminder-replay-reads-no-root'),
      compression,
    })
    // Mounted just above and never withdrawn while this context lives.
    const backend = ctx.sessionPersistence as unknown as PrefixReader & {
      readStableFile(path: string, signal: unknown): Promise<{ buffer: Buffer }>
    }
    // Configurable, as a property of the traced service proxy must be to be replaced.
    Object.defineProperty(backend, 'assertStoredIdentity', { value: async () => {}, configurable: true })
    const readFileWhole = backend.readStableFile.bind(backend)
    Object.defineProperty(backend, 'readStableFile', {
      value: async (path: string, signal: unknown) => {
        const given = this.given.get(path)
        return given === undefined ? readFileWhole(path, signal) : { buffer: given, revision: undefined }
      },
      configurable: true,
    })
    return backend
  }
}

/**
 * A corrupt log's trouble as a phrase: `line 7 cannot be read`, `lines 7, 9 and 12 cannot be read`
 * (the first ten and how many more), or the line whose events do not follow on.
 */
export function corruption({ from, lines }: Corrupt): string {
  if (lines.length === 0) return `the events of line ${from} do not follow on from those before it (some are missing)`
  const shown = lines.slice(0, NAMED_LINES)
  const more = lines.length - shown.length
  const named =
    shown.length === 1
      ? `line ${shown[0]}`
      : more > 0
        ? `lines ${shown.join(', ')} and ${more} more`
        : `lines ${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`
  return `${named} cannot be read as events of the JSONL backend`
}

/** A plain log's newline-terminated lines, each with the byte it starts at, the header first. */
function completeLines(bytes: Buffer): { start: number; text: string }[] {
  const lines: { start: number; text: string }[] = []
  for (let start = 0, end = bytes.indexOf(0x0a); end >= 0; start = end + 1, end = bytes.indexOf(0x0a, start)) {
    lines.push({ start, text: bytes.subarray(start, end).toString('utf8') })
  }
  return lines
}

/** The events a log line holds, as dsh's record decoder reads them; undefined when it holds none that a log could. */
function eventsOf(text: string): SessionEvent[] | undefined {
  try {
    // One event per record, or a chunk row's members: the decoder never gives none.
    const events = decodeStorageRecord(JSON.parse(text)) as ({ type?: unknown; seq?: unknown } | null)[]
    return events.every((e) => typeof e?.type === 'string' && Number.isSafeInteger(e.seq))
      ? (events as SessionEvent[])
      : undefined
  } catch {
    return undefined
  }
}
