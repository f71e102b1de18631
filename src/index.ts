/**
 * repeat-tool-reminder, the plugin: counts, per agent, consecutive tool calls
 * with the same tool name and the same canonical arguments, and at configured
 * run lengths attaches an advisory reminder to the call as plugin-sourced model
 * context. This file is the cordis wiring only: one guard, two listeners (four
 * with `blockAt`).
 *
 * By default it never delays, blocks or rewrites a call and never changes a tool
 * result: the model decides what to do next. With `blockAt` it withholds the
 * results of a run that went on too long, and denies, before it runs, a call
 * whose result it would certainly withhold. It never throws into the tool
 * pipeline.
 */
import type { Context } from '@deepseek-ai/cordis'
import { scopeOf } from '@deepseek-ai/dsh-scope'
import type { ContentBlock, UserMessage } from '@deepseek-ai/dsh-llm'
import type { PostToolDecision } from '@deepseek-ai/dsh-tools'
import pkg from '../package.json' with { type: 'json' }
import { Config, name } from './config.ts'
import { createGuard } from './guard.ts'

export { Config, name }

/**
 * Mount the guard: one `tools/post-execute` listener that counts and reminds, one `agent/pre-step`
 * listener that resets, with `blockAt` one `tools/pre-execute` listener that denies a call the
 * guard would withhold anyway, and with `blockAt` or a rule that asks one `tools/execute`
 * listener that tells which calls ran.
 */
export function apply(ctx: Context, config: Config): void {
  const guard = createGuard(config)
  // Mounted outside any agent scope, the guard sees every agent's calls anyway;
  // `global` then only skips the per-listener scope check on the hot path.
  const options = { global: scopeOf(ctx) === undefined }

  // With blockAt, or a rule that asks: the calls whose tool was dispatched, so that the guard knows whether a
  // call ran. Otherwise the defaults register the stock plugin's two listeners and nothing else.
  const dispatched = guard.watchesDispatch ? new WeakSet<object>() : undefined

  ctx.on(
    'tools/post-execute',
    (exec, result, next) => {
      const seen = contained(() => guard.observe(exec, result, dispatched?.has(exec) ?? true))
      if (seen?.reminder === undefined && seen?.withheld === undefined) return next()
      return next().then((decision) => decide(decision, seen.reminder, seen.withheld))
    },
    options,
  )

  if (config.blockAt > 0)
    ctx.on(
      'tools/pre-execute',
      async (exec, next) => {
        // Every other listener decides first; only a call they allow can be denied here.
        const decision = await next()
        const reason = contained(() => guard.deny(exec, decision.kind === 'allow'))
        return reason === undefined ? decision : { kind: 'deny', reason }
      },
      options,
    )
  if (dispatched !== undefined)
    // Reached only by a call every pre-execute listener, outer ones included, let through.
    ctx.on(
      'tools/execute',
      (exec, next) => {
        dispatched.add(exec)
        return next()
      },
      options,
    )

  ctx.on(
    'agent/pre-step',
    (payload, next) => {
      contained(() => guard.step(payload.agent, payload.messages))
      return next()
    },
    options,
  )

  // Which code is running, and with what: the one line a user checks after installing or configuring.
  ctx.logger(name).info(`${pkg.name} ${pkg.version} active: ${JSON.stringify(config)}`)
}

/**
 * What `judge` answers, or undefined when it throws: the guard never throws
 * into the tool pipeline, whatever it is handed (arguments whose keys cannot
 * be read, say), and the call goes on as if it were untracked.
 */
function contained<T>(judge: () => T): T | undefined {
  try {
    return judge()
  } catch {
    return undefined
  }
}

/**
 * Put the reminder in front of the downstream decision's contexts, and turn a
 * plain accept into a block when the call is to be withheld. A downstream block
 * or replacement keeps its kind and payload: it was decided first.
 */
function decide(
  decision: PostToolDecision,
  reminder: UserMessage | undefined,
  withheld: ContentBlock[] | undefined,
): PostToolDecision {
  const contexts = decision.additionalContexts ?? []
  const additionalContexts = reminder === undefined ? contexts : [reminder, ...contexts]
  if (
    withheld !== undefined &&
    decision.kind === 'accept' &&
    decision.content === undefined &&
    decision.value === undefined
  ) {
    return { kind: 'block', feedback: withheld, additionalContexts }
  }
  return { ...decision, additionalContexts }
}
