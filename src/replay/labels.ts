/**
 * Labeled loops: a labels file read and checked (one episode a line, the format
 * of the shared loop benchmark), and a config's reminders and withheld results
 * scored against it: recall per label, precision, F1, the share of wasted calls
 * a reminder could have saved, and latency. Pure: texts and call numbers in,
 * numbers out; a bad file is an error naming its line, and nothing is scored
 * from it.
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

/** Where a config's reminders and withheld results stood in one session: after the calls numbered. */
export interface Marks {
  reminders: readonly number[]
  withheld: readonly number[]
}

/** How one episode fared. */
export interface EpisodeScore extends Episode {
  /** The first reminder or withheld result inside the episode, if any. */
  firstReminder: number | null
  /** For a loop: the first reminder or withheld result from `from` to `last`, which caught it; null when it was missed. */
  caughtAt: number | null
  /** For a caught loop: the calls a model that listened would not have made. */
  saved: number
}

/** A config's score on labeled episodes, as the shared loop benchmark defines it. */
export interface Score {
  /** Labeled episodes, by label. */
  episodes: Record<Label, number>
  /** Loops caught, by label. */
  caught: Record<LoopLabel, number>
  /** Caught over episodes: per loop label and over both; null without such episodes. */
  recall: Record<LoopLabel | 'overall', number | null>
  /** First reminders inside loops at or past `from`. */
  right: number
  /** First reminders before `from` or inside productive episodes, and every reminder of a labeled session outside every episode. */
  wrong: number
  /** Right over right and wrong; null when no reminder was judged. */
  precision: number | null
  /** The harmonic mean of the overall recall and the precision; 0 when either is 0 or unknown. */
  f1: number
  /** The loops' pointless calls: `last − from + 1` each. */
  wasted: number
  /** The calls after each caught loop's first reminder at or past `from` (from that call itself for a withheld result), up to `last`. */
  saved: number
  /** Saved over wasted; null without loops. */
  shareOfWasted: number | null
  /** The median of (first reminder at or past `from`) − `from` over caught loops; null when none was caught. */
  latency: number | null
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
function problem(line: number, what: string): string {
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

/**
 * Scores a config session by session: {@link add} each labeled session's
 * marks as it is replayed, then {@link problems} and {@link score}. Keeps per
 * episode only a few numbers, so memory grows with the labels file, not the logs.
 */
export class Scorer {
  private readonly labels: Labels
  private readonly seen = new Set<string>()
  private readonly wrongLabels: { line: number, what: string }[] = []
  private readonly latencies: number[] = []
  private readonly scored: EpisodeScore[] = []
  private readonly sum = {
    episodes: { 'stuck': 0, 'busy-poll': 0, 'productive': 0, 'unclear': 0 },
    caught: { 'stuck': 0, 'busy-poll': 0 },
    right: 0,
    wrong: 0,
    wasted: 0,
    saved: 0,
  }

  constructor(labels: Labels) {
    this.labels = labels
  }

  /**
   * Score one replayed session with `calls` tool calls; undefined when it has
   * no labels, or they do not fit it (a call past its end, a second log with
   * its id): that is one of the {@link problems}, and nothing of it is scored.
   */
  add(session: string, calls: number, marks: Marks): EpisodeScore[] | undefined {
    const episodes = this.labels.sessions.get(session)
    if (episodes === undefined) return undefined
    if (this.seen.has(session)) {
      this.wrongLabels.push({ line: episodes[0]!.line, what: `session ${JSON.stringify(session)} is in more than one of the replayed logs` })
      return undefined
    }
    this.seen.add(session)
    const beyond = episodes.find((e) => e.last > calls)
    if (beyond !== undefined) {
      this.wrongLabels.push({ line: beyond.line, what: `call ${beyond.last} is past the end of session ${JSON.stringify(session)}, which has ${calls} tool ${calls === 1 ? 'call' : 'calls'}` })
      return undefined
    }
    const withheld = new Set(marks.withheld)
    const all = [...new Set([...marks.reminders, ...marks.withheld])].sort((a, b) => a - b)
    const scored: EpisodeScore[] = []
    let inside = 0
    for (const episode of episodes) {
      const within = all.filter((n) => n >= episode.first && n <= episode.last)
      inside += within.length
      scored.push(this.episode(episode, within, withheld))
    }
    this.sum.wrong += all.length - inside
    this.scored.push(...scored)
    return scored
  }

  /** What in the labels does not fit the replayed logs, in line order: a call past a session's end, a session in two logs, a session no log has. */
  problems(): string[] {
    const missing = [...this.labels.sessions].filter(([id]) => !this.seen.has(id))
      .map(([session, episodes]) => ({ line: Math.min(...episodes.map((e) => e.line)), what: `session ${JSON.stringify(session)} is in none of the replayed logs` }))
    return [...this.wrongLabels, ...missing].sort((a, b) => a.line - b.line).map((p) => problem(p.line, p.what))
  }

  /** Every episode scored so far, in the order of the labels file. */
  episodes(): EpisodeScore[] {
    return [...this.scored].sort((a, b) => a.line - b.line)
  }

  /** The score so far. */
  score(): Score {
    const { episodes, caught, right, wrong, wasted, saved } = this.sum
    const loops = episodes.stuck + episodes['busy-poll']
    const recall = ratio(caught.stuck + caught['busy-poll'], loops)
    const precision = ratio(right, right + wrong)
    return {
      episodes: { ...episodes },
      caught: { ...caught },
      recall: { 'stuck': ratio(caught.stuck, episodes.stuck), 'busy-poll': ratio(caught['busy-poll'], episodes['busy-poll']), 'overall': recall },
      right,
      wrong,
      precision,
      f1: harmonic(recall ?? 0, precision ?? 0),
      wasted,
      saved,
      shareOfWasted: ratio(saved, wasted),
      latency: median(this.latencies),
    }
  }

  private episode(episode: Episode, within: number[], withheld: ReadonlySet<number>): EpisodeScore {
    const { label, from, last } = episode
    this.sum.episodes[label]++
    const mark = within[0] ?? null
    const result: EpisodeScore = { ...episode, firstReminder: mark, caughtAt: null, saved: 0 }
    if (!isLoop(label)) {
      if (label === 'productive' && mark !== null) this.sum.wrong++
      return result
    }
    this.sum.wasted += last - from! + 1
    if (mark !== null) {
      if (mark >= from!) this.sum.right++
      else this.sum.wrong++
    }
    const at = within.find((n) => n >= from!)
    if (at === undefined) return result
    result.caughtAt = at
    result.saved = last - at + (withheld.has(at) ? 1 : 0)
    this.sum.caught[label]++
    this.sum.saved += result.saved
    this.latencies.push(at - from!)
    return result
  }
}

/** The harmonic mean of two ratios; 0 when both are. */
function harmonic(a: number, b: number): number {
  return a + b === 0 ? 0 : 2 * a * b / (a + b)
}

function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole
}

function median(values: number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
