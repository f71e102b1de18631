import { Config } from '../../src/config.ts'
import { createGuard, type Observation } from '../../src/guard.ts'

/** One call fed to a guard: its tool, its arguments and what it returned. */
export interface Fed {
  tool: string
  args?: unknown
  text?: string
  isError?: boolean
}

/** What a fresh guard under `config` observes of each call, one agent making them in order. */
export function observeAll(config: Partial<Config>, calls: readonly Fed[]): Observation[] {
  const guard = createGuard(Config(config))
  const agent = {} as never
  return calls.map(({ tool, args = {}, text = 'ok', isError = false }) => {
    const observed = guard.observe(
      { agent, name: tool, arguments: args },
      { isError, content: [{ type: 'text', text }] },
    )
    return observed!
  })
}

/** Of each observation, the loop its reminder is about, as data: which kind, how long, which tools. */
export function remindedOf(observations: readonly Observation[]) {
  return observations.map((o) =>
    o.reminded === undefined
      ? undefined
      : { kind: o.reminded.kind, length: o.reminded.length, tools: o.reminded.calls.map((c) => c.tool) },
  )
}
