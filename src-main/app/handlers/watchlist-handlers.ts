import { FIRST_SYNC_DEPTH } from '@shared/ipc/sync-schemas'
import type { WatchAddInput, WatchedWallet } from '@shared/ipc/watchlist-schemas'
import type { Mirror } from '../../db/mirror'
import { writeSettings } from '../app-settings'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

async function announceChange(ctx: HandlerContext): Promise<void> {
  ctx.events.emit('watchlist:changed', await ctx.mirror.watchlist.list())
}

/**
 * Adds a wallet with the depth of its first sync: the person's choice, else the newest
 * 1,000 transactions (older history is loaded on request, its cost said first).
 */
async function addWithDepth(
  mirror: Mirror,
  input: WatchAddInput,
  nowSec: number,
): Promise<WatchedWallet> {
  const wallet = await mirror.watchlist.add(input, nowSec)
  await mirror.syncState.setDepthLimit(wallet.address, input.depth ?? FIRST_SYNC_DEPTH)
  // The funder the add dialog's look asked is the first sync's: it is not asked twice.
  const funding = await mirror.historyLoads.probedFunding(wallet.address)
  const walletId = await mirror.writer.walletId(wallet.address)
  if (funding !== null && funding.status !== 'unavailable' && walletId !== null)
    await mirror.names.saveFunding(walletId, funding)
  return wallet
}

/** Handlers of the `watchlist:*` channels. */
export function watchlistHandlers(ctx: HandlerContext) {
  return {
    'watchlist:list': () => ctx.mirror.watchlist.list(),
    'watchlist:add': async (input) => {
      // The demo is sample data: a wallet of the person's own goes into their own mirror,
      // which is shown from then on (key or no key). Only the demo's wallets join the demo,
      // which keeps what was made on it (rules, tags, labels) for when it is shown again.
      if (ctx.info.dataSource === 'demo' && !(await ctx.session.isDemoChainWallet(input.address))) {
        const wallet = await addWithDepth(ctx.ownMirror, input, ctx.nowSec())
        const kept = {
          rules: (await ctx.mirror.alertRules.list()).length,
          taggedWallets: (await ctx.mirror.watchlist.list()).filter((w) => w.tags.length > 0)
            .length,
        }
        await writeSettings(ctx.settings, { dataSource: 'service' }, ctx.nowSec())
        await ctx.switchDataSource('service', kept)
        await announceChange(ctx)
        return wallet
      }
      const wallet = await addWithDepth(ctx.mirror, input, ctx.nowSec())
      // Agreed in the add dialog (or `watch add --yes`) to a first sync that asks first.
      if (input.approvedCredits !== undefined)
        await ctx.session.approveLoad(wallet.address, input.approvedCredits)
      ctx.session.scheduler?.roundSoon()
      await announceChange(ctx)
      return wallet
    },
    'watchlist:rename': async (input) => {
      const wallet = await ctx.mirror.watchlist.rename(input)
      await announceChange(ctx)
      return wallet
    },
    'watchlist:remove': async (input) => {
      // Its stored history goes with it (the mirror's rows cascade); a sync in flight stops.
      ctx.session.runtimeIfConnected()?.engine.cancel(input.address)
      await ctx.mirror.watchlist.remove(input.address)
      await announceChange(ctx)
    },
    'watchlist:tag': async (input) => {
      await ctx.mirror.tags.tag(input.address, input.tags)
      await announceChange(ctx)
      return ctx.mirror.watchlist.get(input.address)
    },
    'watchlist:untag': async (input) => {
      await ctx.mirror.tags.untag(input.address, input.tags)
      await announceChange(ctx)
      return ctx.mirror.watchlist.get(input.address)
    },
  } satisfies HandlerGroup
}
