/**
 * The guard without the harness wiring: per agent, the rules a config switches
 * on (`rules/`), run in order over each tracked call, and what is due at that
 * call: a reminder, a withheld result. The guard owns only what every rule
 * shares: the call before, the thresholds and withholding; and, with
 * `blockAt`, the dry run that `deny` makes on a copy of the state. The
 * plugin's listeners call it, and `replay` drives it over recorded sessions.
 * It never throws on any arguments or results and keeps nothing for an agent
 * that is gone.
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { comparison, type Call, type Comparison } from './compare.ts'
import type { Config } from './config.ts'
import { notice, withheldText } from './reminders.ts'
import { type Result, sameOutcome } from './results.ts'
import { type AnyRule, type LoopVerdict, rulesOf, type Verdict } from './rules/index.ts'
import type { Found, LoopRule, Seen } from './rules/rule.ts'
import { kept } from './values.ts'
import { FIRST, type Observation } from './observation.ts'

export type { Observation }

/** What a call that has not run is compared with: nothing, as no tool `deny` judges compares outcomes. */
const NO_RESULT: Result = { isError: false, content: [] }

/** What the first rule, the identical run's, is handed as the verdict before it: none yet. */
const NONE: Found = { kind: 'none', calls: [], run: 0, length: 0, measured: 0, complete: false, resumed: false }

/** What the guard reads of a call in the tool pipeline, live or replayed. */
type Execution = Pick<ToolExecution, 'agent' | 'parent' | 'name' | 'arguments'>

/** The guard: what the plugin's listeners call, and what `replay` drives. */
export interface Guard {
  /**
   * Whether `observe` needs to be told whether a call ran: with `blockAt`, or a rule that asks
   * (`watchesDispatch`); the plugin then watches `tools/execute`.
   */
  readonly watchesDispatch: boolean
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

/** One agent's state: its latest tracked call, and each rule's own state, in the rules' order. */
interface AgentState {
  latest: Call
  rules: unknown[]
}

/** Build the guard for a config that {@link Config} has validated. */
export function createGuard(config: Config): Guard {
  return new RepeatGuard(config)
}

class RepeatGuard implements Guard {
  private readonly config: Config
  private readonly lastThreshold: number
  /** The thresholds, looked up in constant time however many a config lists. */
  private readonly thresholds: ReadonlySet<number>
  private readonly compared: Comparison
  private readonly rules: readonly AnyRule[]
  readonly watchesDispatch: boolean
  private readonly states = new WeakMap<Agent, AgentState>()
  /**
   * With `blockAt` a call is compared in tools/pre-execute and again in
   * tools/post-execute: the answers `deny` found for the call in hand (`exec`),
   * by the earlier call each compares it with, are kept for its post-execute
   * pass, where `call` is that pass's own. Dropped once the call is counted,
   * and at every step.
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
  /** The agents that made a tracked call in the step under way: a call of theirs is in `latest`'s step. */
  private readonly stepping = new WeakSet<Agent>()

  constructor(config: Config) {
    this.config = config
    this.lastThreshold = config.thresholds.at(-1) as number
    this.thresholds = new Set(config.thresholds)
    this.compared = comparison(config)
    this.rules = rulesOf(config)
    this.watchesDispatch = config.blockAt > 0 || this.rules.some((rule) => rule.watchesDispatch === true)
  }

  observe(exec: Execution, result: Result, ran = true): Observation | undefined {
    const { agent, name: tool, arguments: args } = exec
    if (agent === undefined || exec.parent !== undefined || !this.compared.tracked(tool)) return undefined
    const call = this.compared.call(tool, args, result)
    // What deny compared is kept for this same call only.
    if (this.dryRun?.exec === exec) this.dryRun.call = call
    else this.dryRun = undefined
    const state = this.states.get(agent)
    let observation: Observation
    if (state === undefined) {
      const first = { call, result, ran }
      this.states.set(agent, { latest: call, rules: this.rules.map((rule) => rule.start(first)) })
      observation = { ...FIRST }
    } else observation = this.next(state, call, result, ran, this.stepping.has(agent))
    // This call is counted: it is no longer uncounted, and nothing compared for it is kept.
    this.dryRun = undefined
    this.uncounted.get(agent)?.delete(exec)
    this.stepping.add(agent)
    return observation
  }

  /** What a call after an agent's first is: the rules step over it, and what is due is written. */
  private next(state: AgentState, call: Call, result: Result, ran: boolean, sameStep: boolean): Observation {
    const seen = this.seen(state, call, result, ran, sameStep)
    const loop = this.measure(state, seen)
    const remind = loop.complete && this.due(loop.measured)
    const block = this.blocks(loop)
    let advice: Verdict | undefined
    let outranks = false
    const { rules } = this
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i] as AnyRule
      if (rule.phase !== 'advice') continue
      const said = rule.step(state.rules[i], seen, loop, remind)
      if (said === undefined) continue
      advice = said
      outranks = rule.outranks === true
    }
    const reminded = remind && !outranks ? loop : advice
    const { argumentsPreviewChars: cap } = this.config
    return {
      inARow: loop.run,
      cycle: loop.kind === 'cycle' ? { calls: loop.calls, length: loop.length, complete: loop.complete } : undefined,
      reminded,
      reminder: reminded && notice(reminded, { first: loop.measured === this.config.thresholds[0], cap }),
      withheld: block ? [{ type: 'text', text: withheldText(loop, ran) }] : undefined,
      deniable: block && !this.compared.comparesOutcome(call.tool),
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
    const sameStep = this.stepping.has(agent)
    /** A dry run on a copy, as if the call returned `result`: the state moves only when post-execute counts it. */
    const dry = (result: Result, as: Call) => {
      const copy = { latest: state.latest, rules: this.rules.map((rule, i) => rule.copy(state.rules[i])) }
      return this.measure(copy, this.seen(copy, as, result, true, sameStep))
    }
    const loop = dry(NO_RESULT, call)
    if (!this.blocks(loop)) return undefined
    // Certain means whatever comes back: a result that could change a rule's verdict must be withheld too.
    const others = this.rules.map((rule, i) => rule.unsure?.(state.rules[i], call)).filter((r) => r !== undefined)
    const certain = others.every((other) => this.blocks(dry(other, this.compared.call(tool, args, other))))
    return certain ? withheldText(loop, false) : undefined
  }

  step(agent: Agent, messages: readonly UserMessage[]): void {
    // Every call of the last step has been counted (or will never be): none is uncounted any more.
    this.uncounted.delete(agent)
    this.stepping.delete(agent)
    this.dryRun = undefined
    if (messages.some((message) => message.source.kind === 'user')) this.states.delete(agent)
  }

  /** How the rules see `call`, the next call of the agent whose state is `state`. */
  private seen(state: AgentState, call: Call, result: Result, ran: boolean, sameStep: boolean): Seen {
    const { latest } = state
    const sameCall = this.sameCall(latest, call)
    const repeats = sameCall && sameOutcome(latest.outcome, call.outcome)
    const { same } = this
    return { call, result, ran, sameStep, latest, same, sameCall, repeats, continues: repeats, from: undefined }
  }

  /**
   * Move the loop rules' states to the call: the loop they find it in. The first rule, the identical
   * run's, always gives a verdict; each rule after it may replace the one that stands.
   */
  private measure(state: AgentState, seen: Seen): LoopVerdict {
    const { rules } = this
    // The registry lists the identical run first, and it is always on.
    const [first] = rules as [LoopRule<unknown, LoopVerdict>]
    // Indexed loops: the hot path allocates no iterator.
    for (let i = 0; i < rules.length; i++) (rules[i] as AnyRule).link?.(state.rules[i], seen)
    let found = first.step(state.rules[0], seen, NONE) as LoopVerdict
    for (let i = 1; i < rules.length; i++) {
      const rule = rules[i] as AnyRule
      if (rule.phase === 'loop') found = rule.step(state.rules[i], seen, found) ?? found
    }
    state.latest = seen.call
    return found
  }

  /** Whether `loop`'s call is withheld (`blockAt`): from that measured length on. */
  private blocks(loop: Found): boolean {
    const { blockAt } = this.config
    return blockAt > 0 && loop.measured >= blockAt
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
}
