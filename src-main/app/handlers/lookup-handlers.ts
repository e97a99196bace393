import type { LookupDesk } from '../../lookup/lookup-desk'
import { watchLookedUpWallet } from '../../lookup/watch-looked-up-wallet'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/**
 * Handlers of the look-up desk: recognise a pasted text, price a look-up, run it (or
 * reopen its cached answer for free) and move a looked-up wallet to the watchlist,
 * reusing what was fetched.
 */
export function lookupHandlers(ctx: HandlerContext, desk: LookupDesk) {
  return {
    'lookup:recognise': ({ text }) => desk.recognise(text),
    'lookup:search': async ({ text }) => ({
      text: text.trim(),
      hits: await ctx.mirror.search.find(text),
    }),
    'lookup:plan': (request) => desk.plan(request),
    'lookup:run': (input) => desk.run(input),
    'lookup:cached': (request) => desk.cached(request),
    'lookup:recent': () => desk.recent(),
    'lookup:watch': async (input) => {
      const wallet = await watchLookedUpWallet(ctx.mirror, desk, input, ctx.nowSec())
      ctx.session.scheduler?.roundSoon()
      ctx.events.emit('watchlist:changed', await ctx.mirror.watchlist.list())
      return wallet
    },
  } satisfies HandlerGroup
}
