/**
 * `npm run bench:loops`: configs scored on labeled real loops. For each set in
 * the loop benchmark folder (`sessions/<set>/` and `labels/<set>.jsonl`, by
 * default `../shared/loopbench` beside the package; `LOOPBENCH=<folder>` for
 * another), replays the labeled sessions once and scores the defaults, the
 * README's recommended dsh config (read from the README's profile patch as
 * `replay --config` reads it), and the configs `replay --suggest` picks without
 * labels and with them. Prints a Markdown table per set. Skips, saying so,
 * where the folder is missing: a clone of the package alone has none.
 */
import { existsSync } from 'node:fs'
import { readFile, readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { Config } from '../src/config.ts'
import { readLabels, withRereads, type Labels } from '../src/replay/labels.ts'
import { Scorer, type Score } from '../src/replay/score.ts'
import { transcribe, type Transcript } from '../src/replay/transcript.ts'
import { readmeConfig } from './readme.ts'
import { marks, report } from '../src/replay/report.ts'
import { addToTotals, emptyTotals } from '../src/replay/totals.ts'
import { discover } from '../src/replay/logs.ts'
import { LogReader } from '../src/replay/reader.ts'
import { addProgress, PROSE_ARGUMENTS, type ProgressStats } from '../src/replay/candidates.ts'
import { advise } from '../src/replay/suggest.ts'

/** How a set's rereads file is named beside its loops file: `<set>.rereads.jsonl`. */
const REREADS = '.rereads.jsonl'

const ROOT = resolve(process.env.LOOPBENCH ?? join(import.meta.dirname, '..', '..', 'shared', 'loopbench'))

/** One set's labels and its labeled sessions, each read once. */
interface LoadedSet {
  labels: Labels
  sessions: { id: string; transcript: Transcript }[]
}

async function load(set: string): Promise<LoadedSet> {
  const file = join(ROOT, 'labels', `${set}.jsonl`)
  const loops = readLabels(file, await readFile(file, 'utf8'))
  const rereadsFile = join(ROOT, 'labels', `${set}${REREADS}`)
  const labels = existsSync(rereadsFile)
    ? withRereads(loops, readLabels(rereadsFile, await readFile(rereadsFile, 'utf8'), true))
    : loops
  const found = await discover([join(ROOT, 'sessions', set)])
  const reader = new LogReader()
  const sessions = []
  try {
    for (const log of found.files) {
      const { meta, events } = await reader.read(log)
      if (labels.sessions.has(meta.id)) sessions.push({ id: meta.id, transcript: transcribe(events, PROSE_ARGUMENTS) })
    }
  } finally {
    await reader.close()
  }
  return { labels, sessions }
}

/** One config's score on a set. */
function scoreOn(set: LoadedSet, config: Config): Score {
  const scorer = new Scorer(set.labels)
  for (const { id, transcript } of set.sessions) scorer.add(id, transcript.calls, marks(report(transcript, config)))
  return scorer.score()
}

/** What `--suggest` picks on a set with the defaults as the baseline, without labels and with them. */
async function picks(
  set: LoadedSet,
): Promise<{ unlabeled: Config; labeled: Config; unlabeledLabel: string; labeledLabel: string }> {
  const baseline = Config({})
  const total = emptyTotals()
  const stats: ProgressStats = new Map()
  for (const { transcript } of set.sessions) {
    addToTotals(total, report(transcript, baseline), transcript.reminders)
    for (const step of transcript.steps) if ('tool' in step) addProgress(stats, step)
  }
  const byId = new Map(set.sessions.map((s) => [s.id, s]))
  const read = async (id: string) => byId.get(id)
  const ids = [...byId.keys()]
  const plain = await advise(ids, read, baseline, stats, total.detailedOnRepeatedResults)
  const scored = await advise(ids, read, baseline, stats, total.detailedOnRepeatedResults, set.labels)
  const unlabeled = plain.suggestions.find((s) => s.recommended)!
  const labeled = scored.suggestions.find((s) => s.recommended)!
  return {
    unlabeled: unlabeled.config,
    labeled: labeled.config,
    unlabeledLabel: unlabeled.name,
    labeledLabel: labeled.name,
  }
}

const fixed = (n: number | null) => (n === null ? '–' : n.toFixed(2))

/**
 * Extra configs to score beside the README's, as JSON objects over it:
 * `LOOPS_TRY='{"rereads":true}'`, several separated by `;`.
 */
const TRY = (process.env.LOOPS_TRY ?? '').split(';').filter((t) => t.trim() !== '')

async function main(): Promise<void> {
  let sets: string[]
  try {
    sets = (await readdir(join(ROOT, 'labels')))
      .filter((f) => f.endsWith('.jsonl') && !f.endsWith(REREADS))
      .map((f) => f.slice(0, -'.jsonl'.length))
      .sort()
  } catch {
    console.log(
      `bench:loops: skipped, no labeled loops at ${ROOT} (set LOOPBENCH to a folder with sessions/ and labels/)`,
    )
    return
  }
  const readme = readmeConfig()
  for (const name of sets) {
    const set = await load(name)
    const { unlabeled, labeled, unlabeledLabel, labeledLabel } = await picks(set)
    // Short names keep the table narrow; what the two suggestions and the tried configs are follows it.
    const configs: [string, Config][] = [
      ['defaults (= the stock plugin)', Config({})],
      ["the README's recommended config", readme],
      ['--suggest without labels', unlabeled],
      ['--suggest with labels', labeled],
      ...TRY.map((t, i): [string, Config] => [`tried ${i + 1}`, Config({ ...readme, ...(JSON.parse(t) as object) })]),
    ]
    const { episodes, rereads } = scoreOn(set, Config({}))
    console.log(
      `\n${name}: ${set.sessions.length} labeled sessions; loops: ${episodes.stuck} ` +
        `stuck, ${episodes['busy-poll']} busy-poll, ${episodes.productive} ` +
        `productive, ${episodes.unclear} unclear;\nrereads: ${rereads.episodes.stuck} ` +
        `stuck, ${rereads.episodes.productive} productive\n`,
    )
    console.log(
      'Recall (also of stuck and busy-poll loops apart), F1, share of wasted calls and latency are over the\n' +
        'loops; precision over the loops and the rereads together; rereads is the recall of stuck rereads.\n',
    )
    console.log('| config | recall | stuck | busy-poll | precision | F1 | share | latency | rereads |')
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
    for (const [label, config] of configs) {
      const s = scoreOn(set, config)
      console.log(
        `| ${label} | ${fixed(s.recall.overall)} | ${fixed(s.recall.stuck)} ` +
          `| ${fixed(s.recall['busy-poll'])} | ${fixed(s.precision)} | ${fixed(s.f1)} ` +
          `| ${fixed(s.shareOfWasted)} | ${s.latency ?? '–'} | ${fixed(s.rereads.recall)} |`,
      )
    }
    console.log(`\n--suggest without labels: ${unlabeledLabel}\n--suggest with labels: ${labeledLabel}`)
    for (const [i, t] of TRY.entries()) console.log(`tried ${i + 1}: the README's with ${t}`)
  }
}

await main()
