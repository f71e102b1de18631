/**
 * Boots a real harness (session store, LLM runtime, tool registry, system
 * prompt, agent registry, agent loop, invariant checks) in one cordis context,
 * with content tools and a scripted model, and runs agents to idle.
 */
import { Context } from '@deepseek-ai/cordis'
import type { Agent, AgentHandle } from '@deepseek-ai/dsh-agent'
import AgentRegistry from '@deepseek-ai/dsh-agent'
import * as AgentInvariant from '@deepseek-ai/dsh-agent/invariant'
import AgentLoop from '@deepseek-ai/dsh-agent-loop'
import * as AgentLoopInvariant from '@deepseek-ai/dsh-agent-loop/invariant'
import InvariantRegistry from '@deepseek-ai/dsh-invariants'
import LlmRuntime, { createUserMessage, type MessageSource } from '@deepseek-ai/dsh-llm'
import SessionStore, { SessionId } from '@deepseek-ai/dsh-session'
import * as SessionInvariant from '@deepseek-ai/dsh-session/invariant'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime, { defineContentToolFixture } from '@deepseek-ai/dsh-tools'
import * as ToolsInvariant from '@deepseek-ai/dsh-tools/invariant'
import * as Reminder from '../src/index.ts'
import * as ReminderInvariant from '../src/invariant.ts'
import { ScriptedModel, type Script, type ScriptedTurn } from './model.ts'

/** The provider route the scripted model is registered under. */
export const PROVIDER = 'scripted'

/**
 * Mount the harness services (with their invariant companions unless `invariants` is false) on a
 * fresh root context.
 */
export async function bootHarness({ invariants = true } = {}): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(InvariantRegistry, { enabled: invariants })
  await ctx.plugin(SessionStore)
  await ctx.plugin(LlmRuntime)
  await ctx.plugin(ToolRuntime, {})
  await ctx.plugin(SystemPrompt, {})
  await ctx.plugin(AgentRegistry)
  await ctx.plugin(AgentLoop, { agents: [] })
  for (const companion of [SessionInvariant, AgentInvariant, AgentLoopInvariant, ToolsInvariant, ReminderInvariant]) {
    await ctx.plugin(companion)
  }
  registerContentTools(ctx)
  return ctx
}

/** Register `grep`, `read_file` and `todo_write`: content tools that answer from their arguments. */
export function registerContentTools(ctx: Context): void {
  ctx.tools.register(
    defineContentToolFixture({
      name: 'grep',
      description: 'Search files for a pattern.',
      parameters: { pattern: { type: 'string', required: true }, path: { type: 'string' } },
      async execute(args) {
        return [{ type: 'text', text: `no match for ${args.pattern}` }]
      },
    }),
  )
  ctx.tools.register(
    defineContentToolFixture({
      name: 'read_file',
      description: 'Read a file.',
      parameters: { path: { type: 'string', required: true } },
      async execute(args) {
        return [{ type: 'text', text: `contents of ${args.path}` }]
      },
    }),
  )
  ctx.tools.register(
    defineContentToolFixture({
      name: 'todo_write',
      description: 'Replace the todo list.',
      parameters: { todos: { type: 'json' } },
      async execute() {
        return [{ type: 'text', text: 'todos updated' }]
      },
    }),
  )
}

/** A booted harness with the plugin mounted and one scripted model. */
export interface Harness {
  ctx: Context
  model: ScriptedModel
  /** Create an agent on the scripted model; `id` defaults to a fresh one. */
  agent(id?: string): Promise<AgentHandle>
  /** Send a user prompt and resolve when the agent is idle again. */
  prompt(agent: Agent, text?: string): Promise<void>
  /** Create a fresh agent, prompt it once, and resolve with it when it is idle. */
  run(): Promise<Agent>
}

let agents = 0

/** Boot the harness, mount the plugin with `config`, and script the model. */
export async function harness(
  script: Script | ScriptedTurn[],
  config: Partial<Reminder.Config> = {},
): Promise<Harness> {
  const ctx = await bootHarness()
  await ctx.plugin(Reminder, config)
  const model = new ScriptedModel(script)
  ctx.llm.registerAdapter([PROVIDER], model)
  return {
    ctx,
    model,
    agent: (id = `agent-${++agents}`) =>
      ctx.agents.create({
        sessionId: SessionId(id),
        agentOptions: { provider: PROVIDER, model: 'scripted-1' },
      }),
    prompt: (agent, text = 'go') => prompt(ctx, agent, text),
    async run(this: Harness) {
      const { agent } = await this.agent()
      await this.prompt(agent)
      return agent
    },
  }
}

/** Boot a harness with the plugin at `config`, run one fresh agent on `script` to idle, and return it. */
export async function runAgent(script: Script | ScriptedTurn[], config: Partial<Reminder.Config> = {}): Promise<Agent> {
  return (await harness(script, config)).run()
}

/** Send a user prompt to `agent` and resolve on its next `agent/status` idle. */
export function prompt(ctx: Context, agent: Agent, text: string): Promise<void> {
  const idle = untilIdle(ctx, agent)
  agent.followup(createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }))
  return idle
}

/** Resolve on the next `agent/status` event that reports `agent` idle. */
export function untilIdle(ctx: Context, agent: Agent): Promise<void> {
  const { promise, resolve } = Promise.withResolvers<void>()
  const off = ctx.on('agent/status', ({ agent: subject, status }) => {
    if (subject === agent && status === 'idle') {
      off()
      resolve()
    }
  })
  return promise
}

/** One plugin-sourced message as it stands in the session log. */
export interface Injected {
  /** Position among the agent's tool results: the reminder follows result number `afterCall`. */
  afterCall: number
  text: string
  source: MessageSource
}

/** Every plugin-sourced `user/message` in the agent's log, with the tool result it follows. */
export function injected(agent: Agent): Injected[] {
  const found: Injected[] = []
  let calls = 0
  for (const event of agent.session.events) {
    if (event.type === 'tool/result') calls++
    if (event.type === 'user/message' && event.data.source.kind === 'plugin') {
      const [block] = event.data.content
      found.push({ afterCall: calls, text: block?.type === 'text' ? block.text : '', source: event.data.source })
    }
  }
  return found
}

/** This plugin's notices in the agent's log: its reminders, with the tool result each follows. */
export function reminders(agent: Agent): Injected[] {
  return injected(agent).filter(({ source }) => source.kind === 'plugin' && source.plugin === Reminder.name)
}

/** Where each of this plugin's reminders stands: after which tool result. */
export function afterCalls(agent: Agent): number[] {
  return reminders(agent).map((r) => r.afterCall)
}

/** The summary of each of this plugin's reminders (`grep × 3`). */
export function summaries(agent: Agent): string[] {
  return reminders(agent).map((r) => (r.source as { summary: string }).summary)
}

/** Each tool result in the agent's log, in order, as [isError, text]. */
export function toolResults(agent: Agent): [boolean, string][] {
  return agent.session.events.flatMap((event) => {
    if (event.type !== 'tool/result') return []
    const [block] = event.data.message.content
    return [[block.isError === true, block.content.map((c) => (c.type === 'text' ? c.text : '')).join('')]]
  })
}

/** The text of every plugin-sourced message in one model request, in order. */
export function requestContext(request: {
  messages: readonly { source: MessageSource; content: readonly { type: string }[] }[]
}): string[] {
  return request.messages
    .filter((message) => message.source.kind === 'plugin')
    .map((message) => message.content.map((block) => ('text' in block ? block.text : '')).join(''))
}
