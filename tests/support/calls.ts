/**
 * The calls and turns the suites script, and how they read what this plugin
 * said: one definition each, shared by every test file.
 */
import type { GenerateOptions, MessageSource } from '@deepseek-ai/dsh-llm'
import { requestContext } from '../../support/harness.ts'
import type { ScriptedCall, ScriptedTurn } from '../../support/model.ts'

/** The search most suites repeat. */
export const GREP: ScriptedCall = { name: 'grep', args: { pattern: 'x' } }
/** A read of one file. */
export const READ: ScriptedCall = { name: 'read_file', args: { path: 'a.ts' } }
/** A todo list write. */
export const TODO: ScriptedCall = { name: 'todo_write', args: { todos: [] } }

/** One model response per call, in order. */
export function turns(...calls: ScriptedCall[]): ScriptedTurn[] {
  return calls.map((call) => ({ calls: [call] }))
}

/** `call`, `n` times. */
export function times(n: number, call: ScriptedCall): ScriptedCall[] {
  return Array.from({ length: n }, () => call)
}

/** The source of a notice from this plugin with `summary`: what every reminder carries, spelled out once. */
export function source(summary: string): MessageSource {
  return { kind: 'plugin', plugin: 'repeat-tool-reminder', form: 'notice', summary } as MessageSource
}

/** The reminders in the request the model is answering, newest last. */
const reminders = (request: GenerateOptions) => requestContext(request).filter((text) => text.startsWith('Reminder: '))

/** A model that greps until it has read a detailed reminder, then reads the file once and answers. */
export function changesAfterDetailed(request: GenerateOptions): ScriptedTurn {
  const seen = reminders(request)
  const detailed = seen.some((text) => text.includes('\n'))
  const read = request.messages.some((m) =>
    m.content.some((b) => b.type === 'tool-result' && JSON.stringify(b).includes('contents of a.ts')),
  )
  if (read) return { text: 'MAX_ATTEMPTS is 4' }
  return { calls: [detailed ? READ : GREP] }
}
