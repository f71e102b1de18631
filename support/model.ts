/**
 * A scripted model for tests and the demo: a real harness `LlmAdapter` that
 * replays stream chunks from a script and records every request it is sent.
 */
import { LlmAdapter, type CallId, type GenerateOptions, type StreamChunk, type TokenUsage } from '@deepseek-ai/dsh-llm'

/** One tool call the model emits; `args` that is not a string is sent as JSON. */
export interface ScriptedCall {
  name: string
  args: unknown
}

/**
 * One model response: tool calls, or a final text answer; with `usage`, the token counts the
 * adapter reports for it.
 */
export type ScriptedTurn = ({ calls: ScriptedCall[] } | { text: string }) & { usage?: TokenUsage }

/** Decides the next response from the request the model was just sent; it may wait for something first. */
export type Script = (request: GenerateOptions, index: number) => ScriptedTurn | Promise<ScriptedTurn>

/** A model that answers from a script and records each request. */
export class ScriptedModel extends LlmAdapter {
  readonly requests: GenerateOptions[] = []
  private readonly script: Script

  /** A list is replayed in order, then the model answers `done`; a function reacts to each request. */
  constructor(script: Script | ScriptedTurn[]) {
    super()
    this.script = typeof script === 'function' ? script : (_request, index) => script[index] ?? { text: 'done' }
  }

  async *stream(options: GenerateOptions): AsyncIterable<StreamChunk> {
    const index = this.requests.push(options) - 1
    yield* chunks(await this.script(options, index), index)
  }
}

function chunks(turn: ScriptedTurn, index: number): StreamChunk[] {
  const usage: StreamChunk[] = turn.usage === undefined ? [] : [{ type: 'usage', usage: turn.usage }]
  if ('text' in turn) {
    return [
      { type: 'block-start', index: 0, blockType: 'text' },
      { type: 'text-delta', index: 0, text: turn.text },
      { type: 'block-end', index: 0, block: { type: 'text', text: turn.text } },
      ...usage,
      { type: 'finish', reason: { kind: 'stop' } },
    ]
  }
  return [
    ...turn.calls.flatMap((call, i): StreamChunk[] => {
      const id = `call-${index + 1}-${i + 1}` as CallId
      const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args)
      return [
        { type: 'block-start', index: i, blockType: 'tool-call' },
        { type: 'tool-call-delta', index: i, id, name: call.name, argumentsDelta: args },
        { type: 'block-end', index: i, block: { type: 'tool-call', id, name: call.name, arguments: args } },
      ]
    }),
    ...usage,
    { type: 'finish', reason: { kind: 'tool-calls' } },
  ]
}
