import type { WalletSummary } from '@shared/ipc/review-schemas'
import type { DemoWalletsAdded, WatchedWallet } from '@shared/ipc/watchlist-schemas'
import type { DepthLimit } from '@shared/ipc/sync-schemas'
import { client } from './connection.svelte'
import { go } from './router.svelte'

/** How the sidebar orders wallets: the person's order (drag), by USD value, or by last activity. */
export type WalletSort = 'manual' | 'value' | 'activity'
const SORT_KEY = 'heliograph:wallet-sort'

/** The watchlist as the page shows it; kept current by the `watchlist:*` events. */
export const watchlist = $state<{
  wallets: WatchedWallet[]
  summaries: Record<string, WalletSummary>
  sort: WalletSort
  loaded: boolean
  error: string | null
}>({
  wallets: [],
  summaries: {},
  sort: (localStorage.getItem(SORT_KEY) as WalletSort | null) ?? 'manual',
  loaded: false,
  error: null,
})

client.on('watchlist:changed', (wallets) => {
  watchlist.wallets = wallets
  void loadSummaries()
})
client.on('watchlist:summaries', (summaries) => {
  watchlist.summaries = Object.fromEntries(summaries.map((s) => [s.address, s]))
})

/** Loads the watchlist from the mirror. */
export async function loadWatchlist(): Promise<void> {
  try {
    watchlist.wallets = await client.call('watchlist:list')
    watchlist.error = null
    await loadSummaries()
  } catch (error) {
    watchlist.error = error instanceof Error ? error.message : String(error)
  } finally {
    watchlist.loaded = true
  }
}

/** Reloads the sidebar figures (totals, new-activity badges). */
export async function loadSummaries(): Promise<void> {
  const summaries = await client.call('watchlist:summaries')
  watchlist.summaries = Object.fromEntries(summaries.map((s) => [s.address, s]))
}

/** The wallets in the order the sidebar shows them. */
export function sortedWallets(): WatchedWallet[] {
  const list = [...watchlist.wallets]
  const s = watchlist.summaries
  if (watchlist.sort === 'value') {
    list.sort((a, b) => (s[b.address]?.totalUsd ?? -1) - (s[a.address]?.totalUsd ?? -1))
  } else if (watchlist.sort === 'activity') {
    list.sort(
      (a, b) => (s[b.address]?.lastActivitySec ?? -1) - (s[a.address]?.lastActivitySec ?? -1),
    )
  }
  return list
}

export function setWalletSort(sort: WalletSort): void {
  watchlist.sort = sort
  localStorage.setItem(SORT_KEY, sort)
}

/** Moves a wallet to a new index of the manual order and stores the order. */
export async function moveWallet(address: string, toIndex: number): Promise<void> {
  const order = watchlist.wallets.map((w) => w.address).filter((a) => a !== address)
  order.splice(Math.max(0, Math.min(order.length, toIndex)), 0, address)
  // Shown at once; the core's answer (and event) confirms it.
  const before = watchlist.wallets
  watchlist.wallets = order
    .map((a) => before.find((w) => w.address === a))
    .filter((w) => w !== undefined)
  watchlist.wallets = await client.call('watchlist:reorder', { addresses: order })
}

/** Set when something asked for the add-wallet form; the form focuses its address field. */
export const addWalletRequest = $state({ isFocusAsked: false })

/** Opens the Watchlist with the address field focused (the sidebar's "+"). */
export function startAddingWallet(): void {
  addWalletRequest.isFocusAsked = true
  go({ page: 'watchlist' })
}

/** Adds a wallet; throws the core's error (invalid or duplicate address) for the form to show. */
export async function addWallet(
  address: string,
  label: string,
  firstSync: { depth?: DepthLimit; approvedCredits?: number } = {},
): Promise<WatchedWallet> {
  const wallet = await client.call('watchlist:add', { address, label, ...firstSync })
  if (!watchlist.wallets.some((w) => w.address === wallet.address)) watchlist.wallets.push(wallet)
  return wallet
}

/** Adds the simulator's demo wallets (demo mode only); says what was added and what was there. */
export async function addDemoWallets(): Promise<DemoWalletsAdded> {
  const result = await client.call('demo:add-wallets')
  await loadWatchlist()
  return result
}

/** Renames a wallet (an empty label clears it). */
export async function renameWallet(address: string, label: string): Promise<void> {
  const updated = await client.call('watchlist:rename', { address, label })
  watchlist.wallets = watchlist.wallets.map((w) => (w.address === address ? updated : w))
}

/** Adds tags to a wallet (kept lower-case). */
export async function tagWallet(address: string, tags: string[]): Promise<void> {
  const updated = await client.call('watchlist:tag', { address, tags })
  watchlist.wallets = watchlist.wallets.map((w) => (w.address === address ? updated : w))
}

/** Takes tags off a wallet. */
export async function untagWallet(address: string, tags: string[]): Promise<void> {
  const updated = await client.call('watchlist:untag', { address, tags })
  watchlist.wallets = watchlist.wallets.map((w) => (w.address === address ? updated : w))
}

/** Every tag in use on the watchlist, sorted. */
export function watchlistTags(): string[] {
  const tags = watchlist.wallets.flatMap((w) => w.tags)
  return tags.filter((t, i) => tags.indexOf(t) === i).sort()
}

/** Removes a wallet from the watchlist. */
export async function removeWallet(address: string): Promise<void> {
  await client.call('watchlist:remove', { address })
  watchlist.wallets = watchlist.wallets.filter((w) => w.address !== address)
}

/** Clears a wallet's new-activity badge. */
export async function markViewed(address: string): Promise<void> {
  await client.call('wallet:mark-viewed', { address })
}
