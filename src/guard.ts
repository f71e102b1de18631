/**
 * The guard without the harness wiring: per agent, the identical run (and, with
 * `cycles`, the repeating cycle) the latest tracked call extends, and what is
 * due at that call: a reminder, a withheld result. The plugin's two listeners
 * call it, and `replay` drives it over recorded sessions. It never throws on
 * any arguments or results and keeps nothing for an agent that is gone.
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ContentBlock, UserMessage } from '@deepseek-ai/dsh-llm'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { comparison, type Call, type Comparison } from './compare.ts'
import { nextCycle, type Cycle, type CycleState } from './cycles.ts'
import type { Config } from './config.ts'
import { rereadReminder, reminder, withheldResult, type Loop } from './reminders.ts'
import { failureText, jobOf, type Result, sameOutcome } from './results.ts'
import { findReread, REREAD_WINDOW } from './rereads.ts'
import { kept } from './values.ts'

/**
 * How many reads of a job still running are fair before a busy poll counts as
 * a repeat: two quick checks are. A busy poll's run is measured against the
 * thresholds and `blockAt` one read late, so with the defaults it is reminded
 * at its 4th, 6th and 9th read.
 */
const FAIR_POLLS = 2

/**
 * How many calls to one tool that fail the same way with other arguments are
 * fair before they count as a loop (`sameFailure`): two tries are. Such a run
 * is measured one call late, so with thresholds 2, 4, 7 it is reminded at its
 * 3rd, 5th and 8th call.
 */
const FAIR_FAILURES = 2

/** What a call that has not run is compared with: nothing, as no tool `deny` judges compares outcomes. */
const NO_RESULT: Result = { isError: false, content: [] }

/**
 * How many interrupted runs each agent remembers with `relapse`: enough to come back after a detour
 * of several distinct calls, few enough that each call compares against a handful.
 */
export const RELAPSE_MEMORY = 8

/** One tracked call's effect: the runs it extends and what the live listener attaches to it. */
export interface Observation {
  /** How many identical calls in a row this call makes, itself included. */
  inARow: number
  /** With `cycles`: the repeating cycle of distinct calls this call is part of, if any. */
  cycle: Cycle | undefined
  /** The reminder due at this call, if any. */
  reminder: UserMessage | undefined
  /** With `blockAt`: the feedback that replaces this call's result, if it is withheld. */
  withheld: ContentBlock[] | undefined
  /**
   * Whether a withheld call is one `deny` turns away before it runs (its tool compares no
   * outcomes), calls taken one at a time.
   */
  deniable: boolean
}

/** What the guard reads of a call in the tool pipeline, live or replayed. */
type Execution = Pick<ToolExecution, 'agent' | 'parent' | 'name' | 'arguments'>

/** The guard: what the plugin's listeners call, and what `replay` drives. */
export interface Guard {
  /**
   * One `tools/post-execute` pass; undefined when the call is ignored (no
   * agent, dispatched by a tool, or untracked). `ran` says whether the call's
   * tool ran: false for a call a `tools/pre-execute` listener denied, this
   * plugin or another; a withheld result's feedback says which it was.
   */
  observe(exec: Execution, result: Result, ran?: boolean): Observation | undefined
  /**
   * One `tools/pre-execute` pass, with `blockAt`: the reason to deny a call
   * that `observe` will certainly withhold, so that it never runs; undefined
   * otherwise. Certain means its tool's outcomes are not compared
   * (`resultAware`): where the result decides whether the run goes on, the
   * call runs and is judged after. It changes nothing of the agent's state:
   * `observe` still counts the call when `tools/post-execute` sees it.
   * `allowed` is what every other listener decided: a call they turn away is
   * never denied here, but it is still a call of its step, in model order.
   */
  deny(exec: Execution, allowed?: boolean): string | undefined
  /** One `agent/pre-step` pass: a message from the user entering the step clears the agent's runs. */
  step(agent: Agent, messages: readonly UserMessage[]): void
}

/**
 * One agent's state: its last tracked call, the identical run it is in, (with `relapse`) the runs
 * it interrupted, and (with `cycles`) its recent calls.
 */
interface AgentState extends CycleState {
  /** The latest tracked call. */
  latest: Call
  /** How many identical calls in a row end with it. */
  inARow: number
  /** The identical run's length as reminders count it: `inARow`, plus the resumed stretches (`relapse`). */
  runLength: number
  /** Whether the run resumed after other calls (`relapse`). */
  resumed: boolean
  /**
   * With `relapse`: the latest interrupted runs, oldest first, at most {@link RELAPSE_MEMORY}; a
   * call is in it at most once.
   */
  interrupted: { call: Call; runLength: number }[]
  /** With `sameFailure`: whether the run went on through a call with other arguments that failed the same way. */
  failing: boolean
  /** With `sameFailure`: how many calls in a row, the latest last, failed with the latest's error. */
  failures: number
  /** With `rereads`: the calls before the latest, oldest first, at most {@link REREAD_WINDOW}. */
  history: Call[]
}

/** Build the guard for a config that {@link Config} has validated. */
export function createGuard(config: Config): Guard {
  return new RepeatGuard(config)
}

/** What a call is judged to be once the state has moved to it. */
interface Judgement {
  /** The loop's length as the thresholds and `blockAt` measure it (a busy poll's one read late). */
  measured: number
  remind: boolean
  block: boolean
  /** What the texts say, built only when one is due. */
  text: Loop | undefined
}

class RepeatGuard implements Guard {
  private readonly config: Config
  private readonly lastThreshold: number
  /** The thresholds, looked up in constant time however many a config lists. */
  private readonly thresholds: ReadonlySet<number>
  private readonly compared: Comparison
  private readonly states = new WeakMap<Agent, AgentState>()
  /**
   * With `blockAt` a call is compared in tools/pre-execute and again in
   * tools/post-execute: the answers `deny` found for the call in hand (`exec`),
   * by the earlier call each compares it with, are kept for its post-execute
   * pass, where `call` is that pass's own. Dropped when another call is
   * counted, and at every step.
   */
  private dryRun: { exec: Execution; call: Call; answers: Map<Call, boolean> } | undefined
  /**
   * With `blockAt`: per agent, the calls `deny` has seen that `observe` has
   * not counted yet. Parallel calls of one step all pass `tools/pre-execute`
   * before the first is counted; while an earlier one is uncounted, the run a
   * call continues is not known yet, so it is not denied: it runs, and is
   * judged when it is counted. Emptied at every step, when every call is counted.
   */
  private readonly uncounted = new WeakMap<Agent, Set<Execution>>()

  constructor(config: Config) {
    this.config = config
    this.lastThreshold = config.thresholds.at(-1)!
    this.thresholds = new Set(config.thresholds)
    this.compared = comparison(config)
  }

  observe(exec: Execution, result: Result, ran = true): Observation | undefined {
    const { agent, name: tool, arguments: args } = exec
    if (agent === undefined || exec.parent !== undefined || !this.compared.tracked(tool)) return undefined
    const call = this.compared.call(tool, args, result)
    // What deny compared is kept for this same call only.
    if (this.dryRun?.exec === exec) this.dryRun.call = call
    else this.dryRun = undefined
    let state = this.states.get(agent)
    let cycle: Cycle | undefined
    if (state === undefined) {
      state = {
        latest: call,
        inARow: 1,
        runLength: 1,
        resumed: false,
        interrupted: [],
        recent: [call],
        streaks: [],
        period: 0,
        failing: false,
        failures: call.failed === true ? 1 : 0,
        history: [],
      }
      this.states.set(agent, state)
    } else {
      cycle = this.advance(state, call)
    }
    const { measured, remind, block, text } = this.judge(call, state, cycle)
    // One reminder per answer: the same call again after a reread of it is left to the run and cycle rules.
    const found =
      this.config.rereads && !remind && state.inARow === 1
        ? findReread(state.history, call, this.compared, (a, b) => this.sameCall(a, b))
        : undefined
    const reread = found?.earlier.reread === true && found.otherWords === undefined ? undefined : found
    if (found !== undefined) call.reread = true
    if (this.config.rereads) {
      state.history.push(call)
      if (state.history.length > REREAD_WINDOW) state.history.shift()
    }
    // This call's comparisons are done, and it is counted: nothing of it is kept past this pass.
    this.dryRun = undefined
    if (this.config.blockAt > 0) this.uncounted.get(agent)?.delete(exec)
    return {
      inARow: state.inARow,
      cycle,
      reminder: remind
        ? reminder(text!, measured === this.config.thresholds[0], this.config.argumentsPreviewChars)
        : reread === undefined
          ? undefined
          : rereadReminder(tool, reread.back, reread.otherWords, this.config.argumentsPreviewChars),
      withheld: block ? withheldResult(text!, ran) : undefined,
      deniable: block && !this.compared.comparesOutcome(tool),
    }
  }

  deny(exec: Execution, allowed = true): string | undefined {
    const { agent, name: tool, arguments: args } = exec
    if (this.config.blockAt === 0 || agent === undefined || exec.parent !== undefined || !this.compared.tracked(tool))
      return undefined
    const calls = kept(this.uncounted, agent, () => new Set<Execution>())
    const earlier = calls.size > 0
    calls.add(exec)
    const state = this.states.get(agent)
    if (!allowed || earlier || state === undefined || this.compared.comparesOutcome(tool)) return undefined
    const call = this.compared.call(tool, args, NO_RESULT)
    this.dryRun = { exec, call, answers: new Map() }
    // A dry run on a copy: the agent's state moves only when tools/post-execute counts the call.
    const copy = {
      ...state,
      interrupted: [...state.interrupted],
      recent: [...state.recent],
      streaks: [...state.streaks],
      history: state.history,
    }
    const { block, text } = this.judge(call, copy, this.advance(copy, call))
    if (!block) return undefined
    return (withheldResult(text!, false)[0] as { text: string }).text
  }

  step(agent: Agent, messages: readonly UserMessage[]): void {
    // Every call of the last step has been counted (or will never be): none is uncounted any more, and
    // nothing compared for one is kept.
    this.uncounted.delete(agent)
    this.dryRun = undefined
    if (messages.some((message) => message.source.kind === 'user')) this.states.delete(agent)
  }

  /** Whether two calls are the same, answered from the memo while the call in hand is compared twice. */
  private sameCall(a: Call, b: Call): boolean {
    const { dryRun } = this
    if (dryRun === undefined || dryRun.call !== b) return this.compared.sameCall(a, b)
    return kept(dryRun.answers, a, () => this.compared.sameCall(a, b))
  }

  /** Whether `b` repeats `a`: the same call, with the same outcome where outcomes are compared. */
  private readonly same = (a: Call, b: Call): boolean => this.sameCall(a, b) && sameOutcome(a.outcome, b.outcome)

  /**
   * With `sameFailure`: whether `b` fails as `a` did, a call to the same tool with the same error
   * text, whatever the arguments (the same outcome fails or not alike).
   */
  private sameFailure(a: Call, b: Call): boolean {
    return this.config.sameFailure && a.tool === b.tool && b.failed === true && sameOutcome(a.seen, b.seen)
  }

  /** Advance an agent's state with one tracked call; return this call's cycle, if any. */
  private advance(state: AgentState, call: Call): Cycle | undefined {
    const same = this.same(state.latest, call)
    // A run of failures goes on only through a call that fails the same way, the same call or not: a call that
    // succeeds ends it, and is never quoted as its error.
    const failure = this.sameFailure(state.latest, call)
    state.failures = failure ? state.failures + 1 : call.failed === true ? 1 : 0
    const identical = state.failing ? failure : same || failure
    if (identical && !same && !state.failing) {
      // A run of failures starts inside a run of identical calls: it counts only the calls that failed this way.
      state.inARow = state.runLength = state.failures
      state.failing = true
    } else if (identical) {
      state.inARow++
      state.runLength++
    } else {
      const back = this.config.relapse ? this.resume(state, call) : undefined
      state.inARow = 1
      state.runLength = (back ?? 0) + 1
      state.resumed = back !== undefined
      state.failing = false
    }
    // Keep the newest call even on a repeat: its large key lists are the cached ones.
    state.latest = call
    return this.config.cycles ? nextCycle(state, call, identical, this.config.maxCyclePeriod, this.same) : undefined
  }

  /**
   * With `relapse`: remember the run `call` interrupts, and take back the one `call` resumes;
   * resolve to its run length.
   */
  private resume(state: AgentState, call: Call): number | undefined {
    const { interrupted } = state
    const at = interrupted.findIndex((run) => this.same(run.call, call))
    const back = at < 0 ? undefined : interrupted.splice(at, 1)[0]!.runLength
    interrupted.push({ call: state.latest, runLength: state.runLength })
    if (interrupted.length > RELAPSE_MEMORY) interrupted.shift()
    return back
  }

  /**
   * Whether a reminder is due at this measured loop length: a threshold, or with `remindEvery` every so
   * many past the last.
   */
  private due(measured: number): boolean {
    const { remindEvery } = this.config
    return (
      this.thresholds.has(measured) ||
      (remindEvery > 0 && measured > this.lastThreshold && (measured - this.lastThreshold) % remindEvery === 0)
    )
  }

  /**
   * What is due at `call`, the state advanced to it: the measured run, and whether a reminder or
   * the withheld feedback is.
   */
  private judge(call: Call, { runLength, resumed, failing }: AgentState, cycle: Cycle | undefined): Judgement {
    const { blockAt, argumentsPreviewChars: cap } = this.config
    // The loop a reminder or block is about: the cycle when there is one, else the identical run.
    const loopLength = cycle?.length ?? runLength
    // A run of reads of a job still running is a busy poll, measured from its second read (FAIR_POLLS).
    const poll = cycle === undefined && call.outcome?.running !== undefined
    // A run of the same failure with other arguments, measured from its second call
    // (FAIR_FAILURES); a call that goes on failing continues no cycle.
    const failure = failing
    const measured = poll ? loopLength - FAIR_POLLS + 1 : failure ? loopLength - FAIR_FAILURES + 1 : loopLength
    const remind = (cycle?.complete ?? true) && this.due(measured)
    const block = blockAt > 0 && measured >= blockAt
    // Texts are built only when due: most calls need none.
    const calls = cycle?.calls ?? [call]
    const text =
      remind || block
        ? {
            calls,
            length: loopLength,
            sameResults: calls.every((c) => c.outcome !== undefined),
            resumed,
            job: poll ? jobOf(call.args, cap) : undefined,
            failure: failure ? failureText(call.seen) : undefined,
          }
        : undefined
    return { measured, remind, block, text }
  }
}
