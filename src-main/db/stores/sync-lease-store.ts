import type { Kysely } from 'kysely'
import type { Database } from '../schema'

/** One wallet's lease: which sync worker holds it, since when and until when. */
export interface SyncLease {
  walletAddress: string
  /** host:pid:random of the worker holding it. */
  holder: string
  acquiredAtMs: number
  expiresAtMs: number
}

/** Addresses per statement: well under SQLite's and PostgreSQL's limits on bound values. */
const ADDRESSES_PER_STATEMENT = 500

/**
 * The leases by which sync workers sharing one mirror split the watched wallets: a worker
 * syncs only the wallets it holds a live lease on, renews them while it works, and a
 * worker that dies loses them when they expire. Every statement is Kysely's query builder
 * only, so the same store runs on SQLite and on PostgreSQL; each change of a lease is one
 * atomic statement, so no two workers ever hold one wallet at once.
 */
export class SyncLeaseStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /**
   * Leaves `holder` holding at most `max` of `addresses` until `nowMs + ttlMs`: renews the
   * leases it holds among them (giving up those beyond `max`, last first), then takes free
   * or expired ones, in the order given, until it holds `max`. A live lease of another
   * holder is never taken. Returns the addresses it holds, in the order given.
   */
  async acquire(
    addresses: readonly string[],
    holder: string,
    nowMs: number,
    ttlMs: number,
    max: number,
  ): Promise<string[]> {
    assertTimes(nowMs, ttlMs)
    if (!Number.isInteger(max) || max < 0)
      throw new RangeError(`max must be a whole number of leases, not ${max}`)
    const wanted = [...new Set(addresses)]
    const expiresAtMs = nowMs + ttlMs

    const renewed = new Set<string>()
    for (const chunk of chunksOf(wanted)) {
      const rows = await this.#db
        .updateTable('sync_leases')
        .set({ expires_at_ms: expiresAtMs })
        .where('holder', '=', holder)
        .where('wallet_address', 'in', chunk)
        .returning('wallet_address')
        .execute()
      for (const row of rows) renewed.add(row.wallet_address)
    }
    const kept = wanted.filter((address) => renewed.has(address))
    const surplus = kept.splice(max)
    if (surplus.length > 0) await this.release(holder, surplus)
    const held = new Set(kept)

    // Skip the wallets others hold live leases on now, rather than try each one.
    const busy = new Set<string>()
    for (const chunk of chunksOf(wanted.filter((address) => !renewed.has(address)))) {
      const rows = await this.#db
        .selectFrom('sync_leases')
        .select('wallet_address')
        .where('wallet_address', 'in', chunk)
        .where('expires_at_ms', '>', nowMs)
        .execute()
      for (const row of rows) busy.add(row.wallet_address)
    }
    for (const address of wanted) {
      if (held.size >= max) break
      if (renewed.has(address) || busy.has(address)) continue
      // One statement: a new lease, or a takeover that the database allows only while the
      // old lease is expired when it runs; a holder that got there first wins.
      const taken = await this.#db
        .insertInto('sync_leases')
        .values({
          wallet_address: address,
          holder,
          acquired_at_ms: nowMs,
          expires_at_ms: expiresAtMs,
        })
        .onConflict((conflict) =>
          conflict
            .column('wallet_address')
            .doUpdateSet({ holder, acquired_at_ms: nowMs, expires_at_ms: expiresAtMs })
            .where('sync_leases.expires_at_ms', '<=', nowMs),
        )
        .returning('wallet_address')
        .executeTakeFirst()
      if (taken) held.add(address)
    }
    return wanted.filter((address) => held.has(address))
  }

  /**
   * Extends every lease `holder` still holds to `nowMs + ttlMs`, including expired ones no
   * one has taken over; returns their addresses, sorted.
   */
  async renew(holder: string, nowMs: number, ttlMs: number): Promise<string[]> {
    assertTimes(nowMs, ttlMs)
    const rows = await this.#db
      .updateTable('sync_leases')
      .set({ expires_at_ms: nowMs + ttlMs })
      .where('holder', '=', holder)
      .returning('wallet_address')
      .execute()
    return rows.map((row) => row.wallet_address).sort()
  }

  /** Gives up `holder`'s leases on `addresses` (all of them without); returns how many. */
  async release(holder: string, addresses?: readonly string[]): Promise<number> {
    if (addresses === undefined) {
      const result = await this.#db
        .deleteFrom('sync_leases')
        .where('holder', '=', holder)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    }
    let released = 0
    for (const chunk of chunksOf([...new Set(addresses)])) {
      const result = await this.#db
        .deleteFrom('sync_leases')
        .where('holder', '=', holder)
        .where('wallet_address', 'in', chunk)
        .executeTakeFirst()
      released += Number(result.numDeletedRows)
    }
    return released
  }

  /** The addresses `holder` holds a live lease on at `nowMs`, sorted. */
  async held(holder: string, nowMs: number): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('sync_leases')
      .select('wallet_address')
      .where('holder', '=', holder)
      .where('expires_at_ms', '>', nowMs)
      .orderBy('wallet_address')
      .execute()
    return rows.map((row) => row.wallet_address)
  }

  /** Every lease live at `nowMs`, whoever holds it, by address. */
  async all(nowMs: number): Promise<SyncLease[]> {
    const rows = await this.#db
      .selectFrom('sync_leases')
      .selectAll()
      .where('expires_at_ms', '>', nowMs)
      .orderBy('wallet_address')
      .execute()
    return rows.map((row) => ({
      walletAddress: row.wallet_address,
      holder: row.holder,
      acquiredAtMs: row.acquired_at_ms,
      expiresAtMs: row.expires_at_ms,
    }))
  }
}

function assertTimes(nowMs: number, ttlMs: number): void {
  if (!Number.isSafeInteger(nowMs))
    throw new RangeError(`nowMs must be whole milliseconds, not ${nowMs}`)
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0)
    throw new RangeError(`ttlMs must be a positive whole number of milliseconds, not ${ttlMs}`)
}

function* chunksOf(addresses: readonly string[]): Generator<string[]> {
  for (let start = 0; start < addresses.length; start += ADDRESSES_PER_STATEMENT)
    yield addresses.slice(start, start + ADDRESSES_PER_STATEMENT)
}
