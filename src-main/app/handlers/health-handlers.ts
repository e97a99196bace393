import { keptAsideReport } from '../kept-aside-report'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/**
 * Handlers of `health:status` (what stops or slows syncing now) and `health:kept-aside`
 * (what the edge kept aside of the service's answers, for `heliograph doctor`).
 */
export function healthHandlers(ctx: HandlerContext) {
  return {
    'health:status': async () => ctx.session.healthStatus(),
    'health:kept-aside': async ({ includeWritten }) =>
      keptAsideReport(ctx.mirror, await ctx.session.healthStatus(), { includeWritten }),
  } satisfies HandlerGroup
}
