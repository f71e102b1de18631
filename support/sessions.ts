import type { Context } from '@deepseek-ai/cordis'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import JsonlSessionPersistence from '@deepseek-ai/dsh-session-persistence-jsonl'
import type { Config } from '../src/config.ts'
import { main } from '../src/replay/cli.ts'
import type { ReplayDocument } from '../src/replay/document.ts'
import { harness, prompt, PROVIDER } from './harness.ts'
import type { Script, ScriptedTurn } from './model.ts'
import { scratch } from './scratch.ts'

export type { ReplayDocument }

/** One session to write: its id, its scripted model, and what else it needs. */
export interface SessionScript {
  id: string
  script: Script | ScriptedTurn[]
  /** How many user prompts to send, one after another (default 1). */
  prompts?: number
  /** Record this session as a subagent of that one. */
  parent?: string
  /** Register more tools, or anything else the session needs, before it runs. */
  setup?: (ctx: Context) => void | Promise<void>
}

/**
 * Run scripted agents through the real loop with the JSONL backend writing their logs on a fresh
 * root; resolve to the root.
 */
export async function writeSessions(
  compression: 'none' | 'zstd',
  sessions: SessionScript[],
  config: Partial<Config> = {},
): Promise<string> {
  const root = await scratch('sessions')
  for (const { id, script, prompts = 1, parent, setup } of sessions) {
    const h = await harness(script, config)
    await setup?.(h.ctx)
    await h.ctx.plugin(JsonlSessionPersistence, { root, compression })
    h.ctx.on('tools/post-execute', async (_exec, _result, next) => {
      const decision = await next()
      const note = createUserMessage({
        content: [{ type: 'text', text: 'note' }],
        source: { kind: 'plugin', plugin: 'other' },
      })
      return { ...decision, additionalContexts: [...(decision.additionalContexts ?? []), note] }
    })
    const meta =
      parent === undefined
        ? {}
        : { meta: { parentSession: SessionId(parent), origin: 'subagent' as const, delegationDepth: 1 } }
    const { agent } = await h.ctx.agents.create({
      sessionId: SessionId(id),
      agentOptions: { provider: PROVIDER, model: 'm' },
      ...meta,
    })
    for (let i = 0; i < prompts; i++) await prompt(h.ctx, agent, `prompt ${i}`)
    await h.ctx.fiber.dispose()
  }
  return root
}

/** Run the replay command with `argv`; resolve to its exit status and everything it wrote. */
export async function runReplay(argv: string[], progress = false, columns?: number) {
  let out = ''
  let err = ''
  const status = await main(argv, {
    out: (text) => {
      out += text
    },
    err: (text) => {
      err += text
    },
    progress,
    columns,
  })
  return { status, out, err }
}

/** `replay <args> --json`, parsed. */
export async function runReplayJson(args: string[]) {
  const { status, out, err } = await runReplay(['replay', ...args, '--json'])
  return { status, err, report: JSON.parse(out) as ReplayDocument }
}

/** Where each reminder stood and its summary, without what replay learns of it: how a config's reminders are listed. */
export function placed(
  reminders: readonly { afterCall: number; summary: string }[],
): { afterCall: number; summary: string }[] {
  return reminders.map(({ afterCall, summary }) => ({ afterCall, summary }))
}
