/**
 * `--suggest`: the candidates (`candidates.ts`) each tallied on the same
 * sessions by where its reminders land (on calls whose result repeated with
 * nothing new since, so the model was seeing no new output, or after new
 * output: likely progress) or, with labels, scored on the labeled loops; one recommendation,
 * written as a dsh profile patch. It reads the logs through the function it is
 * given and writes nothing.
 */
import type { Config } from '../config.ts'
import { candidates, escalation, progressTools, type Escalation, type ProgressStats } from './candidates.ts'
import type { EffectCounts } from './effects.ts'
import type { Labels } from './labels.ts'
import { recommend, recommendScored } from './recommend.ts'
import { Scorer } from './score.ts'
import { addTally, noTally, type RemindedLoops, type Suggestion, tally, scored } from './tally.ts'
import type { Transcript } from './transcript.ts'

/** What `--suggest` comes to: the candidates with their tallies, and the evidence on escalating. */
export interface Advice {
  suggestions: Suggestion[]
  escalation: Escalation
}

/**
 * `--suggest`'s second pass: read every log again through `read` (which
 * reports what cannot be read) and tally each candidate on it, scoring it on
 * `labels` when given; recommend one.
 */
export async function advise(
  files: readonly string[],
  read: (file: string) => Promise<{ id: string; transcript: Transcript } | undefined>,
  baseline: Config,
  stats: ProgressStats,
  later: EffectCounts,
  labels?: Labels,
): Promise<Advice> {
  const evidence = escalation(later)
  const suggestions: Suggestion[] = candidates(baseline, progressTools(stats), evidence).map((c) => ({
    ...c,
    ...noTally(),
  }))
  const scorers = suggestions.map(() => (labels === undefined ? undefined : new Scorer(labels)))
  for (const file of files) {
    const session = await read(file)
    if (session === undefined) continue
    let baseline: RemindedLoops = { loops: new Set(), repeated: new Set() }
    suggestions.forEach((s, i) => {
      const one = tally(session.transcript, s.config, {
        baseline,
        scorer: scorers[i] && { id: session.id, scorer: scorers[i] },
      })
      // The baseline comes first: it keeps every one of its own loops, and the others are set against them.
      if (i === 0) {
        baseline = one.reminded
        one.tally.baselineLoopsKept = baseline.loops.size
      }
      addTally(s, one.tally)
    })
  }
  suggestions.forEach((s, i) => {
    if (scorers[i] !== undefined) s.score = scorers[i].score()
  })
  if (scored(suggestions)) recommendScored(suggestions)
  else recommend(suggestions)
  return { suggestions, escalation: evidence }
}
