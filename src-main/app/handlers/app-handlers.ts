import { keyNoticeOf, readSettings } from '../app-settings'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/** Handlers of the `app:*` channels. */
export function appHandlers(ctx: HandlerContext) {
  return {
    'app:info': async () => ({
      ...ctx.info,
      keyNotice: keyNoticeOf(await readSettings(ctx.settings), {
        apiKey: ctx.apiKey(),
        isKeyUnreadable: ctx.secretStore.isKeyUnreadable(),
      }),
    }),
  } satisfies HandlerGroup
}
