/**
 * Paths compared as paths, for the question whether a write can change what a
 * read reads: each resolved against its call's folder and normalized (`./`,
 * `//`, a trailing `/`, `a/../b`); a write changes a read of the same path, of
 * a folder above it, or below it; a glob (`*`, `?`, `[…]`) changes and is
 * changed by whatever it could match. What cannot be placed changes
 * everything: a path from home (`~`), one that climbs above its folder (`..`),
 * or an absolute path against a relative one (the workspace's own place is not
 * known). Bounded: at most 64 paths a command and 32 folders a path are placed,
 * a written path is walked down the tree of the paths read, and one question
 * spends a fixed budget of steps on a writer, past which it counts as a change.
 */
import { kept } from './values.ts'

/** The glob characters of a path segment: `*`, `?` and a bracket expression. */
const GLOB = /[*?[]/

/** The longest glob segment compared; a longer one could match anything as far as this knows. */
const LONGEST_GLOB = 255

/** A path resolved and normalized: whether it starts at `/`, its segments, and whether one is a glob. */
interface Place {
  absolute: boolean
  segments: string[]
  glob: boolean
}

/**
 * `path` resolved against `folder` (a call's `workdir`, empty for the workspace) and normalized,
 * with how far it climbs above its start.
 */
function normalize(path: string, folder: string): { absolute: boolean; segments: string[]; up: number } {
  const full = path.startsWith('/') || folder === '' ? path : `${folder}/${path}`
  const absolute = full.startsWith('/')
  const segments: string[] = []
  let up = 0
  for (const segment of full.split('/')) {
    // Above `/` is `/`; above a relative path's start is a place not known.
    if (segment === '..') up += segments.pop() === undefined && !absolute ? 1 : 0
    else if (segment !== '' && segment !== '.') segments.push(segment)
  }
  return { absolute, segments, up }
}

/**
 * The most paths of one read, or of one writer, that are placed: a read of more may read anything, and
 * a writer of more may change it. A command names a few; placing thousands would cost milliseconds.
 */
export const MOST_PATHS = 64

/** The most segments of a path placed: a deeper one changes everything, so that placing one costs little. */
export const DEEPEST = 32

/**
 * `path` in `folder` placed; undefined for a path that cannot be: from home, climbing above its
 * start, or deeper than {@link DEEPEST}.
 */
function place(path: string, folder: string): Place | undefined {
  const { absolute, segments, up } = normalize(path, folder)
  if (up > 0 || segments.length > DEEPEST || segments[0]?.startsWith('~') === true) return undefined
  return { absolute, segments, glob: segments.some((s) => GLOB.test(s)) }
}

/**
 * A command's paths, in `folder`, each placed (undefined for one that cannot be); undefined for
 * more than {@link MOST_PATHS}: once, at the command's own call, for what it reads or writes.
 */
export type Placed = readonly (Place | undefined)[] | undefined

/** `paths` in `folder` placed ({@link Placed}). */
export function placeAll(paths: readonly string[], folder: string): Placed {
  return paths.length > MOST_PATHS ? undefined : paths.map((path) => place(path, folder))
}

/**
 * Whether `path`, in `folder`, may name what changes by itself: `/proc`, `/sys` or `/dev` (but
 * `/dev/null`), or a glob or a climb (`../../proc`) that may lead there.
 */
export function isSystem(path: string, folder = ''): boolean {
  // Most paths are relative and climb nowhere: they stay in the workspace, and are not normalized.
  if (!path.startsWith('/') && !path.includes('..') && !folder.startsWith('/') && !folder.includes('..')) return false
  const { absolute, segments, up } = normalize(path, folder)
  const [first, second] = segments
  if (!absolute && up === 0) return false
  if (first === 'dev' && second === 'null' && segments.length === 2) return false
  return first === 'proc' || first === 'sys' || first === 'dev' || GLOB.test(first ?? '')
}

/** A folder of the paths read, by its segments: whether a path read ends there, and the folders in it. */
interface Folder {
  read: boolean
  readonly in: Map<string, Folder>
}

/** The paths of one start (`/`, or the workspace): the plain ones as a tree of their segments, and the globs. */
class Start {
  readonly tree: Folder = { read: false, in: new Map() }
  readonly plain: Place[] = []
  readonly globs: Place[] = []

  add(p: Place): void {
    if (p.glob) this.globs.push(p)
    else {
      this.plain.push(p)
      let at = this.tree
      for (const segment of p.segments) at = kept(at.in, segment, () => ({ read: false, in: new Map() }))
      at.read = true
    }
  }

  get empty(): boolean {
    return this.plain.length === 0 && this.globs.length === 0
  }
}

/**
 * The paths a read reads, placed once, for the writes it is asked about. A write is to a file: it
 * changes a read of that file or of a folder above it.
 */
export class ReadPlaces {
  /** Whether some path cannot be placed, so that any write may change the read. */
  private readonly anywhere: boolean
  private readonly absolute = new Start()
  private readonly relative = new Start()

  constructor(paths: readonly string[], folder: string) {
    const places = placeAll(paths, folder)
    this.anywhere = places === undefined || places.includes(undefined)
    for (const p of places ?? []) if (p !== undefined) (p.absolute ? this.absolute : this.relative).add(p)
  }

  /** Whether a writer's writes (by {@link placeAll}) may change what this read reads; bounded by {@link WORK}. */
  changedBy(writes: Placed): boolean {
    if (this.anywhere || writes === undefined) return true
    let work = WORK
    for (const w of writes) {
      // A write whose place is not known; a relative one, which the workspace may put below an absolute read.
      if (w === undefined || (!w.absolute && !this.absolute.empty)) return true
      const same = w.absolute ? this.absolute : this.relative
      work -= 1 + w.segments.length + (w.glob ? same.plain.length : 0) + same.globs.length
      if (w.absolute && !this.relative.empty) {
        // A relative read is in the workspace, wherever it lies: any run of the write's folders may be it.
        if (w.glob || this.relative.globs.length > 0) return true
        work -= (w.segments.length * (w.segments.length + 1)) / 2
        if (w.segments.some((_, i) => ends(this.relative.tree, w.segments.slice(i)))) return true
      }
      if (work < 0 || same.globs.some((g) => nested(g, w))) return true
      if (w.glob ? same.plain.some((p) => nested(w, p)) : within(same.tree, w.segments)) return true
    }
    return false
  }
}

/** The most steps one question spends on one write's paths; past it, the write counts as a change. */
export const WORK = 4096

/**
 * Where `segments` lead in `tree`: true once they pass a path read (they lie in a folder read), the
 * folder they end at, or undefined where they leave the tree.
 */
function walk(tree: Folder, segments: readonly string[]): Folder | true | undefined {
  let at: Folder | undefined = tree
  for (const segment of segments) {
    if (at.read) return true
    at = at.in.get(segment)
    if (at === undefined) return undefined
  }
  return at
}

/** Whether a plain write is a path read, lies in a folder read, or holds a path read. */
function within(tree: Folder, segments: readonly string[]): boolean {
  const at = walk(tree, segments)
  return at === true || (at !== undefined && (at.read || at.in.size > 0))
}

/** Whether some path read is `segments` or the start of them: the workspace's own folder, or a run of folders in it. */
function ends(tree: Folder, segments: readonly string[]): boolean {
  const at = walk(tree, segments)
  return at === true || at?.read === true
}

/** Whether one of two places lies in the other or is it, globs matching what they could match. */
function nested(a: Place, b: Place): boolean {
  const n = Math.min(a.segments.length, b.segments.length)
  for (let k = 0; k < n; k++) if (!sameSegment(a.segments[k] as string, b.segments[k] as string)) return false
  return true
}

/** Whether two segments may name one file: equal, or a glob that could match the other (or another glob). */
function sameSegment(a: string, b: string): boolean {
  if (GLOB.test(a) && GLOB.test(b)) return true
  // A plain segment as a glob matches only itself.
  return GLOB.test(a) ? matches(a, b) : matches(b, a)
}

/**
 * Whether glob segment `glob` could match `name`: `*` any run, `?` and a bracket expression any
 * one character (a class matches no more than that). Greedy with one backtrack point, so at
 * most length × length steps. A glob longer than any file name (255) could match anything.
 */
function matches(glob: string, name: string): boolean {
  if (glob.length > LONGEST_GLOB) return true
  const tokens: string[] = []
  for (let k = 0; k < glob.length; k++) {
    const c = glob.charAt(k)
    if (c === '[') {
      const close = glob.indexOf(']', k + 2)
      if (close !== -1) k = close
      tokens.push('?')
    } else tokens.push(c)
  }
  let t = 0
  let s = 0
  let star = -1
  let resume = 0
  while (s < name.length) {
    // Past the last token, `tokens[t]` is undefined, which matches nothing.
    if (tokens[t] === '?' || tokens[t] === name.charAt(s)) {
      t++
      s++
    } else if (tokens[t] === '*') {
      star = t++
      resume = s
    } else if (star !== -1) {
      t = star + 1
      s = ++resume
    } else return false
  }
  while (tokens[t] === '*') t++
  return t === tokens.length
}
