import type { Kysely } from 'kysely'
import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import {
  addWatchedWallet,
  getWatchedWallet,
  listWatchedWallets,
  removeWatchedWallet,
  renameWatchedWallet,
} from '../queries/watchlist-queries'
import { reorderWatchlist } from '../queries/wallet-summary-queries'
import type { Database } from '../schema'

/** The watchlist: which wallets are watched, their labels and sidebar order. */
export class WatchlistStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** Every watched wallet in sidebar order. */
  list(): Promise<WatchedWallet[]> {
    return listWatchedWallets(this.#db)
  }

  /** One watched wallet, or NotFoundError naming the address. */
  get(address: string): Promise<WatchedWallet> {
    return getWatchedWallet(this.#db, address)
  }

  /** Adds a wallet at the end; DuplicateError when it is already watched. */
  add(input: { address: string; label?: string | undefined }, nowSec: number) {
    return addWatchedWallet(this.#db, input, nowSec)
  }

  /** Sets or clears (empty string) a wallet's label. */
  rename(input: { address: string; label: string }): Promise<WatchedWallet> {
    return renameWatchedWallet(this.#db, input)
  }

  /** Removes a wallet and, through the foreign keys, everything synced for it. */
  remove(address: string): Promise<void> {
    return removeWatchedWallet(this.#db, address)
  }

  /** Puts the listed wallets first, in that order. */
  reorder(addresses: string[]): Promise<void> {
    return reorderWatchlist(this.#db, addresses)
  }
}
