import {
  fetchCurrentBalances,
  fetchPortfolioSeries,
  listCurrentNfts,
} from '../../db/queries/balance-queries'
import { fetchCompressedPage } from '../../db/queries/compressed-queries'
import { countHistory, fetchHistoryPage, listHistoryMints } from '../../db/queries/history-queries'
import { fetchTransferPage } from '../../db/queries/transfer-queries'
import {
  fetchWalletProfile,
  listWalletSummaries,
  markWalletViewed,
  reorderWatchlist,
  walletIdOf,
} from '../../db/queries/wallet-summary-queries'
import { listWatchedWallets } from '../../db/queries/watchlist-queries'
import type { HandlerContext } from './handler-context'
import type { HandlerTable } from './handler-table'

type ReviewChannel =
  | 'history:page'
  | 'history:count'
  | 'history:mints'
  | 'transfers:page'
  | 'balances:current'
  | 'nfts:list'
  | 'portfolio:series'
  | 'compressed:page'
  | 'wallet:profile'
  | 'wallet:mark-viewed'
  | 'watchlist:summaries'
  | 'watchlist:reorder'

/** Handlers of the review channels: read-only views of the mirror, plus view marks and order. */
export function reviewHandlers(ctx: HandlerContext): Pick<HandlerTable, ReviewChannel> {
  const { db } = ctx
  return {
    'history:page': async ({ address, ...query }) =>
      fetchHistoryPage(db, await walletIdOf(db, address), query),
    'history:count': async ({ address, filters }) =>
      countHistory(db, await walletIdOf(db, address), filters),
    'history:mints': async ({ address }) => listHistoryMints(db, await walletIdOf(db, address)),
    'transfers:page': async ({ address, ...query }) =>
      fetchTransferPage(db, await walletIdOf(db, address), query),
    'balances:current': async ({ address }) =>
      fetchCurrentBalances(db, await walletIdOf(db, address)),
    'nfts:list': async ({ address }) => listCurrentNfts(db, await walletIdOf(db, address)),
    'portfolio:series': async ({ address }) =>
      fetchPortfolioSeries(db, await walletIdOf(db, address)),
    'compressed:page': async ({ address, ...query }) =>
      fetchCompressedPage(db, await walletIdOf(db, address), query),
    'wallet:profile': async ({ address }) => fetchWalletProfile(db, await walletIdOf(db, address)),
    'wallet:mark-viewed': async ({ address }) => {
      await markWalletViewed(db, await walletIdOf(db, address), ctx.nowSec())
      ctx.events.emit('watchlist:summaries', await listWalletSummaries(db))
    },
    'watchlist:summaries': () => listWalletSummaries(db),
    'watchlist:reorder': async ({ addresses }) => {
      await reorderWatchlist(db, addresses)
      const wallets = await listWatchedWallets(db)
      ctx.events.emit('watchlist:changed', wallets)
      return wallets
    },
  }
}
