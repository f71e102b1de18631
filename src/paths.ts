/**
 * Paths compared as paths, for the question whether a write can change what a
 * read reads: each resolved against its call's folder and normalized (`./`,
 * `//`, a trailing `/`, `a/../b`); a write changes a read of the same path, of
 * a folder above it, or below it; a glob (`*`, `?`, `[…]`) changes and is
 * changed by whatever it could match. What cannot be placed changes
 * everything: a path from home (`~`), one that climbs above its folder (`..`),
 * or an absolute path against a relative one (the workspace's own place is not
 * known). Bounded: hashed lookups per written path, and a fixed budget of steps
 * per write, past which it counts as a change.
 */

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
function normalize(path: string, folder: string): Place & { up: number } {
  const full = path.startsWith('/') || folder === '' ? path : `${folder}/${path}`
  const absolute = full.startsWith('/')
  const segments: string[] = []
  let up = 0
  for (const segment of full.split('/')) {
    // Above `/` is `/`; above a relative path's start is a place not known.
    if (segment === '..') up += segments.pop() === undefined && !absolute ? 1 : 0
    else if (segment !== '' && segment !== '.') segments.push(segment)
  }
  return { absolute, segments, glob: segments.some((s) => GLOB.test(s)), up }
}

/** The most segments of a path placed: a deeper one changes everything, so that placing one costs little. */
export const DEEPEST = 32

/**
 * `path` in `folder` placed; undefined for a path that cannot be: from home, climbing above its
 * start, or deeper than {@link DEEPEST}.
 */
function place(path: string, folder: string): Place | undefined {
  const at = normalize(path, folder)
  return at.up > 0 || at.segments.length > DEEPEST || at.segments[0]?.startsWith('~') === true ? undefined : at
}

/** A place's key, and the keys of the folders above it (`/` or the workspace first). */
function keys({ absolute, segments }: Place): string[] {
  let key = absolute ? '' : '.'
  const all = [key || '/']
  for (const segment of segments) {
    key += `/${segment}`
    all.push(key)
  }
  return all
}

/**
 * Whether `path`, in `folder`, may name what changes by itself: `/proc`, `/sys` or `/dev` (but
 * `/dev/null`), or a glob or a climb (`../../proc`) that may lead there.
 */
export function isSystem(path: string, folder = ''): boolean {
  const { absolute, segments, up } = normalize(path, folder)
  const [first, second] = segments
  if (!absolute && up === 0) return false
  if (first === 'dev' && second === 'null' && segments.length === 2) return false
  return first === 'proc' || first === 'sys' || first === 'dev' || GLOB.test(first ?? '')
}

/** The paths of one start (`/`, or the workspace), hashed: each one's key, and the keys of the folders above each. */
class Start {
  readonly exact = new Set<string>()
  readonly above = new Set<string>()
  readonly plain: Place[] = []
  readonly globs: Place[] = []

  add(p: Place): void {
    if (p.glob) this.globs.push(p)
    else {
      this.plain.push(p)
      const all = keys(p)
      this.exact.add(all.pop() as string)
      for (const key of all) this.above.add(key)
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
    const places = paths.map((path) => place(path, folder))
    this.anywhere = places.includes(undefined)
    for (const p of places) if (p !== undefined) (p.absolute ? this.absolute : this.relative).add(p)
  }

  /** Whether writing `paths` (in `folder`) may change what this read reads; bounded by {@link WORK}. */
  changedBy(paths: readonly string[], folder: string): boolean {
    if (this.anywhere) return true
    let work = WORK
    for (const path of paths) {
      const w = place(path, folder)
      // A write whose place is not known; a relative one, which the workspace may put below an absolute read.
      if (w === undefined || (!w.absolute && !this.absolute.empty)) return true
      const same = w.absolute ? this.absolute : this.relative
      work -= 1 + w.segments.length + (w.glob ? same.plain.length : 0) + same.globs.length
      if (w.absolute && !this.relative.empty) {
        // A relative read is in the workspace, wherever it lies: any run of the write's folders may be it.
        if (w.glob || this.relative.globs.length > 0) return true
        work -= (w.segments.length * (w.segments.length + 1)) / 2
        if (runs(w.segments).some((key) => this.relative.exact.has(key))) return true
      }
      if (work < 0 || same.globs.some((g) => nested(g, w))) return true
      if (w.glob ? same.plain.some((p) => nested(w, p)) : hashed(same, w)) return true
    }
    return false
  }
}

/** The most steps one question spends on one write's paths; past it, the write counts as a change. */
export const WORK = 4096

/** Whether a plain write is a path `start` holds, or lies in one, or holds one. */
function hashed(start: Start, w: Place): boolean {
  const all = keys(w)
  return start.above.has(all.at(-1) as string) || all.some((key) => start.exact.has(key))
}

/** The keys of every run of consecutive segments, as relative paths: where the workspace may be within them. */
function runs(segments: readonly string[]): string[] {
  const found = ['.']
  segments.forEach((_, i) => {
    let key = '.'
    for (const segment of segments.slice(i)) {
      key += `/${segment}`
      found.push(key)
    }
  })
  return found
}

/** Whether one of two places lies in the other or is it, globs matching what they could match. */
function nested(a: Place, b: Place): boolean {
  const n = Math.min(a.segments.length, b.segments.length)
  for (let k = 0; k < n; k++) if (!sameSegment(a.segments[k] as string, b.segments[k] as string)) return false
  return true
}

/** Whether two segments may name one file: equal, or a glob that could match the other (or another glob). */
function sameSegment(a: string, b: string): boolean {
  if (a === b) return true
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
    if (t < tokens.length && (tokens[t] === '?' || tokens[t] === name.charAt(s))) {
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
