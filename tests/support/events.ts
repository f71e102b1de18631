import { type EffectCounts, noEffects } from '../../src/replay/effects.ts'
import { EFFECT_KINDS, type EffectKind } from '../../src/replay/totals.ts'
/**
 * Session events built in memory, shaped as the loop writes them: for the
 * suites that read a log into a transcript without running an agent.
 */
import type { SessionEvent } from '@deepseek-ai/dsh-session'
import type { transcribe, LoggedCall } from '../../src/replay/transcript.ts'

/**
 * One call as a log records it: the tool, its arguments, and the result content (text blocks, or
 * blocks as given, hostile ones too).
 */
export interface Logged {
  tool: string
  args: unknown
  result?: string | ({ type: string; text?: string } | null)[]
  isError?: boolean
}

/** In-memory session events, shaped as the loop writes them, for the calls in order. */
export function events(...calls: Logged[]): SessionEvent[] {
  let seq = 0
  return calls.flatMap(({ tool, args, result = 'ok', isError = false }, i) => {
    const callId = `call-${i + 1}`
    const content = typeof result === 'string' ? [{ type: 'text', text: result }] : result
    return [
      { type: 'tool/call', seq: seq++, data: { callId, name: tool, arguments: JSON.stringify(args) } },
      {
        type: 'tool/result',
        seq: seq++,
        data: { message: { content: [{ type: 'tool-result', toolCallId: callId, content, isError }] } },
      },
    ] as unknown as SessionEvent[]
  })
}

/** The calls of a transcript, without the user messages between them. */
export const calls = (session: ReturnType<typeof transcribe>) =>
  session.steps.filter((s): s is LoggedCall => 'tool' in s)
/** Per call: whether it repeats the call before it, whether its result repeats, and both. */
export const flags = (session: ReturnType<typeof transcribe>) =>
  calls(session).map((c) => [c.repeatsCall, c.repeatsResult, c.repeatsCall && c.repeatsResult])
/** The search most replay suites log, as a log records a call. */
export const LOGGED_GREP: Logged = { tool: 'grep', args: { p: 'x' } }

/**
 * A user message as the log records it: a reminder from this plugin with `summary` and `text`, or
 * the user's prompt.
 */
export function message(seq: number, source: Record<string, unknown>, text = 'x'): SessionEvent {
  return { type: 'user/message', seq, data: { content: [{ type: 'text', text }], source } } as unknown as SessionEvent
}
/** This plugin's notice as the log records it, with `summary`. */
export const reminder = (seq: number, summary: unknown, text = 'Reminder') =>
  message(seq, { kind: 'plugin', plugin: 'repeat-tool-reminder', form: 'notice', summary }, text)

/** The totals' effects with every kind of reminder at none, but for `counted`: a new kind changes no test. */
export function effectsWith(
  counted: Partial<Record<EffectKind, Partial<EffectCounts>>>,
): Record<EffectKind, EffectCounts> {
  return Object.fromEntries(EFFECT_KINDS.map((kind) => [kind, { ...noEffects(), ...counted[kind] }])) as Record<
    EffectKind,
    EffectCounts
  >
}
