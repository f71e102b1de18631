/**
 * Labeled loops: a labels file read and checked, one episode a line in the
 * format of the shared loop benchmark. Pure: a text in, episodes out; a bad
 * line is an error naming it and quoting a short excerpt. Bounded for any
 * text: no recursion, and no value is ever serialized whole. `score.ts`
 * scores a config on them.
 */
import { preview } from '../arguments.ts'
import { isRecord } from '../values.ts'
import { printable } from './text.ts'
import { Problem } from '../problem.ts'
import { fields } from './fields.ts'

/** What a reader judged a stretch of repeating calls to be. */
export type Label = 'stuck' | 'busy-poll' | 'productive' | 'unclear'

/** The labels a reminder should land on: the loops. */
export type LoopLabel = 'stuck' | 'busy-poll'

const LABELS: readonly Label[] = ['stuck', 'busy-poll', 'productive', 'unclear']

const EPISODE_KEYS = new Set(['session', 'first', 'last', 'label', 'from', 'why'])

/** One labeled stretch of a session's calls, 1-based as `afterCall` counts them. */
export type Episode = Stretch &
  (
    | {
        label: LoopLabel
        /** For a loop, the first call that was already pointless. */
        from: number
      }
    | { label: Exclude<Label, LoopLabel>; from: null }
  )

/** What every episode has, whatever its label. */
interface Stretch {
  session: string
  first: number
  last: number
  /** The line of the labels file it came from. */
  line: number
  /** Whether it came from a rereads file: scored for precision and reread recall, never for the loops' recall. */
  reread: boolean
}

/**
 * Episodes read from a labels file (and, with {@link withRereads}, a rereads file), by session,
 * each session's in the order of the files.
 */
export interface Labels {
  file: string
  /** The rereads file whose episodes were added, if any. */
  rereads?: string
  /** Each labeled session's episodes, never none. */
  sessions: Map<string, [Episode, ...Episode[]]>
}

/**
 * Read a labels file: one JSON object per line (blank lines skipped) with
 * `session`, `first`, `last`, `label`, `from` and an optional `why`. Throws on
 * the first line, in file order, that is not such an episode or that overlaps
 * an earlier episode of its session, naming the line and quoting at most a
 * short excerpt of what is wrong. Linear in the file but for one sort of each
 * session's episodes.
 */
export function readLabels(file: string, text: string, reread = false): Labels {
  const sessions: Labels['sessions'] = new Map()
  let failure: { line: number; what: string } | undefined
  for (const [i, line] of text.split('\n').entries()) {
    const source = line.trim()
    if (source === '') continue
    let episode: Episode
    try {
      episode = parseEpisode(source, i + 1, reread)
    } catch (error) {
      failure = { line: i + 1, what: Problem.of(error).what }
      break
    }
    const list = sessions.get(episode.session)
    if (list === undefined) sessions.set(episode.session, [episode])
    else list.push(episode)
  }
  // Overlaps are looked for only among the lines before the first bad one, which is reported unless
  // an overlap comes first.
  for (const list of sessions.values()) {
    const overlap = firstOverlap(list)
    if (overlap !== undefined && (failure === undefined || overlap.line < failure.line)) failure = overlap
  }
  if (failure !== undefined) throw new Problem(failure.what, [`line ${failure.line}`])
  return { file, sessions }
}

/**
 * The loops' labels with a rereads file's episodes added: the shared loop
 * benchmark's second kind of stretch, a call answering what a call shortly
 * before already answered. Throws, naming the rereads file's line, on a reread
 * that shares a call with a loop episode of its session.
 */
export function withRereads(loops: Labels, rereads: Labels): Labels {
  const sessions: Labels['sessions'] = new Map(loops.sessions)
  for (const [id, list] of rereads.sessions) {
    const own = sessions.get(id) ?? []
    for (const episode of list) {
      const loop = own.find((e) => !e.reread && overlaps(e, episode))
      if (loop !== undefined)
        throw new Problem(
          `calls ${episode.first}–${episode.last} overlap the loop episode ` +
            `on line ${loop.line} of ${loops.file} (calls ${loop.first}–${loop.last})`,
          [`line ${episode.line}`],
        )
    }
    sessions.set(id, [...own, ...list])
  }
  return { file: loops.file, rereads: rereads.file, sessions }
}

/** Whether two episodes share a call. */
function overlaps(a: Episode, b: Episode): boolean {
  return a.first <= b.last && b.first <= a.last
}

/**
 * Whether any two of a session's first `n` episodes overlap: sorted by their first call, each must
 * start after every earlier one ends.
 */
function anyOverlap(list: readonly Episode[], n: number): boolean {
  const sorted = list.slice(0, n).sort((a, b) => a.first - b.first)
  let end = 0
  for (const episode of sorted) {
    if (episode.first <= end) return true
    end = Math.max(end, episode.last)
  }
  return false
}

/**
 * The first episode of a session, in file order, that overlaps an earlier one, said as a problem;
 * undefined when none does.
 */
function firstOverlap(list: readonly Episode[]): { line: number; what: string } | undefined {
  if (!anyOverlap(list, list.length)) return undefined
  // The shortest prefix with an overlap ends with the first episode that overlaps an earlier one.
  let low = 2
  let high = list.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (anyOverlap(list, middle)) high = middle
    else low = middle + 1
  }
  const episode = list[low - 1]!
  const earlier = list.find((e) => overlaps(e, episode))!
  return {
    line: episode.line,
    what:
      `calls ${episode.first}–${episode.last} overlap the episode on line ` +
      `${earlier.line} (calls ${earlier.first}–${earlier.last}) of the ` +
      `same session`,
  }
}

/** One line as an episode; throws a {@link Problem} saying what is wrong with it. */
function parseEpisode(source: string, line: number, reread: boolean): Episode {
  const value = parsed(source)
  if (!isRecord(value)) throw new Problem('not a JSON object')
  const raw = fields(source)
  if (raw.twice !== undefined) throw new Problem(`key ${excerpt(JSON.stringify(raw.twice))} given twice`)
  for (const key of Object.keys(value))
    if (!EPISODE_KEYS.has(key))
      throw new Problem(
        `unknown key ${excerpt(JSON.stringify(key))} (an episode has session, first, last, label, from and why)`,
      )
  for (const key of ['session', 'first', 'last', 'label', 'from'])
    if (!Object.hasOwn(value, key)) throw new Problem(`no ${JSON.stringify(key)}`)
  const { session, first, last, label, from, why } = value
  // A value is quoted as written, cut short: a number as the line spells it, never as JSON reads it back.
  const shown = (key: string) => excerpt(raw.values.get(key)!)
  if (typeof session !== 'string' || session === '')
    throw new Problem('"session" must be a session id (a non-empty string)')
  if (!isCall(first))
    throw new Problem(
      `"first" must be a call number (an integer from 1 to ${Number.MAX_SAFE_INTEGER}), not ${shown('first')}`,
    )
  if (!isCall(last))
    throw new Problem(
      `"last" must be a call number (an integer from 1 to ${Number.MAX_SAFE_INTEGER}), not ${shown('last')}`,
    )
  if (first > last) throw new Problem(`"first" (${first}) is after "last" (${last})`)
  if (!LABELS.includes(label as Label))
    throw new Problem(
      `"label" must be one of ${LABELS.map((l) => JSON.stringify(l)).join(', ')}, not ${shown('label')}`,
    )
  if (why !== undefined && typeof why !== 'string') throw new Problem('"why" must be a text when given')
  if (isLoop(label as Label)) {
    if (!isCall(from) || from < first || from > last)
      throw new Problem(
        `"from" must be a call number from "first" to "last" (${first}–${last}) ` +
          `for a ${label} episode, not ${shown('from')}`,
      )
  } else if (from !== null) {
    throw new Problem(`"from" must be null for a ${label} episode, not ${shown('from')}`)
  }
  return { session, first, last, label, from, line, reread } as Episode
}

/** The most characters of a value a message quotes. */
const EXCERPT = 40

/** A text as a message quotes it: escaped, at most {@link EXCERPT} characters of it. */
function excerpt(text: string): string {
  return printable(preview(text, EXCERPT))
}

/** The JSON value a text holds; undefined when it holds none. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A call number: a whole number from 1 that a double holds exactly. */
function isCall(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1
}

/** Whether episodes with this label are loops a reminder should land on. */
function isLoop(label: Label): label is LoopLabel {
  return label === 'stuck' || label === 'busy-poll'
}
