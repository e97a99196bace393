import type { WatchedWallet } from '../../../src-shared/ipc/watchlist-schemas'
import { client } from './connection.svelte'

/** The watchlist as the page shows it; kept current by the `watchlist:changed` event. */
export const watchlist = $state<{
  wallets: WatchedWallet[]
  loaded: boolean
  error: string | null
}>({
  wallets: [],
  loaded: false,
  error: null,
})

client.on('watchlist:changed', (wallets) => {
  watchlist.wallets = wallets
})

/** Loads the watchlist from the mirror. */
export async function loadWatchlist(): Promise<void> {
  try {
    watchlist.wallets = await client.call('watchlist:list')
    watchlist.error = null
  } catch (error) {
    watchlist.error = error instanceof Error ? error.message : String(error)
  } finally {
    watchlist.loaded = true
  }
}

/** Adds a wallet; throws the core's error (invalid or duplicate address) for the form to show. */
export async function addWallet(address: string, label: string): Promise<WatchedWallet> {
  const wallet = await client.call('watchlist:add', { address, label })
  if (!watchlist.wallets.some((w) => w.address === wallet.address)) watchlist.wallets.push(wallet)
  return wallet
}

/** Renames a wallet (an empty label clears it). */
export async function renameWallet(address: string, label: string): Promise<void> {
  const updated = await client.call('watchlist:rename', { address, label })
  watchlist.wallets = watchlist.wallets.map((w) => (w.address === address ? updated : w))
}

/** Removes a wallet from the watchlist. */
export async function removeWallet(address: string): Promise<void> {
  await client.call('watchlist:remove', { address })
  watchlist.wallets = watchlist.wallets.filter((w) => w.address !== address)
}
