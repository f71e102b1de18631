/**
 * A config scored on labeled loops, as the shared loop benchmark defines it:
 * recall per label, precision, F1, the share of wasted calls a reminder could
 * have saved, and latency. Pure: episodes and call numbers in, numbers out;
 * labels that do not fit the logs are problems, and nothing is scored from them.
 */
import { FAILED, Problem } from '../problem.ts'
import type { Episode, Label, Labels, LoopLabel } from './labels.ts'
import { firstAtOrAfter, harmonic, median, ratio } from './numbers.ts'

/** Where a config's reminders and withheld results stood in one session: after the calls numbered. */
export interface Marks {
  reminders: readonly number[]
  withheld: readonly number[]
}

/** How one episode fared. */
export type EpisodeScore = Episode & {
  /** The first reminder or withheld result inside the episode, if any. */
  firstReminder: number | null
  /**
   * For a loop: the first reminder or withheld result from `from` to `last`, which caught it; null
   * when it was missed.
   */
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
  /**
   * First reminders before `from` or inside productive episodes, and every reminder of a labeled
   * session outside every episode.
   */
  wrong: number
  /** Right over right and wrong; null when no reminder was judged. */
  precision: number | null
  /** The harmonic mean of the overall recall and the precision; 0 when either is 0 or unknown. */
  f1: number
  /** The loops' pointless calls: `last − from + 1` each. */
  wasted: number
  /**
   * The calls after each caught loop's first reminder at or past `from` (from that call itself for
   * a withheld result), up to `last`.
   */
  saved: number
  /** Saved over wasted; null without loops. */
  shareOfWasted: number | null
  /** The median of (first reminder at or past `from`) − `from` over caught loops; null when none was caught. */
  latency: number | null
  /**
   * With a rereads file: its episodes by label, and its `stuck` ones caught; judged for precision,
   * never counted in the loops' recall.
   */
  rereads: { episodes: Record<Label, number>; caught: number; recall: number | null }
}

/**
 * Scores a config session by session: {@link add} each labeled session's
 * marks as it is replayed, then {@link problems} and {@link score}. Keeps per
 * episode only a few numbers, so memory grows with the labels file, not the logs.
 */
export class Scorer {
  /** The labels it scores on. */
  readonly labels: Labels
  private readonly seen = new Set<string>()
  private readonly wrongLabels: { episode: Episode; what: string }[] = []
  private readonly latencies: number[] = []
  private readonly scored: EpisodeScore[] = []
  private readonly sum = {
    episodes: { stuck: 0, 'busy-poll': 0, productive: 0, unclear: 0 },
    caught: { stuck: 0, 'busy-poll': 0 },
    right: 0,
    wrong: 0,
    wasted: 0,
    saved: 0,
    rereads: { stuck: 0, 'busy-poll': 0, productive: 0, unclear: 0 },
    rereadsCaught: 0,
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
      this.wrongLabels.push({
        episode: episodes[0],
        what: `session ${JSON.stringify(session)} is in more than one of the replayed logs`,
      })
      return undefined
    }
    this.seen.add(session)
    const beyond = episodes.find((e) => e.last > calls)
    if (beyond !== undefined) {
      this.wrongLabels.push({
        episode: beyond,
        what:
          `call ${beyond.last} is past the end of session ${JSON.stringify(session)}, ` +
          `which has ${calls} tool ${calls === 1 ? 'call' : 'calls'}`,
      })
      return undefined
    }
    const withheld = new Set(marks.withheld)
    const all = [...new Set([...marks.reminders, ...marks.withheld])].sort((a, b) => a - b)
    const scored: EpisodeScore[] = []
    let inside = 0
    for (const episode of episodes) {
      // The marks are sorted: the episode's are the run from the first at or past its first call.
      const within: number[] = []
      const start = firstAtOrAfter(all, episode.first)
      for (let i = start, mark = all[i]; mark !== undefined && mark <= episode.last; mark = all[++i]) within.push(mark)
      inside += within.length
      scored.push(this.episode(episode, within, withheld))
    }
    this.sum.wrong += all.length - inside
    this.scored.push(...scored)
    return scored
  }

  /**
   * What in the labels does not fit the replayed logs, by file in line order: a call past a
   * session's end, a session in two logs, a session no log has.
   */
  problems(): Problem[] {
    const missing = [...this.labels.sessions]
      .filter(([id]) => !this.seen.has(id))
      .map(([session, episodes]) => ({
        episode: episodes[0],
        what: `session ${JSON.stringify(session)} is in none of the replayed logs`,
      }))
    return [...this.wrongLabels, ...missing]
      .sort((a, b) => inFileOrder(a.episode, b.episode))
      .map(
        (p) =>
          new Problem(
            p.what,
            [p.episode.reread ? this.labels.rereads! : this.labels.file, `line ${p.episode.line}`],
            FAILED,
          ),
      )
  }

  /** Every episode scored so far, in the order of the labels file, then the rereads file. */
  episodes(): EpisodeScore[] {
    return [...this.scored].sort(inFileOrder)
  }

  /** The score so far. */
  score(): Score {
    const { episodes, caught, right, wrong, wasted, saved, rereads, rereadsCaught } = this.sum
    const loops = episodes.stuck + episodes['busy-poll']
    const recall = ratio(caught.stuck + caught['busy-poll'], loops)
    const precision = ratio(right, right + wrong)
    return {
      episodes: { ...episodes },
      caught: { ...caught },
      recall: {
        stuck: ratio(caught.stuck, episodes.stuck),
        'busy-poll': ratio(caught['busy-poll'], episodes['busy-poll']),
        overall: recall,
      },
      right,
      wrong,
      precision,
      f1: harmonic(recall ?? 0, precision ?? 0),
      wasted,
      saved,
      shareOfWasted: ratio(saved, wasted),
      latency: median(this.latencies),
      rereads: { episodes: { ...rereads }, caught: rereadsCaught, recall: ratio(rereadsCaught, rereads.stuck) },
    }
  }

  private episode(episode: Episode, within: number[], withheld: ReadonlySet<number>): EpisodeScore {
    const mark = within[0] ?? null
    const result: EpisodeScore = { ...episode, firstReminder: mark, caughtAt: null, saved: 0 }
    this.judgeFirst(episode, mark)
    if (episode.reread) return this.reread(result, within)
    this.sum.episodes[episode.label]++
    if (episode.from === null) return result
    const { label, from, last } = episode
    this.sum.wasted += last - from + 1
    const at = within.find((n) => n >= from)
    if (at === undefined) return result
    result.caughtAt = at
    result.saved = last - at + (withheld.has(at) ? 1 : 0)
    this.sum.caught[label]++
    this.sum.saved += result.saved
    this.latencies.push(at - from)
    return result
  }

  /**
   * An episode's first mark, judged alike in both files: right in a loop at or past `from`, wrong
   * before it or in a productive episode; in an unclear one not judged.
   */
  private judgeFirst(episode: Episode, mark: number | null): void {
    if (mark === null || episode.label === 'unclear') return
    if (episode.from !== null && mark >= episode.from) this.sum.right++
    else this.sum.wrong++
  }

  /**
   * A reread scored: a `stuck` one caught by a mark from `from` on; nothing of the loops' figures
   * (its first mark is judged as any episode's).
   */
  private reread(result: EpisodeScore, within: readonly number[]): EpisodeScore {
    this.sum.rereads[result.label]++
    const { from } = result
    const at = from === null ? undefined : within.find((n) => n >= from)
    if (at !== undefined) {
      result.caughtAt = at
      if (result.label === 'stuck') this.sum.rereadsCaught++
    }
    return result
  }
}

/** Episodes in the order of their files: the labels file's, then the rereads file's, each by line. */
function inFileOrder(a: Episode, b: Episode): number {
  return Number(a.reread) - Number(b.reread) || a.line - b.line
}
