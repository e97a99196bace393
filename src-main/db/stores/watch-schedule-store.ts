import type { Kysely } from 'kysely'
import type { Database } from '../schema'

/** A wallet whose check is due. */
export interface DueWallet {
  walletId: number
  address: string
  /** The interval that planned this check, or null before the first one. */
  intervalSec: number | null
}

/** The next check planned for a wallet. */
export interface PlannedCheck {
  walletId: number
  nextCheckSec: number
  intervalSec: number
  checkedSec: number
  /** When new activity was seen in this check; null keeps the last one. */
  activitySec: number | null
}

/**
 * When each watched wallet is checked next, and whether the person paused it. The watch
 * scheduler's only storage.
 */
export class WatchScheduleStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** Unpaused wallets whose next check is at or before `nowSec`, most overdue first. */
  async due(nowSec: number): Promise<DueWallet[]> {
    const rows = await this.#db
      .selectFrom('wallets as w')
      .leftJoin('watch_schedule as s', 's.wallet_id', 'w.id')
      .select(['w.id as walletId', 'w.address', 's.interval_sec as intervalSec'])
      .where((eb) => eb(eb.fn.coalesce('s.is_paused', eb.lit(0)), '=', 0))
      .where((eb) => eb(eb.fn.coalesce('s.next_check_sec', eb.lit(0)), '<=', nowSec))
      .orderBy((eb) => eb.fn.coalesce('s.next_check_sec', eb.lit(0)))
      .orderBy('w.position')
      .execute()
    return rows.map((r) => ({ ...r, intervalSec: r.intervalSec ?? null }))
  }

  /** Records a finished check and plans the next one. */
  async plan(check: PlannedCheck): Promise<void> {
    await this.#db
      .insertInto('watch_schedule')
      .values({
        wallet_id: check.walletId,
        next_check_sec: check.nextCheckSec,
        interval_sec: check.intervalSec,
        last_checked_sec: check.checkedSec,
        last_activity_sec: check.activitySec,
      })
      .onConflict((oc) =>
        oc.column('wallet_id').doUpdateSet((eb) => ({
          next_check_sec: eb.ref('excluded.next_check_sec'),
          interval_sec: eb.ref('excluded.interval_sec'),
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

  /** Makes a wallet's next check due now. */
  async markDue(address: string): Promise<void> {
    const walletId = await this.#walletId(address)
    if (walletId === null) return
    await this.#db
      .updateTable('watch_schedule')
      .set({ next_check_sec: 0 })
      .where('wallet_id', '=', walletId)
      .execute()
  }

  /**
   * When the wallet last had a full sync: the older last success of its history and
   * transfers streams (null when neither ever succeeded).
   */
  async lastFullSyncSec(walletId: number): Promise<number | null> {
    const rows = await this.#db
      .selectFrom('sync_streams')
      .select('last_success_sec')
      .where('wallet_id', '=', walletId)
      .where('stream', 'in', ['history', 'transfers'])
      .execute()
    const times = rows.flatMap((r) => (r.last_success_sec === null ? [] : [r.last_success_sec]))
    return times.length === 0 ? null : Math.min(...times)
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
