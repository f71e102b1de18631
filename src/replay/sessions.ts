/**
 * Finding and decoding session logs: which files a path names, and their
 * headers and events, read through the harness's own JSONL persistence backend
 * without writing anything.
 */
import { readdir, stat } from 'node:fs/promises'
import { basename, dirname, resolve } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import SessionStore, { type SessionEvent, type SessionHeader } from '@deepseek-ai/dsh-session'
import JsonlSessionPersistence from '@deepseek-ai/dsh-session-persistence-jsonl'

const TRANSCRIPTS = new Set(['session.jsonl', 'session.jsonl.zstd'])

/** Why reading a path failed, in a few words. */
export function reason(error: unknown): string {
  const { code, message } = error as { code?: string, message: string }
  return code === 'ENOENT' ? 'no such file or directory' : message
}

/** The session transcripts a path names: the file itself, or every transcript below a directory. */
export async function discover(path: string): Promise<string[]> {
  const info = await stat(path)
  if (info.isFile()) {
    if (!TRANSCRIPTS.has(basename(path))) throw new Error('not a session log of the JSONL backend (session.jsonl or session.jsonl.zstd)')
    return [resolve(path)]
  }
  const entries = await readdir(path, { recursive: true })
  const found = entries.filter((entry) => TRANSCRIPTS.has(basename(entry))).map((entry) => resolve(path, entry)).sort()
  if (found.length === 0) throw new Error('no session.jsonl or session.jsonl.zstd below this directory')
  return found
}

/** One decoded session log. */
export interface Found {
  file: string
  meta: SessionHeader
  events: readonly SessionEvent[]
}

/**
 * Read transcripts through the JSONL backend: one read-only backend per sessions
 * root and encoding (a transcript sits at `<root>/<project>/<session>/`), its
 * `list()` for the headers and its non-mutating `inspect()` for the events.
 */
export async function readAll(files: string[], fail: (path: string, reason: string) => void): Promise<Found[]> {
  const groups = new Map<string, { root: string, compression: 'zstd' | 'none', members: string[] }>()
  for (const file of files) {
    const root = dirname(dirname(dirname(file)))
    const compression = file.endsWith('.zstd') ? 'zstd' : 'none'
    const group = groups.get(`${compression} ${root}`) ?? { root, compression, members: [] }
    groups.set(`${compression} ${root}`, group)
    group.members.push(file)
  }
  const found: Found[] = []
  for (const { root, compression, members } of groups.values()) {
    const ctx = new Context()
    try {
      await ctx.plugin(SessionStore)
      await ctx.plugin(JsonlSessionPersistence, { root, compression })
      // Mounted just above and never withdrawn while this context lives.
      const backend = ctx.sessionPersistence as JsonlSessionPersistence
      const byFile = new Map((await backend.list()).map((meta) => [backend.locate(meta).path, meta]))
      for (const file of members) {
        const meta = byFile.get(file)
        if (meta === undefined) {
          fail(file, 'no valid session header (not a session log, a corrupt one, or another format version)')
          continue
        }
        try {
          found.push({ file, meta, events: (await backend.inspect(meta.id)).events })
        } catch (error) {
          fail(file, reason(error))
        }
      }
    } catch (error) {
      for (const file of members) fail(file, reason(error))
    } finally {
      await ctx.fiber.dispose()
    }
  }
  return found.sort((a, b) => a.file.localeCompare(b.file))
}

