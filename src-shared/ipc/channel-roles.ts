import { hasRole, SPENDING_ROLE, type TeamRole } from '../domain/team-roles'
import { CHANNELS, contract, isChannel, type Channel, type ChannelSpec } from './contract'

// The team server's role checks, read from the contract: each channel's entry names the
// least role that may use it (see ChannelSpec), so this file holds no channel of its own.

/** The least role of every channel, e.g. `CHANNEL_ROLES['watchlist:add'] === 'editor'`. */
export const CHANNEL_ROLES = Object.fromEntries(
  CHANNELS.map((channel) => [channel, contract[channel].role]),
) as Record<Channel, TeamRole>

/** What a refusal says the role cannot do, by the channel's area (its entry may say better). */
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
  return isChannel(channel) && hasRole(role, contract[channel].role)
}

/** The sentence a refused request answers with, naming the role and what it cannot do. */
export function refusalMessage(role: TeamRole, channel: string): string {
  const area = channel.split(':')[0] ?? ''
  const spec: ChannelSpec | undefined = isChannel(channel) ? contract[channel] : undefined
  const action = spec?.refusal ?? AREA_ACTIONS[area] ?? `use ${channel}`
  return `Your role (${role}) cannot ${action} — ask an admin.`
}

/** Whether an account with `role` may make paid calls (viewers spend no credits). */
export function maySpend(role: TeamRole): boolean {
  return hasRole(role, SPENDING_ROLE)
}

/** The sentence a control that would spend credits shows to a role that may not spend. */
export function spendingRefusalMessage(role: TeamRole): string {
  return `Your role (${role}) cannot spend credits — ask an admin.`
}
