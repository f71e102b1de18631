/**
 * A silent command run again (`reruns`): a call that is no read prints
 * nothing, as the same call did 2 to 6 calls back, and every call between
 * them only read, failed in a tool other than `bash`, was refused, or printed
 * nothing too without waiting or writing a file the lexer sees (a redirection,
 * `tee`, `sed -i`). Nothing the model saw since says this run would print
 * anything; the loops real users make show it running the same script again
 * and again into silence. A read is the `rereads` rule's, a call that waits
 * (`shell/waits.ts`) is a poll's, and a failure is not silence: `(no output)`
 * followed by an exit code has something to say. Advice: it never withholds.
 */
import Schema from '@deepseek-ai/schemastery'
import { option } from '../checks.ts'
import { type Call, type Comparison, comparison } from '../compare.ts'
import { failed, isEmpty } from '../failures.ts'
import { TRUE_OR_FALSE } from '../options.ts'
import { readsUnder } from '../reads.ts'
import { type Outcome, sameOutcome } from '../results.ts'
import { SHELL_TOOL } from '../shell/command.ts'
import { waits, writesFiles } from '../shell/waits.ts'
import { adviceOn, type Entry, type Found, type Seen } from './rule.ts'

/** How far back a rerun is looked for: the same call among the 6 calls before it. */
const RERUN_WINDOW = 6

/** A call that printed nothing, as the same call did 2 to 6 calls back, ending with `call`. */
export interface RerunVerdict extends Found {
  readonly kind: 'rerun'
  readonly call: Call
  /** How many calls back the same call is. */
  readonly back: number
}

/** The reminder for a call that printed nothing, as the same call did `back` calls ago. */
export function rerunText(back: number): string {
  return (
    `Reminder: you made this same call ${back} calls ago and it printed nothing; ` +
    'since then every call has only read, failed or printed nothing too, and this one printed nothing again. ' +
    'Running it unchanged once more will most likely show you nothing new. ' +
    'Find out why it prints nothing (where its output goes, whether it does anything at all), ' +
    'or run something else.'
  )
}

/** A call as this rule remembers it. */
interface Made {
  readonly call: Call
  readonly outcome: Outcome
  /** Whether it printed nothing, without failing. */
  readonly silent: boolean
  /**
   * Whether, between two silent runs, it leaves the second unexplained: it only read, failed in a
   * tool other than `bash`, was refused, or printed nothing without waiting or writing a file.
   */
  readonly quiet: boolean
  /** Whether it was itself reminded as a rerun. */
  rerun?: true
}

const options = {
  reruns: option(
    Schema.boolean(),
    false,
    'Opt-in: remind a silent call made again 2 to 6 calls later, with only reads, failures or silence between.',
    TRUE_OR_FALSE,
  ),
}

/**
 * The rerun rule's entry: it speaks at a call that starts no run, when no reminder is due for it,
 * and once per silence: a call that repeats a rerun of itself is left to the run and cycle rules.
 */
export const rerun: Entry<typeof options, RerunVerdict, 'advice'> = {
  phase: 'advice',
  options,
  kind: 'rerun',
  texts: {
    mark: ' (rerun)',
    notice: ({ back }) => rerunText(back),
  },
  candidate: { reruns: true },
  make(config) {
    if (!config.reruns) return undefined
    const compared = comparison(config)
    const readsOf = readsUnder(config)
    // Worked out at the call, once: a call is judged as a call between at most five times.
    const remembered = ({ call, result, ran }: Pick<Seen, 'call' | 'result' | 'ran'>): Made => {
      const outcome = compared.outcome(call, result)
      // Silence is judged on the result as the model read it, before locators or noise are masked.
      const silent = !result.isError && isEmpty(result)
      const fails = call.tool !== SHELL_TOOL && failed(result.isError, result.content)
      const { readOnly, writes } = readsOf(call)
      const still = silent && !waits(call.tool, call.args) && !writesFiles(call.tool, call.args) && !writes?.length
      return { call, outcome, silent, quiet: !ran || fails || readOnly || still }
    }
    /** Whether a silent call may be a rerun: a read is the `rereads` rule's, a call that waits a poll's. */
    const runs = ({ call }: Made) => !readsOf(call).readOnly && !waits(call.tool, call.args)
    return {
      phase: 'advice',
      start: (first): Made[] => [remembered(first)],
      copy: (history: Made[]) => [...history],
      step(history: Made[], seen, found, reminded) {
        const made = remembered(seen)
        const hit =
          !reminded && found.run === 1 && made.silent && runs(made) ? findRerun(history, made, compared) : undefined
        history.push(made)
        if (history.length > RERUN_WINDOW) history.shift()
        if (hit === undefined) return undefined
        made.rerun = true
        return { kind: 'rerun', ...adviceOn(seen.call, found, 2), back: hit }
      },
    }
  },
}

/**
 * How many calls back in `history` (oldest first, at most {@link RERUN_WINDOW}) the same call as
 * `made` printed the same nothing, when every call between them is {@link Made.quiet}; undefined for
 * none.
 */
function findRerun(history: readonly Made[], made: Made, compared: Comparison): number | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const earlier = history[i] as Made
    if (!compared.sameCall(earlier.call, made.call)) continue
    // The latest same call decides. The one right before, with the same outcome, would have made a run.
    if (earlier.rerun === true || !sameOutcome(earlier.outcome, made.outcome)) return undefined
    return history.slice(i + 1).every((between) => between.quiet) ? history.length - i : undefined
  }
  return undefined
}
