import type { Kysely } from 'kysely'
import type { Database } from '../schema'

/** A wallet's token accounts as last listed, with the newest signature seen on each. */
export interface KnownTokenAccounts {
  /** Token-account address → newest signature seen (null: none yet). */
  addresses: Map<string, string | null>
  /** When the list was last fetched (null: never). */
  checkedSec: number | null
}

/**
 * The change probe's memory: the newest signature seen on each wallet and on each of its
 * token accounts, and when its token accounts were last listed.
 */
export class ProbeBaselineStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** The token accounts known for the wallet, and when they were listed. */
  async tokenAccounts(walletId: number): Promise<KnownTokenAccounts> {
    const rows = await this.#db
      .selectFrom('token_accounts')
      .select(['address', 'newest_signature'])
      .where('wallet_id', '=', walletId)
      .execute()
    const probe = await this.#probeRow(walletId)
    return {
      addresses: new Map(rows.map((r) => [r.address, r.newest_signature])),
      checkedSec: probe?.token_accounts_checked_sec ?? null,
    }
  }

  /** The wallet's newest signature from the last saved observation (undefined: never probed). */
  async walletSignature(walletId: number): Promise<string | null | undefined> {
    const probe = await this.#probeRow(walletId)
    return probe === undefined ? undefined : probe.newest_signature
  }

  /** Replaces the token-account list (after listing them at the service). */
  async saveTokenAccounts(
    walletId: number,
    accounts: readonly { address: string; mint: string }[],
    nowSec: number,
  ): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      const keep = accounts.map((a) => a.address)
      let gone = tx.deleteFrom('token_accounts').where('wallet_id', '=', walletId)
      if (keep.length > 0) gone = gone.where('address', 'not in', keep)
      await gone.execute()
      for (const a of accounts) {
        await tx
          .insertInto('token_accounts')
          .values({
            wallet_id: walletId,
            address: a.address,
            mint: a.mint,
            newest_signature: null,
            updated_at_sec: nowSec,
          })
          .onConflict((oc) =>
            oc
              .columns(['wallet_id', 'address'])
              .doUpdateSet({ mint: a.mint, updated_at_sec: nowSec }),
          )
          .execute()
      }
      await tx
        .insertInto('wallet_probe')
        .values({ wallet_id: walletId, newest_signature: null, token_accounts_checked_sec: nowSec })
        .onConflict((oc) =>
          oc.column('wallet_id').doUpdateSet({ token_accounts_checked_sec: nowSec }),
        )
        .execute()
    })
  }

  /** Saves what a probe saw as the new baseline (after the sync it triggered succeeded). */
  async saveObservation(
    walletId: number,
    observation: { wallet: string | null; tokenAccounts: ReadonlyMap<string, string | null> },
  ): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      await tx
        .insertInto('wallet_probe')
        .values({
          wallet_id: walletId,
          newest_signature: observation.wallet,
          token_accounts_checked_sec: null,
        })
        .onConflict((oc) =>
          oc.column('wallet_id').doUpdateSet({ newest_signature: observation.wallet }),
        )
        .execute()
      for (const [address, signature] of observation.tokenAccounts) {
        await tx
          .updateTable('token_accounts')
          .set({ newest_signature: signature })
          .where('wallet_id', '=', walletId)
          .where('address', '=', address)
          .execute()
      }
    })
  }

  #probeRow(walletId: number) {
    return this.#db
      .selectFrom('wallet_probe')
      .select(['newest_signature', 'token_accounts_checked_sec'])
      .where('wallet_id', '=', walletId)
      .executeTakeFirst()
  }
}
