import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import type { AppSettings, SettingsUpdate } from '@shared/ipc/settings-schemas'
import type {
  ActivityNotice,
  CreditsOverview,
  DepthLimit,
  StreamName,
  SyncEstimate,
  SyncProgress,
  WalletSyncStatus,
} from '@shared/ipc/sync-schemas'
import type { ContractClient } from './contract-client'

// The sync, settings and demo channels, typed by their shared schemas. They are called
// through this table so that a core without them answers a clear error the page can show
// instead of breaking the build of the page.

interface PendingChannels {
  'sync:start': [{ address?: string }, void]
  'sync:cancel': [{ address?: string }, void]
  'sync:pause': [{ address: string }, void]
  'sync:resume': [{ address: string }, void]
  'sync:retry': [{ address: string; stream?: StreamName }, void]
  'sync:status': [void, WalletSyncStatus[]]
  'sync:estimate': [{ address: string }, SyncEstimate]
  'sync:set-depth': [{ address: string; depth: DepthLimit }, void]
  'credits:overview': [void, CreditsOverview]
  'settings:get': [void, AppSettings]
  'settings:update': [SettingsUpdate, AppSettings]
  'settings:set-api-key': [{ apiKey: string }, AppSettings]
  'settings:clear-api-key': [void, AppSettings]
  'data:delete-all': [{ confirm: 'DELETE' }, void]
  'demo:add-wallets': [void, WatchedWallet[]]
}

interface PendingEvents {
  'sync:progress': SyncProgress
  'sync:wallet-state': WalletSyncStatus
  'sync:activity': ActivityNotice
  'app:network': { state: 'online' | 'offline' }
}

export type PendingChannel = keyof PendingChannels

/** Calls a sync/settings/demo channel; the answer is typed by its schema. */
export function callPending<C extends PendingChannel>(
  client: ContractClient,
  channel: C,
  ...input: PendingChannels[C][0] extends void ? [] : [PendingChannels[C][0]]
): Promise<PendingChannels[C][1]> {
  const call = client.call as unknown as (channel: string, input?: unknown) => Promise<unknown>
  return call(channel, input[0]) as Promise<PendingChannels[C][1]>
}

/** Subscribes to a sync/network event; a shell that does not know it yet is ignored. */
export function onPending<E extends keyof PendingEvents>(
  client: ContractClient,
  event: E,
  listener: (payload: PendingEvents[E]) => void,
): () => void {
  const on = client.on as unknown as (
    event: string,
    listener: (payload: unknown) => void,
  ) => () => void
  try {
    return on(event, listener as (payload: unknown) => void)
  } catch {
    // The Electron preload refuses events outside its allow-list.
    return () => {}
  }
}
