/**
 * The `--suggest` advice as text: the table of candidates in one of two
 * layouts (scored on labels, or tallied without them), what it recommends and
 * why, the evidence on escalating, and the patch to paste.
 */
import { Config } from '../config.ts'
import { wrap } from '../wrap.ts'
import { patchSnippet } from './recommend.ts'
import type { Advice } from './suggest.ts'
import { type Scored, scored, type Suggestion } from './tally.ts'
import { grouped, printable, ratio } from './text.ts'

/** How wide the config column of the `--suggest` table is: a longer name goes on over more lines. */
const CONFIG_COLUMN = 35

/** A table layout: each column's header in two lines (so the numbers' columns stay narrow), and a row's numbers. */
interface Layout<S extends Suggestion> {
  header: [string, string][]
  numbers(s: S): string[]
  /** Why the recommended candidate is recommended. */
  why(chosen: S): string
}

/** The layout with labels: each candidate scored on the labeled loops. */
function scoredLayout(): Layout<Scored> {
  return {
    header: [
      ['config', ''],
      ['', 'reminders'],
      ['', 'recall'],
      ['', 'precision'],
      ['', 'F1'],
      ['', 'saved'],
      ['', 'withheld'],
    ],
    numbers: (s) => [
      grouped(s.reminders),
      ratio(s.score.recall.overall),
      ratio(s.score.precision),
      ratio(s.score.f1),
      ratio(s.score.shareOfWasted),
      withheldCell(s),
    ],
    why: (chosen) =>
      `${chosen.baseline ? 'keep the config given' : printable(chosen.name)}: the highest F1 on the labeled loops`,
  }
}

/**
 * The layout without labels: where each candidate's reminders land, on repeated results (nothing new since) or
 * after new output.
 */
function talliedLayout(): Layout<Suggestion> {
  return {
    header: [
      ['config', ''],
      ['', 'reminders'],
      ['on repeated', 'results'],
      ['after new', 'output'],
      ['loop calls', 'unreminded'],
      ['', 'withheld'],
    ],
    numbers: (s) => [
      ...[s.reminders, s.onRepeatedResults, s.onChangedResults, s.unremindedLoopCalls].map(grouped),
      withheldCell(s),
    ],
    why: (chosen) =>
      chosen.baseline
        ? 'keep the config given: no candidate drops reminders after new output ' +
          'while reminding every loop it reminded on repeated results'
        : `${printable(chosen.name)}: fewest reminders after new output ` +
          `(likely progress), reminding every loop the config given ` +
          `reminded on repeated results`,
  }
}

/** The `--suggest` table, what it recommends and why, the evidence on escalating, and the patch to paste. */
export function advice({ suggestions, escalation }: Advice): string[] {
  return scored(suggestions)
    ? written(scoredLayout(), suggestions, escalation)
    : written(talliedLayout(), suggestions, escalation)
}

/** The advice in `layout`. */
function written<S extends Suggestion>(
  layout: Layout<S>,
  suggestions: readonly S[],
  escalation: Advice['escalation'],
): string[] {
  const chosen = suggestions.find((s) => s.recommended)!
  return [
    "advice (--suggest): where each config's reminders land",
    ...table(layout, suggestions),
    '',
    escalating(escalation),
    `recommended (*): ${layout.why(chosen)}`,
    ...patchSnippet(chosen.config, Config({}))
      .split('\n')
      .map((l) => `  ${printable(l)}`),
  ]
}

/** A row of the table: a config's name, then its numbers. */
type Row = [string, ...string[]]

/** The table's lines: the two header lines, then a row per candidate, the recommended one starred. */
function table<S extends Suggestion>({ header, numbers }: Layout<S>, suggestions: readonly S[]): string[] {
  const rows = suggestions.map((s): Row => [`${s.recommended ? '* ' : '  '}${printable(s.name)}`, ...numbers(s)])
  const widths = header.map(([a, b], i) =>
    i === 0 ? CONFIG_COLUMN : Math.max(a.length, b.length, ...rows.map((r) => r[i]!.length)),
  )
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`.trimEnd()
  // A config's name wider than its column goes on below, under itself; the numbers stay on its first line.
  const row = ([config, ...cells]: Row) => {
    const [first, ...more] = wrap(config, CONFIG_COLUMN)
    return [line([first, ...cells]), ...more.map((l) => line([`  ${l.trimStart()}`]))]
  }
  return [line(header.map(([a]) => a)), line(header.map(([, b]) => b)), ...rows.flatMap(row)]
}

/** What the logs say about escalating: how often the same call followed a detailed reminder on a repeated result. */
function escalating({ followed, of, escalate }: Advice['escalation']): string {
  const evidence = `the same call followed ${followed} of ${of} detailed reminders on repeated results`
  if (of === 0)
    return (
      'escalation: no detailed reminder on a repeated result in the logs, ' +
      'so no evidence that reminders were ignored; none proposed'
    )
  return escalate
    ? `escalation: ${evidence}, so blockAt and remindEvery are listed; ` +
        'compare what they withhold before you turn one on'
    : `escalation: reminders mostly worked (${evidence}); none proposed`
}

/** A candidate's withheld results, and how many of those calls it denies before they run. */
function withheldCell(s: Suggestion): string {
  return s.denied === 0 ? String(s.withheld) : `${s.withheld} (${s.denied} not run)`
}
