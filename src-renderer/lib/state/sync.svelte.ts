import type {
  StreamName,
  SyncProgress,
  WalletSyncState,
  WalletSyncStatus,
} from '@shared/ipc/sync-schemas'
import { client, connection } from './connection.svelte'

/** Sync state per wallet and the latest progress of each of its streams. */
export const sync = $state<{
  byAddress: Record<string, WalletSyncStatus>
  progress: Record<string, Partial<Record<StreamName, SyncProgress>>>
  isAvailable: boolean
  error: string | null
}>({ byAddress: {}, progress: {}, isAvailable: true, error: null })

/**
 * A sync the person asked for ("Sync now"), followed until it ends: queued (waiting for the
 * scheduler's round), running, then done or failed with the reason.
 */
export interface SyncRequest {
  phase: 'queued' | 'running' | 'done' | 'failed'
  message: string | null
  endedAtMs: number | null
}
export const syncRequests = $state<Record<string, SyncRequest>>({})

/**
 * Why a sync the person asked for ended without running, by the state the wallet reached.
 * Offline is not among them: the asked-for sync still runs once the service is back.
 */
const FAILURE_WORDS: Partial<Record<WalletSyncState, string>> = {
  error: 'the sync stopped with an error.',
  budget: 'the credit budget is reached.',
  paused: 'syncing this wallet is paused.',
  stopped: 'syncing is stopped.',
}

/** Moves a "Sync now" request along with the state the core reports for its wallet. */
function followRequest(status: WalletSyncStatus): void {
  const request = syncRequests[status.address]
  if (request?.phase !== 'queued' && request?.phase !== 'running') return
  if (status.state === 'syncing') {
    request.phase = 'running'
    return
  }
  const failure = FAILURE_WORDS[status.state]
  // An error or the budget ends a queued sync as well as a running one.
  if (failure !== undefined) {
    const message = status.message ?? failure
    syncRequests[status.address] = { phase: 'failed', message, endedAtMs: Date.now() }
  } else if (request.phase === 'running') {
    syncRequests[status.address] = { phase: 'done', message: null, endedAtMs: Date.now() }
  }
}

client.on('sync:wallet-state', (status) => {
  sync.byAddress[status.address] = status
  if (status.state !== 'syncing') delete sync.progress[status.address]
  followRequest(status)
})
client.on('sync:progress', (p) => {
  const streams = (sync.progress[p.address] ??= {})
  if (p.phase === 'done') delete streams[p.stream]
  else streams[p.stream] = p
  const status = sync.byAddress[p.address]
  if (status && p.phase !== 'done' && status.state !== 'syncing') status.state = 'syncing'
  const request = syncRequests[p.address]
  if (request?.phase === 'queued' && p.phase !== 'done') request.phase = 'running'
})

/** Loads every wallet's sync status. */
export async function loadSyncStatus(): Promise<void> {
  try {
    const statuses = await client.call('sync:status')
    sync.byAddress = Object.fromEntries(statuses.map((s) => [s.address, s]))
    sync.isAvailable = true
    sync.error = null
  } catch (error) {
    sync.isAvailable = false
    sync.error = error instanceof Error ? error.message : String(error)
  }
}

/** True when the engine or the browser says the network is gone, or a wallet is stuck offline. */
export function isOffline(): boolean {
  return (
    connection.network === 'offline' ||
    !connection.isBrowserOnline ||
    Object.values(sync.byAddress).some((s) => s.state === 'offline')
  )
}

/** Why network actions are disabled right now, or null when they are allowed. */
export function networkBlockReason(): string | null {
  if (connection.socket !== 'open') return 'Not connected to Heliograph.'
  if (isOffline())
    return 'Offline: the data service cannot be reached. The local mirror stays browsable.'
  return null
}

/**
 * A wallet's sync progress as a fraction (0–1) when the remaining pages are known, else
 * null (then the bar is indeterminate).
 */
export function progressFraction(address: string): number | null {
  const streams = Object.values(sync.progress[address] ?? {})
  if (streams.length === 0) return null
  let done = 0
  let total = 0
  for (const s of streams) {
    if (s.estimatedRemainingPages === null) return null
    done += s.pages
    total += s.pages + s.estimatedRemainingPages
  }
  return total === 0 ? null : done / total
}

/**
 * Transactions fetched so far in the running sync of a wallet: the unit of the new-activity
 * badge and the History count (the other streams' items are not transactions).
 */
export function progressTransactions(address: string): number {
  return sync.progress[address]?.history?.items ?? 0
}

/** Items fetched so far in the running sync of a wallet, over all its streams. */
export function progressItems(address: string): number {
  return Object.values(sync.progress[address] ?? {}).reduce((sum, s) => sum + s.items, 0)
}

export const syncNow = (address?: string) => client.call('sync:start', address ? { address } : {})

/** "Sync now" for one wallet, followed in `syncRequests` until it is done or failed. */
export async function requestWalletSync(address: string): Promise<void> {
  syncRequests[address] = { phase: 'queued', message: null, endedAtMs: null }
  try {
    await syncNow(address)
  } catch (error) {
    syncRequests[address] = {
      phase: 'failed',
      message: error instanceof Error ? error.message : String(error),
      endedAtMs: Date.now(),
    }
  }
}

/** Transactions stored for a wallet (its history stream), or null before its status is known. */
export function storedTransactions(address: string): number | null {
  const history = sync.byAddress[address]?.streams.find((s) => s.stream === 'history')
  return history?.itemsStored ?? null
}

/** True when the wallet is up to date, its history synced to the start, and it holds none. */
export function isUpToDateWithoutHistory(address: string): boolean {
  const status = sync.byAddress[address]
  const history = status?.streams.find((s) => s.stream === 'history')
  return (
    status?.state === 'up-to-date' &&
    history?.isBackfillComplete === true &&
    history.itemsStored === 0
  )
}
export const cancelSync = (address?: string) =>
  client.call('sync:cancel', address ? { address } : {})
export const pauseSync = (address: string) => client.call('sync:pause', { address })
export const resumeSync = (address: string) => client.call('sync:resume', { address })
export const retrySync = (address: string, stream?: StreamName) =>
  client.call('sync:retry', stream ? { address, stream } : { address })
