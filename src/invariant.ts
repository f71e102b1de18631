/**
 * Invariant companion for `@deepseek-ai/dsh-repeat-tool-reminder`: registers
 * the package's ownership with the harness's invariant service. It checks
 * nothing and never touches the guard.
 */
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-invariants'

/** The npm package whose ownership this companion registers. */
export const PACKAGE_NAME = '@deepseek-ai/dsh-repeat-tool-reminder'

/** The companion plugin's name. */
export const name = 'repeat-tool-reminder-invariant'

/** The companion needs the invariant service before it can register. */
export const inject = ['invariants']

/**
 * No runtime invariant: the guard's per-agent state is private to the plugin's
 * two listeners and publishes no event or snapshot, so there is no observable
 * relationship for an installer to check. Its rules are proven by the
 * package's tests through the real loop.
 */
function install(): void {}

/** Register the package's (empty) invariant installer. */
export function apply(ctx: Context): void {
  ctx.invariants.register(PACKAGE_NAME, install)
}
