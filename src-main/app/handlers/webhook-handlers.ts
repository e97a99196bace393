import { webhookCallsThrough, WebhookDesk } from '../../webhooks/webhook-desk'
import { planWebhookAction } from '@shared/domain/webhook-plan'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/** Lines of webhook mode's log the Activity page shows. */
const MODE_LINES_SHOWN = 8

/**
 * Handlers of the `webhooks:*` channels: management calls go through the sync runtime's
 * shaper and meter (paced, retried, within the budget, in the ledger under `webhooks`);
 * `webhooks:plan` says each one's cost first and `webhooks:cached` reads the mirror only.
 */
export function webhookHandlers(ctx: HandlerContext) {
  // The mirror and session change with the data source: build the desk at each call.
  const desk = (): WebhookDesk =>
    new WebhookDesk({
      call: async (operation, input) =>
        webhookCallsThrough((await ctx.session.runtime()).engine)(operation, input),
      store: ctx.mirror.webhooks,
      watchedAddresses: async () => (await ctx.mirror.watchlist.list()).map((w) => w.address),
      nowSec: ctx.nowSec,
    })
  return {
    'webhooks:plan': ({ action }) => planWebhookAction(action),
    'webhooks:cached': () => desk().cached(),
    'webhooks:list': () => desk().refresh(),
    'webhooks:get': ({ webhookID }) => desk().get(webhookID),
    'webhooks:create': (input) => desk().create(input),
    'webhooks:create-from-watchlist': (input) => desk().createFromWatchlist(input),
    'webhooks:update': (input) => desk().update(input),
    'webhooks:toggle': ({ webhookID, active }) => desk().toggle(webhookID, active),
    'webhooks:delete': ({ webhookID }) => desk().remove(webhookID),
    'webhooks:mode': async () => {
      const running = ctx.webhookMode()?.state() ?? null
      const lines = await ctx.mirror.webhookDeliveries.recentLog(MODE_LINES_SHOWN)
      return {
        isOn: running !== null,
        mode: running?.mode ?? null,
        lastDeliverySec: running?.lastDeliverySec ?? null,
        lines,
      }
    },
  } satisfies HandlerGroup
}
