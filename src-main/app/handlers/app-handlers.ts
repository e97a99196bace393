import { keyNoticeOf, readSettings } from '../app-settings'
import { shownDataDir } from '../data-dir'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/** Handlers of the `app:*` channels. */
export function appHandlers(ctx: HandlerContext) {
  return {
    'app:info': async () => ({
      ...ctx.info,
      dataDir: shownDataDir(ctx.info.dataDir),
      keyNotice: keyNoticeOf(await readSettings(ctx.settings), {
        apiKey: ctx.apiKey(),
        isKeyUnreadable: ctx.secretStore.isKeyUnreadable(),
        isKeyNeeded: ctx.isKeyNeeded(),
      }),
      network: ctx.session.isOffline ? 'offline' : 'online',
    }),
  } satisfies HandlerGroup
}
