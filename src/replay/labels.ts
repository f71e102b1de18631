/**
 * Labeled loops: a labels file read and checked, one episode a line in the
 * format of the shared loop benchmark. Pure: a text in, episodes out; a bad
 * line is an error naming it. `score.ts` scores a config on them.
 */
import { isRecord } from '../arguments.ts'

/** What a reader judged a stretch of repeating calls to be. */
export type Label = 'stuck' | 'busy-poll' | 'productive' | 'unclear'

/** The labels a reminder should land on: the loops. */
export type LoopLabel = 'stuck' | 'busy-poll'

const LABELS: readonly Label[] = ['stuck', 'busy-poll', 'productive', 'unclear']

const EPISODE_KEYS = new Set(['session', 'first', 'last', 'label', 'from', 'why'])

/** One labeled stretch of a session's calls, 1-based as `afterCall` counts them. */
export interface Episode {
  session: string
  first: number
  last: number
  label: Label
  /** For a loop, the first call that was already pointless; null otherwise. */
  from: number | null
  /** The line of the labels file it came from. */
  line: number
}

/** Episodes read from a labels file, by session, each session's in the order of the file. */
export interface Labels {
  file: string
  sessions: Map<string, Episode[]>
}

/**
 * Read a labels file: one JSON object per line (blank lines skipped) with
 * `session`, `first`, `last`, `label`, `from` and an optional `why`. Throws on
 * the first line that is not such an episode, naming the line; two episodes
 * of one session that overlap are refused too.
 */
export function readLabels(file: string, text: string): Labels {
  const sessions = new Map<string, Episode[]>()
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const source = lines[i]!.trim()
    if (source === '') continue
    const episode = parseEpisode(source, i + 1, (what) => fail(i + 1, what))
    const list = sessions.get(episode.session) ?? []
    const overlapping = list.find((e) => e.first <= episode.last && episode.first <= e.last)
    if (overlapping !== undefined) fail(i + 1, `calls ${episode.first}–${episode.last} overlap the episode on line ${overlapping.line} (calls ${overlapping.first}–${overlapping.last}) of the same session`)
    list.push(episode)
    sessions.set(episode.session, list)
  }
  return { file, sessions }
}

/** What is wrong with a labels line, as a person reads it. */
export function problem(line: number, what: string): string {
  return `line ${line}: ${what}`
}

function fail(line: number, what: string): never {
  throw new Error(problem(line, what))
}

function parseEpisode(source: string, line: number, wrong: (what: string) => never): Episode {
  const value = parsed(source)
  if (!isRecord(value)) wrong('not a JSON object')
  for (const key of Object.keys(value)) if (!EPISODE_KEYS.has(key)) wrong(`unknown key ${JSON.stringify(key)} (an episode has session, first, last, label, from and why)`)
  for (const key of ['session', 'first', 'last', 'label', 'from']) if (!Object.hasOwn(value, key)) wrong(`no ${JSON.stringify(key)}`)
  const { session, first, last, label, from, why } = value
  if (typeof session !== 'string' || session === '') wrong('"session" must be a session id (a non-empty string)')
  if (!isCall(first)) wrong(`"first" must be a call number (an integer >= 1), not ${JSON.stringify(first)}`)
  if (!isCall(last)) wrong(`"last" must be a call number (an integer >= 1), not ${JSON.stringify(last)}`)
  if (first > last) wrong(`"first" (${first}) is after "last" (${last})`)
  if (!LABELS.includes(label as Label)) wrong(`"label" must be one of ${LABELS.map((l) => JSON.stringify(l)).join(', ')}, not ${JSON.stringify(label)}`)
  if (why !== undefined && typeof why !== 'string') wrong('"why" must be a text when given')
  if (isLoop(label as Label)) {
    if (!isCall(from) || from < first || from > last) wrong(`"from" must be a call number from "first" to "last" (${first}–${last}) for a ${label} episode, not ${JSON.stringify(from)}`)
  } else if (from !== null) {
    wrong(`"from" must be null for a ${label} episode, not ${JSON.stringify(from)}`)
  }
  return { session, first, last, label: label as Label, from: from as number | null, line }
}

/** The JSON value a text holds; undefined when it holds none. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text)
  // mutant (equivalent) BlockStatement "{}": an empty catch falls through to the end of the function, which returns undefined too.
  } catch {
    return undefined
  }
}

function isCall(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1
}

/** Whether episodes with this label are loops a reminder should land on. */
export function isLoop(label: Label): label is LoopLabel {
  return label === 'stuck' || label === 'busy-poll'
}
