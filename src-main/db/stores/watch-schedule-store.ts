import type { Kysely } from 'kysely'
import type { Database } from '../schema'

/** A watched wallet the person has not paused. */
export interface UnpausedWallet {
  walletId: number
  address: string
}

/**
 * Whether the person paused a wallet, and when watching last synced it and last found
 * new activity. The watch scheduler's own storage (observations live in the watch state).
 */
export class WatchScheduleStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** Watched wallets that are not paused, in sidebar order. */
  async unpaused(): Promise<UnpausedWallet[]> {
    return this.#db
      .selectFrom('wallets as w')
      .leftJoin('watch_schedule as s', 's.wallet_id', 'w.id')
      .select(['w.id as walletId', 'w.address'])
      .where((eb) => eb(eb.fn.coalesce('s.is_paused', eb.lit(0)), '=', 0))
      .orderBy('w.position')
      .execute()
  }

  /** Records a sync watching ran; `activitySec` null keeps the last activity time. */
  async recordCheck(
    walletId: number,
    check: { checkedSec: number; activitySec: number | null },
  ): Promise<void> {
    await this.#db
      .insertInto('watch_schedule')
      .values({
        wallet_id: walletId,
        // Rounds look at every wallet each cadence: no per-wallet next check is planned.
        next_check_sec: 0,
        interval_sec: 0,
        last_checked_sec: check.checkedSec,
        last_activity_sec: check.activitySec,
      })
      .onConflict((oc) =>
        oc.column('wallet_id').doUpdateSet((eb) => ({
          last_checked_sec: eb.ref('excluded.last_checked_sec'),
          last_activity_sec: eb.fn.coalesce(
            'excluded.last_activity_sec',
            'watch_schedule.last_activity_sec',
          ),
        })),
      )
      .execute()
  }

  /** Pauses or resumes a wallet's checks. */
  async setPaused(address: string, isPaused: boolean, nowSec: number): Promise<void> {
    const walletId = await this.#walletId(address)
    if (walletId === null) return
    await this.#db
      .insertInto('watch_schedule')
      .values({ wallet_id: walletId, next_check_sec: nowSec, interval_sec: 0 })
      .onConflict((oc) => oc.column('wallet_id').doNothing())
      .execute()
    await this.#db
      .updateTable('watch_schedule')
      .set({ is_paused: isPaused ? 1 : 0 })
      .where('wallet_id', '=', walletId)
      .execute()
  }

  /** Whether a wallet is paused. */
  async isPaused(address: string): Promise<boolean> {
    const row = await this.#db
      .selectFrom('watch_schedule as s')
      .innerJoin('wallets as w', 'w.id', 's.wallet_id')
      .select('s.is_paused')
      .where('w.address', '=', address)
      .executeTakeFirst()
    return row?.is_paused === 1
  }

  async #walletId(address: string): Promise<number | null> {
    const row = await this.#db
      .selectFrom('wallets')
      .select('id')
      .where('address', '=', address)
      .executeTakeFirst()
    return row?.id ?? null
  }
}
