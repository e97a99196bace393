import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/** Handler of `health:status`: what stops or slows syncing now. */
export function healthHandlers(ctx: HandlerContext) {
  return {
    'health:status': async () => ctx.session.healthStatus(),
  } satisfies HandlerGroup
}
