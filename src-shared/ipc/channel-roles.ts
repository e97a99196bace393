import { hasRole, type TeamRole } from '../domain/team-roles'
import type { Channel } from './contract'

/**
 * The least role that may use each channel of the contract on the team server. Viewers
 * read everything stored (review, history, exports, credits, cached look-ups and
 * webhooks) and spend no credits; editors also change the watchlist, sync, settings and
 * webhooks and run paid look-ups; the API key, the data source and deleting all data are
 * an admin's. Typed as a Record: a channel added to the contract without a role here does
 * not compile.
 */
export const CHANNEL_ROLES: Record<Channel, TeamRole> = {
  'app:info': 'viewer',
  'watchlist:list': 'viewer',
  'watchlist:add': 'editor',
  'watchlist:rename': 'editor',
  'watchlist:remove': 'editor',
  'watchlist:reorder': 'editor',
  'watchlist:summaries': 'viewer',
  'wallet:profile': 'viewer',
  // Marks what was seen (the "new" badges): bookkeeping of reading, not a change of data.
  'wallet:mark-viewed': 'viewer',
  'history:page': 'viewer',
  'history:count': 'viewer',
  'history:mints': 'viewer',
  'transfers:page': 'viewer',
  'transfers:count': 'viewer',
  'balances:current': 'viewer',
  'nfts:list': 'viewer',
  'compressed:page': 'viewer',
  'export:preview': 'viewer',
  'export:run': 'viewer',
  'export:cancel': 'viewer',
  'export:choose-path': 'viewer',
  'sync:start': 'editor',
  'sync:run': 'editor',
  'sync:cancel': 'editor',
  'sync:pause': 'editor',
  'sync:resume': 'editor',
  'sync:retry': 'editor',
  'sync:status': 'viewer',
  'sync:estimate': 'viewer',
  'sync:set-depth': 'editor',
  'sync:name-counterparties': 'editor',
  'credits:overview': 'viewer',
  'watch:footprint': 'viewer',
  'settings:get': 'viewer',
  'settings:update': 'editor',
  'settings:set-api-key': 'admin',
  'settings:clear-api-key': 'admin',
  'settings:set-data-source': 'admin',
  'data:delete-all': 'admin',
  'demo:add-wallets': 'editor',
  'wallet:whole': 'viewer',
  'balances:at-plan': 'viewer',
  // Asks the service: spends credits.
  'balances:at': 'editor',
  'watchlist:totals': 'viewer',
  'wallet:value-series': 'viewer',
  'wallet:amount-series': 'viewer',
  'watchlist:value-series': 'viewer',
  'watchlist:amount-series': 'viewer',
  'activity:latest': 'viewer',
  'demo:wallets': 'viewer',
  'lookup:recognise': 'viewer',
  'lookup:plan': 'viewer',
  'lookup:run': 'editor',
  'lookup:cached': 'viewer',
  'lookup:recent': 'viewer',
  'lookup:watch': 'editor',
  'webhooks:plan': 'viewer',
  'webhooks:cached': 'viewer',
  // Listing and reading a webhook are service calls: they spend credits.
  'webhooks:list': 'editor',
  'webhooks:get': 'editor',
  'webhooks:create': 'editor',
  'webhooks:create-from-watchlist': 'editor',
  'webhooks:update': 'editor',
  'webhooks:toggle': 'editor',
  'webhooks:delete': 'editor',
  'webhooks:mode': 'viewer',
}

/** What a refusal says the role cannot do: by channel, else by the channel's area. */
const CHANNEL_ACTIONS: Record<string, string> = {
  'settings:set-api-key': 'manage the API key',
  'settings:clear-api-key': 'manage the API key',
  'settings:set-data-source': 'switch the data source',
  'sync:name-counterparties': 'spend credits naming counterparties',
  'webhooks:list': 'fetch webhooks from the service (it spends credits)',
  'webhooks:get': 'fetch webhooks from the service (it spends credits)',
}
const AREA_ACTIONS: Record<string, string> = {
  watchlist: 'change the watchlist',
  sync: 'control syncing',
  settings: 'change the settings',
  data: 'delete the data',
  demo: 'add demo wallets',
  balances: 'ask the service for past balances (it spends credits)',
  lookup: 'run paid look-ups or watch their wallets',
  webhooks: 'manage webhooks',
}

/** Whether an account with `role` may use `channel` (false for unknown channels). */
export function mayUse(role: TeamRole, channel: string): boolean {
  const minimum = (CHANNEL_ROLES as Record<string, TeamRole | undefined>)[channel]
  return minimum !== undefined && hasRole(role, minimum)
}

/** The sentence a refused request answers with, naming the role and what it cannot do. */
export function refusalMessage(role: TeamRole, channel: string): string {
  const area = channel.split(':')[0] ?? ''
  const action = CHANNEL_ACTIONS[channel] ?? AREA_ACTIONS[area] ?? `use ${channel}`
  return `Your role (${role}) cannot ${action} — ask an admin.`
}
