/**
 * The document `replay --json` prints, and how it is written: one session at a
 * time as each is replayed, so that no more than one report is held for it.
 */
import type { Config } from '../config.ts'
import type { Escalation } from './candidates.ts'
import type { SessionReport } from './report.ts'
import type { EpisodeScore, Score } from './score.ts'
import type { Suggestion } from './tally.ts'
import type { Totals } from './totals.ts'

/**
 * The document `replay --json` prints: the config, each session's report in the
 * order read, then the totals, with `--labels` the score, with `--suggest` the
 * candidates and the evidence on escalating, and every input that failed.
 */
export interface ReplayDocument {
  config: Config
  sessions: SessionReport[]
  total: Totals
  labels?: { file: string; rereads?: string; score: Score; episodes: EpisodeScore[] }
  suggestions?: Suggestion[]
  escalation?: Escalation
  errors: { path: string; reason: string }[]
}

/** What the document holds after its sessions. */
type Tail = Omit<ReplayDocument, 'config' | 'sessions'>

/**
 * The document written in its keys' order: the config and the sessions, each as it is replayed,
 * then the rest. It opens with the first session, so when every input fails nothing is written.
 */
export class DocumentWriter {
  private readonly out: (text: string) => void
  private readonly head: Pick<ReplayDocument, 'config'>
  private opened = false

  constructor(out: (text: string) => void, config: Config) {
    this.out = out
    this.head = { config }
  }

  /** Write one session's report. */
  session(one: SessionReport): void {
    this.out(
      `${this.opened ? ',' : `${JSON.stringify(this.head).slice(0, -1)},\n"sessions": [`}\n${JSON.stringify(one)}`,
    )
    this.opened = true
  }

  /** Close the sessions and write the rest. */
  end(tail: Tail): void {
    this.out(`\n],${JSON.stringify(tail).slice(1)}\n`)
  }
}
