import type { Kysely } from 'kysely'
import type { DepthLimit, WalletSyncStatus } from '@shared/ipc/sync-schemas'
import { oldestStoredSec, readSyncStatus, setDepthLimit } from '../queries/sync-status'
import { walletIdOf } from '../queries/wallet-summary-queries'
import type { Database } from '../schema'

/** Streams' state as the views and `status` show it, and the person's depth limits. */
export class SyncStateStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /**
   * Every watched wallet's streams and overall state, in sidebar order (or one wallet's).
   * `syncing` names the wallets the engine runs now: the database knows only committed pages.
   */
  status(syncing: ReadonlySet<string>, address?: string): Promise<WalletSyncStatus[]> {
    return readSyncStatus(this.#db, syncing, address)
  }

  /** The slot of a transaction the wallet's history holds, or null. */
  async slotOf(walletId: number, signature: string): Promise<number | null> {
    const row = await this.#db
      .selectFrom('transactions')
      .select('slot')
      .where('wallet_id', '=', walletId)
      .where('signature', '=', signature)
      .executeTakeFirst()
    return row?.slot ?? null
  }

  /** The block time of the oldest item a wallet's paged stream holds, or null. */
  oldestStoredSec(
    walletId: number,
    stream: Parameters<typeof oldestStoredSec>[2],
  ): Promise<number | null> {
    return oldestStoredSec(this.#db, walletId, stream)
  }

  /** The newest transaction the wallet's history holds below a slot, or null. */
  async newestBelowSlot(walletId: number, slot: number): Promise<string | null> {
    const row = await this.#db
      .selectFrom('transactions')
      .select('signature')
      .where('wallet_id', '=', walletId)
      .where('slot', '<', slot)
      .orderBy('slot', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
    return row?.signature ?? null
  }

  /** Which of the wallets hold items in any of `streams` (a read only: no stream row is made). */
  async walletsWithItems(
    walletIds: readonly number[],
    streams: readonly string[],
  ): Promise<Set<number>> {
    if (walletIds.length === 0 || streams.length === 0) return new Set()
    const rows = await this.#db
      .selectFrom('sync_streams')
      .select('wallet_id')
      .distinct()
      .where('wallet_id', 'in', walletIds)
      .where('stream', 'in', streams)
      .where('items_stored', '>', 0)
      .execute()
    return new Set(rows.map((r) => r.wallet_id))
  }

  /** Sets how deep a watched wallet's history goes (the streams that follow it, as far). */
  async setDepthLimit(address: string, depth: DepthLimit): Promise<void> {
    await setDepthLimit(this.#db, await walletIdOf(this.#db, address), depth)
  }
}
