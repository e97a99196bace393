import { writeSettings } from '../app-settings'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

async function announceChange(ctx: HandlerContext): Promise<void> {
  ctx.events.emit('watchlist:changed', await ctx.mirror.watchlist.list())
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
        const wallet = await ctx.ownMirror.watchlist.add(input, ctx.nowSec())
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
      const wallet = await ctx.mirror.watchlist.add(input, ctx.nowSec())
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
