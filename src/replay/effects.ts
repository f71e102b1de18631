/**
 * What the model did after each reminder and each withheld result the live
 * guard gave: called the same again, came back to it later, changed course, or
 * stopped. Read off the calls that follow in the log, up to the next user
 * message, with calls compared as the given config's guard compares them (its comparison). Pure:
 * a transcript in, one effect per recorded reminder and block out.
 */
import type { Comparison } from '../compare.ts'
import { waitsOn } from '../results.ts'
import { firstAtOrAfter } from './numbers.ts'
import type { LoggedCall, LoggedReminder, Transcript } from './transcript.ts'

/** What followed a reminder or a withheld result, before the next user message. */
export type Effect = 'repeated' | 'waited' | 'relapsed' | 'changed' | 'ended'

/** The effects, each word counted. */
export type EffectCounts = Record<Effect, number>

/** The effects, in the order reports list them. */
export const EFFECTS: readonly Effect[] = ['repeated', 'waited', 'relapsed', 'changed', 'ended']

/** How many effects were counted, whatever they were. */
export function effectCount(counts: EffectCounts): number {
  return EFFECTS.reduce((n, effect) => n + counts[effect], 0)
}

/** No effect counted yet. */
export function noEffects(): EffectCounts {
  return { repeated: 0, waited: 0, relapsed: 0, changed: 0, ended: 0 }
}

/** One reminder or block waiting for the calls that decide its effect. */
interface Pending {
  /** The call it is about. */
  about: LoggedCall
  /** The call that repeating the loop would make next. */
  target: LoggedCall
  /** The calls made before the model could read it: up to this 1-based call. */
  after: number
  effect: Effect | undefined
  /** Set once the next tracked call was another one: now only a come-back decides. */
  passed: boolean
}

/**
 * The effect of every reminder and every block the log recorded, in the order
 * the log has them. A reminder is about the latest call up to its place whose
 * tool its summary names last (a step's reminders follow all of the step's
 * results); a cycle reminder's call to repeat is the one that would go on with
 * the cycle. A block is about the call whose result was withheld.
 */
export function effects(transcript: Transcript, compared: Comparison): Followed {
  // Compared as the config compares calls, not as the transcript's evidence does.
  const asConfigured = (call: LoggedCall) => ({
    tool: call.tool,
    args: call.args,
    ignored: compared.ignored(call.tool),
  })
  const { reminders, withheld } = placed(transcript)
  const open = [...reminders, ...withheld].map(({ marker }) => marker).sort((a, b) => a.after - b.after)
  let next = 0
  /** Placed since the last tracked call: the next tracked call decides whether they were repeated. */
  const fresh: Pending[] = []
  /** Placed since the last user message: a user message or the log's end settles what is still open. */
  const segment: Pending[] = []
  /** Markers whose next tracked call was another one, by the key of the call they wait to see again. */
  const awaiting = new Map<string, Pending[]>()
  const key = (call: LoggedCall) => compared.key(asConfigured(call))
  const settle = () => {
    for (const p of segment) p.effect ??= p.passed ? 'changed' : 'ended'
    fresh.length = 0
    segment.length = 0
    awaiting.clear()
  }
  let at = 0
  for (const step of transcript.steps) {
    if (!('tool' in step)) {
      if (step.source.kind === 'user') settle()
      continue
    }
    at++
    if (compared.tracked(step.tool)) {
      if (awaiting.size > 0) {
        const seen = key(step)
        for (const p of awaiting.get(seen) ?? []) p.effect = 'relapsed'
      }
      for (const p of fresh) hear(p, step, (a, b) => compared.sameCall(asConfigured(a), asConfigured(b)), key, awaiting)
      fresh.length = 0
    }
    // Markers placed after this call hear from the calls after it.
    for (let marker = open[next]; marker !== undefined && marker.after <= at; marker = open[++next]) {
      fresh.push(marker)
      segment.push(marker)
    }
  }
  settle()
  return {
    reminders: reminders.map(({ reminder: { afterCall, summary, kind }, marker }) => ({
      afterCall,
      summary,
      kind,
      effect: marker.effect!,
      repeatedResult: marker.about.repeatsResult,
    })),
    withheld: withheld.map(({ at, marker }) => ({ call: at, effect: marker.effect! })),
  }
}

/** What followed each recorded reminder (with where it stood and which it was) and each withheld result. */
interface Followed {
  reminders: (Pick<LoggedReminder, 'afterCall' | 'summary' | 'kind'> & { effect: Effect; repeatedResult: boolean })[]
  withheld: { call: number; effect: Effect }[]
}

/** Each recorded reminder and withheld result with the marker that waits for what the model did next. */
function placed(transcript: Transcript) {
  const calls = transcript.steps.filter((step): step is LoggedCall => 'tool' in step)
  const byTool = indexByTool(calls)
  const withheld = new Set(transcript.withheld)
  return {
    reminders: transcript.reminders.map((reminder) => ({
      reminder,
      marker: pending(calls, byTool, reminder.afterCall, reminder.tools),
    })),
    withheld: calls.flatMap((call, i) => (withheld.has(i + 1) ? [{ at: i + 1, marker: withheldAt(call, i + 1) }] : [])),
  }
}

/** Where each tool's calls are in `calls`, in order. */
function indexByTool(calls: readonly LoggedCall[]): Map<string, number[]> {
  const byTool = new Map<string, number[]>()
  calls.forEach((call, i) => {
    const list = byTool.get(call.tool)
    if (list === undefined) byTool.set(call.tool, [i])
    else list.push(i)
  })
  return byTool
}

/**
 * What the first tracked call after a marker says of it: the same call again
 * (repeated), a busy poll's read now waiting on the job (waited), or another
 * call, after which only the same call coming back decides (relapsed).
 */
function hear(
  p: Pending,
  step: LoggedCall,
  same: (a: LoggedCall, b: LoggedCall) => boolean,
  key: (call: LoggedCall) => string,
  awaiting: Map<string, Pending[]>,
): void {
  if (same(p.target, step)) {
    p.effect = 'repeated'
    return
  }
  // A busy poll's reader that now reads the job with wait: true did what the reminder asked.
  if (waitsOn(p.target.tool, p.target.args, step.tool, step.args)) {
    p.effect = 'waited'
    return
  }
  p.passed = true
  const wanted = key(p.target)
  const list = awaiting.get(wanted)
  if (list === undefined) awaiting.set(wanted, [p])
  else list.push(p)
}

/**
 * The pending effect of the result withheld from `call`, the `at`-th: about that call, and decided
 * by whether it comes again.
 */
function withheldAt(call: LoggedCall, at: number): Pending {
  return { about: call, target: call, after: at, effect: undefined, passed: false }
}

/**
 * The pending effect of a reminder after call `afterCall` about `tools` (as its summary names them:
 * `grep`, or a cycle's `grep`, `read_file`); `byTool` lists each tool's calls by index, ascending.
 */
function pending(
  calls: readonly LoggedCall[],
  byTool: ReadonlyMap<string, readonly number[]>,
  afterCall: number,
  tools: readonly string[],
): Pending {
  const indexes = byTool.get(tools.at(-1)!) ?? []
  // The latest call to the tool up to the reminder: found by halving, so many reminders cost no scan each.
  const low = firstAtOrAfter(indexes, afterCall)
  // A summary cut short names no tool in full: the reminder is then about the call it follows.
  const at = low > 0 ? indexes[low - 1]! : afterCall - 1
  // A cycle goes on with the call that opened its last repetition.
  const about = calls[at]!
  return { about, target: calls[at - tools.length + 1] ?? about, after: afterCall, effect: undefined, passed: false }
}
