import type { Kysely } from 'kysely'
import type { Database } from '../schema'

/** An account watched for balance changes, with the value last observed on it. */
export interface WatchedAccount {
  walletId: number
  address: string
  /** `wallet`: its lamports are watched; `token`: its token amount. */
  kind: 'wallet' | 'token'
  mint: string | null
  program: string | null
  /** Lamports or raw token amount (decimal), `closed`, or null before the first look. */
  observed: string | null
  /**
   * A token account of an NFT (a mint the mirror holds among a wallet's NFTs, or knows with
   * 0 decimals and no price): its amount moves
   * only when the NFT comes or goes, so it is looked at when the wallet's token accounts
   * are listed, not every round.
   */
  isCollectible: boolean
}

/** One observed value, to be saved. */
export interface Observation {
  walletId: number
  address: string
  observed: string
}

/** A wallet's watch clocks and the compressed-balance fingerprint it was last seen with. */
export interface WalletWatchState {
  watchedSinceSec: number | null
  tokenAccountsListedSec: number | null
  compressedFingerprint: string | null
  compressedCheckedSec: number | null
  backstopCheckedSec: number | null
}

/** A change watching detected. */
export interface DetectedChange {
  walletId: number
  detectedSec: number
  reasons: readonly string[]
  /** Credits the sync it caused spent. */
  syncCredits: number
}

/** A token account as the service lists it. */
export interface ListedTokenAccount {
  address: string
  mint: string
  program: string
}

const NO_STATE: WalletWatchState = {
  watchedSinceSec: null,
  tokenAccountsListedSec: null,
  compressedFingerprint: null,
  compressedCheckedSec: null,
  backstopCheckedSec: null,
}

/**
 * The change detector's memory: which accounts of each wallet are watched and what was
 * last observed on them, and when each wallet's slower checks last ran.
 *
 * @example
 * await store.replaceTokenAccounts(walletId, 'So1…', listed, nowSec)
 * const accounts = await store.accounts([walletId])
 */
export class WatchStateStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** The watched accounts of the given wallets, each wallet's own account first. */
  async accounts(walletIds: readonly number[]): Promise<WatchedAccount[]> {
    if (walletIds.length === 0) return []
    const rows = await this.#db
      .selectFrom('watched_accounts as a')
      .leftJoin('mints as m', 'm.mint', 'a.mint')
      .selectAll('a')
      .select((eb) => [
        'm.decimals',
        'm.price_usd',
        eb
          .exists(
            eb
              .selectFrom('balance_snapshot_nfts as n')
              .select('n.mint')
              .whereRef('n.mint', '=', 'a.mint'),
          )
          .as('is_nft'),
      ])
      .where('a.wallet_id', 'in', walletIds)
      .orderBy('a.wallet_id')
      .orderBy('a.kind', 'desc')
      .orderBy('a.address')
      .execute()
    return rows.map((r) => ({
      walletId: r.wallet_id,
      address: r.address,
      kind: r.kind,
      mint: r.mint,
      program: r.program,
      observed: r.observed,
      // A 0-decimal token with a price is fungible (the balances answer priced it).
      isCollectible:
        r.kind === 'token' && (Boolean(r.is_nft) || (r.decimals === 0 && r.price_usd === null)),
    }))
  }

  /**
   * Makes sure each wallet's own account is watched (nothing observed on it yet): two
   * statements for a whole round's wallets, however many.
   */
  async watchWallets(
    wallets: readonly { walletId: number; address: string }[],
    nowSec: number,
  ): Promise<void> {
    if (wallets.length === 0) return
    await this.#db.transaction().execute(async (tx) => {
      await tx
        .insertInto('watched_accounts')
        .values(
          wallets.map((w) => ({
            wallet_id: w.walletId,
            address: w.address,
            kind: 'wallet' as const,
            mint: null,
            program: null,
          })),
        )
        .onConflict((oc) => oc.columns(['wallet_id', 'address']).doNothing())
        .execute()
      await tx
        .insertInto('wallet_watch')
        .values(wallets.map((w) => ({ wallet_id: w.walletId, watched_since_sec: nowSec })))
        .onConflict((oc) => oc.column('wallet_id').doNothing())
        .execute()
    })
  }

  /**
   * Replaces the wallet's token accounts with the service's list: accounts no longer
   * listed stop being watched, new ones start unobserved, known ones keep what was seen.
   */
  async replaceTokenAccounts(
    walletId: number,
    listed: readonly ListedTokenAccount[],
    nowSec: number,
  ): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      let gone = tx
        .deleteFrom('watched_accounts')
        .where('wallet_id', '=', walletId)
        .where('kind', '=', 'token')
      const keep = listed.map((a) => a.address)
      if (keep.length > 0) gone = gone.where('address', 'not in', keep)
      await gone.execute()
      for (const a of listed) {
        await tx
          .insertInto('watched_accounts')
          .values({
            wallet_id: walletId,
            address: a.address,
            kind: 'token',
            mint: a.mint,
            program: a.program,
          })
          .onConflict((oc) =>
            oc.columns(['wallet_id', 'address']).doUpdateSet({ mint: a.mint, program: a.program }),
          )
          .execute()
      }
      await upsertState(tx, walletId, { tokenAccountsListedSec: nowSec })
    })
  }

  /** Saves observed values in one transaction. */
  async saveObservations(observations: readonly Observation[]): Promise<void> {
    if (observations.length === 0) return
    await this.#db.transaction().execute(async (tx) => {
      for (const o of observations) {
        await tx
          .updateTable('watched_accounts')
          .set({ observed: o.observed })
          .where('wallet_id', '=', o.walletId)
          .where('address', '=', o.address)
          .execute()
      }
    })
  }

  /** Each wallet's watch clocks (wallets never watched get all-null clocks). */
  async states(walletIds: readonly number[]): Promise<Map<number, WalletWatchState>> {
    const out = new Map<number, WalletWatchState>(walletIds.map((id) => [id, { ...NO_STATE }]))
    if (walletIds.length === 0) return out
    const rows = await this.#db
      .selectFrom('wallet_watch')
      .selectAll()
      .where('wallet_id', 'in', walletIds)
      .execute()
    for (const r of rows) {
      out.set(r.wallet_id, {
        watchedSinceSec: r.watched_since_sec,
        tokenAccountsListedSec: r.token_accounts_listed_sec,
        compressedFingerprint: r.compressed_fingerprint,
        compressedCheckedSec: r.compressed_checked_sec,
        backstopCheckedSec: r.backstop_checked_sec,
      })
    }
    return out
  }

  /** Records a change watching detected, with the credits its sync spent. */
  async recordChange(change: DetectedChange): Promise<void> {
    await this.#db
      .insertInto('watch_changes')
      .values({
        wallet_id: change.walletId,
        detected_sec: change.detectedSec,
        reasons: change.reasons.join(','),
        sync_credits: change.syncCredits,
      })
      .execute()
  }

  /** Changes detected since `sinceSec`, per wallet, with what their syncs cost. */
  async changesSince(sinceSec: number): Promise<Map<number, { count: number; credits: number }>> {
    const rows = await this.#db
      .selectFrom('watch_changes')
      .select((eb) => [
        'wallet_id',
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>('sync_credits').as('credits'),
      ])
      .where('detected_sec', '>=', sinceSec)
      .groupBy('wallet_id')
      .execute()
    return new Map(
      rows.map((r) => [r.wallet_id, { count: Number(r.count), credits: Number(r.credits) }]),
    )
  }

  /** When watching first looked at each wallet: how long its activity rate was measured. */
  async watchedSince(): Promise<Map<number, number>> {
    const rows = await this.#db
      .selectFrom('wallet_watch')
      .select(['wallet_id', 'watched_since_sec'])
      .execute()
    return new Map(rows.map((r) => [r.wallet_id, r.watched_since_sec]))
  }

  /** Sets some of a wallet's watch clocks. */
  async patchState(walletId: number, patch: Partial<WalletWatchState>): Promise<void> {
    await upsertState(this.#db, walletId, patch)
  }
}

async function upsertState(
  db: Kysely<Database>,
  walletId: number,
  patch: Partial<WalletWatchState>,
): Promise<void> {
  const columns = {
    ...(patch.tokenAccountsListedSec !== undefined
      ? { token_accounts_listed_sec: patch.tokenAccountsListedSec }
      : {}),
    ...(patch.compressedFingerprint !== undefined
      ? { compressed_fingerprint: patch.compressedFingerprint }
      : {}),
    ...(patch.compressedCheckedSec !== undefined
      ? { compressed_checked_sec: patch.compressedCheckedSec }
      : {}),
    ...(patch.backstopCheckedSec !== undefined
      ? { backstop_checked_sec: patch.backstopCheckedSec }
      : {}),
  }
  if (Object.keys(columns).length === 0) return
  await db
    .insertInto('wallet_watch')
    .values({ wallet_id: walletId, watched_since_sec: 0, ...columns })
    .onConflict((oc) => oc.column('wallet_id').doUpdateSet(columns))
    .execute()
}
