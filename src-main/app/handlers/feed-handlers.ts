import { readFeedPage } from '../feed-page'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/** Handlers of the `feed:*` channels: the feed is a read of the shown mirror. */
export function feedHandlers(ctx: HandlerContext) {
  return {
    'feed:page': (input) => readFeedPage(ctx.mirror, input),
    'feed:mark-viewed': (input) => ctx.mirror.feed.markViewed(ctx.nowSec(), input.upTo),
  } satisfies HandlerGroup
}
