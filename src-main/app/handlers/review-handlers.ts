import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/** Handlers of the review channels: read-only views of the mirror, plus view marks and order. */
export function reviewHandlers(ctx: HandlerContext) {
  const review = () => ctx.mirror.review
  return {
    'history:page': ({ address, ...query }) => review().historyPage(address, query),
    'history:count': ({ address, filters }) => review().historyCount(address, filters),
    'history:mints': ({ address }) => review().historyMints(address),
    'transfers:page': ({ address, ...query }) => review().transferPage(address, query),
    'transfers:count': ({ address, filters }) => review().transferCount(address, filters),
    // Images are shown from the data folder, never loaded by the page from their hosts.
    'balances:current': async ({ address }) => {
      const balances = await review().currentBalances(address)
      return {
        ...balances,
        rows: balances.rows.map((r) => ({ ...r, logoUri: ctx.images.urlFor(r.logoUri) || null })),
      }
    },
    'nfts:list': async ({ address }) =>
      (await review().currentNfts(address)).map((n) => ({
        ...n,
        imageUri: ctx.images.urlFor(n.imageUri),
      })),
    'compressed:page': ({ address, ...query }) => review().compressedPage(address, query),
    'wallet:profile': ({ address }) => review().walletProfile(address),
    'wallet:mark-viewed': async ({ address }) => {
      await review().markViewed(address, ctx.nowSec())
      ctx.events.emit('watchlist:summaries', await review().walletSummaries())
    },
    'watchlist:summaries': () => review().walletSummaries(),
    'activity:latest': ({ limit }) => review().latestTransfers(limit),
    'watchlist:reorder': async ({ addresses }) => {
      await ctx.mirror.watchlist.reorder(addresses)
      const wallets = await ctx.mirror.watchlist.list()
      ctx.events.emit('watchlist:changed', wallets)
      return wallets
    },
  } satisfies HandlerGroup
}
