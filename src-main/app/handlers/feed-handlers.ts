import { assertTypesKnown } from '../../alerts/rule-check'
import { readFeedPage } from '../feed-page'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/** Handlers of the `feed:*` channels: the feed is a read of the shown mirror. */
export function feedHandlers(ctx: HandlerContext) {
  return {
    'feed:page': async (input) => {
      // A type nothing can have is refused as a rule's is, not answered with an empty feed.
      await assertTypesKnown(ctx.mirror, input.filters.kinds, '--type')
      return readFeedPage(ctx.mirror, input)
    },
    'feed:mark-viewed': (input) => ctx.mirror.feed.markViewed(ctx.nowSec(), input.upTo),
  } satisfies HandlerGroup
}
