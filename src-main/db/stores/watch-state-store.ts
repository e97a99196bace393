import type {
  Kysely,
  OnConflictBuilder,
  OnConflictDoNothingBuilder,
  OnConflictUpdateBuilder,
} from 'kysely'
import { rawOfChange } from '../queries/balance-at-queries'
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

/**
 * One observed value, to be saved unless the account was learned anew since the round
 * read `previous` (what was observed on it when the round began).
 */
export interface Observation {
  walletId: number
  address: string
  observed: string
  previous: string | null
}

/**
 * A token account of a wallet as a transaction, an answer or a look-up showed it: open
 * with an amount (raw, as text; null when not known), or closed (it stops being watched).
 */
export type LearnedTokenAccount =
  | { address: string; mint: string; program: string | null; state: 'open'; amount: string | null }
  | { address: string; state: 'closed' }

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
 * await store.replaceTokenAccounts(walletId, listed, nowSec, knownBefore)
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
   * Replaces the wallet's token accounts with the service's list: accounts watched when the
   * list was asked for (`knownBefore`) and not on it stop being watched, new ones start
   * unobserved, known ones keep what was seen. An account learned since the list was asked
   * for (a sync wrote the transaction that opened it) stays.
   */
  async replaceTokenAccounts(
    walletId: number,
    listed: readonly ListedTokenAccount[],
    nowSec: number,
    knownBefore: readonly string[],
  ): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      const keep = new Set(listed.map((a) => a.address))
      const gone = knownBefore.filter((address) => !keep.has(address))
      // In slices: a wallet can hold thousands of accounts, and engines bound parameters.
      for (let i = 0; i < gone.length; i += 500)
        await tx
          .deleteFrom('watched_accounts')
          .where('wallet_id', '=', walletId)
          .where('kind', '=', 'token')
          .where('address', 'in', gone.slice(i, i + 500))
          .execute()
      for (const a of listed)
        await watchTokenAccount(tx, walletId, { ...a, observed: null }, (oc) =>
          oc.doUpdateSet({ mint: a.mint, program: a.program }),
        )
      await upsertState(tx, walletId, { tokenAccountsListedSec: nowSec })
    })
  }

  /**
   * Saves observed values in one transaction. An account whose value changed since the
   * round read it keeps the newer one: a sync learned it from a transaction written after
   * the round's look.
   */
  async saveObservations(observations: readonly Observation[]): Promise<void> {
    if (observations.length === 0) return
    await this.#db.transaction().execute(async (tx) => {
      for (const o of observations) {
        await tx
          .updateTable('watched_accounts')
          .set({ observed: o.observed })
          .where('wallet_id', '=', o.walletId)
          .where('address', '=', o.address)
          .where((eb) =>
            o.previous === null ? eb('observed', 'is', null) : eb('observed', '=', o.previous),
          )
          .execute()
      }
    })
  }

  /**
   * Watches what the mirror learned of a wallet's token accounts, in one transaction: an
   * open account is watched with its amount, a closed one no longer. `isNewest`: the
   * amounts are the accounts' latest (a change's transactions, read after the round's look),
   * so they replace what was observed; otherwise only accounts not yet watched are added.
   */
  async learnTokenAccounts(
    walletId: number,
    learned: readonly LearnedTokenAccount[],
    isNewest: boolean,
  ): Promise<void> {
    if (learned.length === 0) return
    await this.#db.transaction().execute(async (tx) => {
      for (const a of learned) {
        if (a.state === 'closed') {
          await tx
            .deleteFrom('watched_accounts')
            .where('wallet_id', '=', walletId)
            .where('address', '=', a.address)
            .where('kind', '=', 'token')
            .execute()
          continue
        }
        const amount = a.amount
        await watchTokenAccount(tx, walletId, { ...a, observed: amount }, (oc) =>
          isNewest && amount !== null
            ? oc.doUpdateSet({ mint: a.mint, observed: amount })
            : oc.doNothing(),
        )
      }
    })
  }

  /**
   * What the wallet's stored transactions left it of each mint, in raw units: the sum of
   * its balance changes in that mint (0 for a mint they never moved).
   */
  async historyNetOf(walletId: number, mints: readonly string[]): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>(mints.map((m) => [m, 0n]))
    if (mints.length === 0) return out
    const rows = await this.#db
      .selectFrom('balance_changes')
      .select(['mint', 'amount_raw', 'amount_text', 'decimals'])
      .where('wallet_id', '=', walletId)
      .where('mint', 'in', mints)
      .execute()
    for (const r of rows) out.set(r.mint, (out.get(r.mint) ?? 0n) + rawOfChange(r))
    return out
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

/** Inserts a watched token account; `onConflict` says what becomes of one already watched. */
async function watchTokenAccount(
  db: Kysely<Database>,
  walletId: number,
  a: { address: string; mint: string; program: string | null; observed: string | null },
  onConflict: (
    oc: OnConflictBuilder<Database, 'watched_accounts'>,
  ) =>
    | OnConflictUpdateBuilder<Database, 'watched_accounts'>
    | OnConflictDoNothingBuilder<Database, 'watched_accounts'>,
): Promise<void> {
  await db
    .insertInto('watched_accounts')
    .values({
      wallet_id: walletId,
      address: a.address,
      kind: 'token',
      mint: a.mint,
      program: a.program,
      observed: a.observed,
    })
    .onConflict((oc) => onConflict(oc.columns(['wallet_id', 'address'])))
    .execute()
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
