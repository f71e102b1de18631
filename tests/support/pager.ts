/**
 * Two tools that make the classic pair of repeats: a pager whose every call
 * returns a new page (progress), and a test run that fails the same way every
 * time (a loop). Shared by the suites that record them.
 */
import type { Context } from '@deepseek-ai/cordis'
import { defineContentToolFixture } from '@deepseek-ai/dsh-tools'
import type { ScriptedCall } from '../../support/model.ts'

/** The pager's call: no arguments, a new page each time. */
export const SCROLL: ScriptedCall = { name: 'scroll_down', args: {} }
/** The failing test run's call. */
export const TEST: ScriptedCall = { name: 'run_tests', args: { file: 'a.py' } }

/** Register the pager (`scroll_down`) and the failing test run (`run_tests`). */
export function pagerAndFailingTests(ctx: Context): void {
  let page = 0
  ctx.tools.register(
    defineContentToolFixture({
      name: 'scroll_down',
      description: 'Show the next page of the open file.',
      parameters: {},
      async execute() {
        page++
        return [{ type: 'text', text: `lines ${page * 100}-${page * 100 + 99}` }]
      },
    }),
  )
  ctx.tools.register(
    defineContentToolFixture({
      name: 'run_tests',
      description: 'Run a test file.',
      parameters: { file: { type: 'string' } },
      async execute() {
        throw new Error('SyntaxError: invalid syntax (a.py, line 3)')
      },
    }),
  )
}
