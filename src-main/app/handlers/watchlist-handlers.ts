import {
  addWatchedWallet,
  listWatchedWallets,
  removeWatchedWallet,
  renameWatchedWallet,
} from '../../db/queries/watchlist-queries'
import type { HandlerContext } from './handler-context'
import type { HandlerTable } from './handler-table'

async function announceChange(ctx: HandlerContext): Promise<void> {
  ctx.events.emit('watchlist:changed', await listWatchedWallets(ctx.db))
}

/** Handlers of the `watchlist:*` channels. */
export function watchlistHandlers(
  ctx: HandlerContext,
): Pick<
  HandlerTable,
  'watchlist:list' | 'watchlist:add' | 'watchlist:rename' | 'watchlist:remove'
> {
  return {
    'watchlist:list': () => listWatchedWallets(ctx.db),
    'watchlist:add': async (input) => {
      const wallet = await addWatchedWallet(ctx.db, input, ctx.nowSec())
      await announceChange(ctx)
      return wallet
    },
    'watchlist:rename': async (input) => {
      const wallet = await renameWatchedWallet(ctx.db, input)
      await announceChange(ctx)
      return wallet
    },
    'watchlist:remove': async (input) => {
      await removeWatchedWallet(ctx.db, input.address)
      await announceChange(ctx)
    },
  }
}
