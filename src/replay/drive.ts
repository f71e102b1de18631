/**
 * Replaying one session: its calls and prompts fed to a fresh guard in the order the live pipeline
 * saw them. The report and `--suggest` both listen to it. Pure.
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Config } from '../config.ts'
import { createGuard, type Observation } from '../guard.ts'
import type { LoggedCall, Transcript } from './transcript.ts'

/**
 * Feed one session's calls and prompts to a fresh guard, in the order the live pipeline saw them;
 * `visit` hears of every tracked call.
 */
export function drive(
  transcript: Transcript,
  config: Config,
  visit: (call: LoggedCall, at: number, seen: Observation) => void,
): number {
  const guard = createGuard(config)
  const agent = {} as Agent
  let at = 0
  let tracked = 0
  let response: number | undefined
  for (const step of transcript.steps) {
    if (!('tool' in step)) {
      guard.step(agent, [step])
      continue
    }
    // Each model response is a step, its calls one batch; a call whose response the log does not name is one alone.
    if (step.response < 0 || step.response !== response) guard.step(agent, [])
    response = step.response
    at++
    const seen = guard.observe({ agent, name: step.tool, arguments: step.args }, step.result, step.ran)
    if (seen === undefined) continue
    tracked++
    visit(step, at, seen)
  }
  return tracked
}
