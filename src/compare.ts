/**
 * How two calls are compared under a config, in one place: which tools are
 * tracked, when two calls are the same call (the tool and its arguments, the
 * `ignoreArguments` entries left out), and which outcome a call has to compare
 * (`resultAware`: the result as `results.ts` reads it, whose `sameOutcome` says
 * when two are the same). The live guard, replay's transcript and its effects
 * all ask this module, so a notion of "the same" is written once. Builds its
 * filters once per config object; never throws on any value.
 */
import { canonical, sameArguments, type ToolCall } from './arguments.ts'
import { anyOf, argumentFilter, toolFilter } from './patterns.ts'
import { type Outcome, outcome, type Result } from './results.ts'
import { waits } from './shell/waits.ts'
import { kept } from './values.ts'

/** One call as it is compared. */
export interface Call extends ToolCall {
  /** With `resultAware` for its tool, or `waits` for a call that waits, its outcome as compared; else undefined. */
  outcome: Outcome | undefined
}

/** The comparison a config makes. */
export interface Comparison {
  /** Whether calls to `tool` are tracked at all (`include`, `exclude`). */
  tracked(tool: string): boolean
  /** The top-level arguments calls to `tool` are compared without. */
  ignored(tool: string): readonly string[]
  /** Whether calls to `tool` are compared by their outcomes too (`resultAware`). */
  comparesOutcome(tool: string): boolean
  /** A call as compared: its outcome taken from `result` only when its tool compares outcomes. */
  call(tool: string, args: unknown, result: Result): Call
  /**
   * The outcome of `call`, which returned `result`, whatever `resultAware` says: for the rules that
   * judge every call's result. Worked out once per call, however many rules ask.
   */
  outcome(call: Call, result: Result): Outcome
  /** Whether two calls are the same call: the same tool, and the same arguments as compared. */
  sameCall(a: ToolCall, b: ToolCall): boolean
  /** A text that two calls share exactly when they are the same call. */
  key(call: ToolCall): string
}

/** Which parts of a config decide what is the same (see `Config`). */
export interface ComparedBy {
  include: readonly string[]
  exclude: readonly string[]
  ignoreArguments: readonly string[]
  resultAware: boolean | readonly string[]
  maskNoise?: boolean
  waits?: boolean
}

/** The outcome of a call that waits on purpose (`waits`): like a read that waited on its job, never the same. */
const WAITED: Outcome = { isError: false, content: undefined, waited: true }

/**
 * The comparison each config makes, built once per config object: a config is never changed once
 * judged, and its filters can be large.
 */
const made = new WeakMap<ComparedBy, Comparison>()

/** The comparison `config` makes; the same object for the same config. */
export function comparison(config: ComparedBy): Comparison {
  return kept(made, config, () => build(config))
}

function build(config: ComparedBy): Comparison {
  const tracked = toolFilter(config.include, config.exclude)
  const ignored = argumentFilter(config.ignoreArguments)
  const resultAware =
    config.resultAware === true ? () => true : config.resultAware === false ? () => false : anyOf(config.resultAware)
  // Calls to one tool share their ignored arguments, so either side's list serves.
  const sameCall = (a: ToolCall, b: ToolCall) => a.tool === b.tool && sameArguments(a.args, b.args, a.ignored)
  const noise = config.maskNoise === true
  const waiting = config.waits === true
  // Each call's outcome as the rules that judge every result ask for it: several may, for the same call.
  const outcomes = new WeakMap<Call, Outcome>()
  const call = (tool: string, args: unknown, result: Result): Call => ({
    tool,
    args,
    ignored: ignored(tool),
    outcome:
      waiting && waits(tool, args)
        ? WAITED
        : resultAware(tool)
          ? outcome(tool, args, result.isError, result.content, noise)
          : undefined,
  })
  return {
    tracked,
    ignored,
    comparesOutcome: resultAware,
    call,
    outcome: (c, result) =>
      c.outcome ?? kept(outcomes, c, () => outcome(c.tool, c.args, result.isError, result.content, noise)),
    sameCall,
    key: (call) => `${call.tool}\n${canonical(call.args, call.ignored)}`,
  }
}
