import type { Kysely } from 'kysely'
import { InvalidInputError } from '@shared/ipc/ipc-errors'
import { walletIdOf } from '../queries/wallet-summary-queries'
import type { Database } from '../schema'

/**
 * Tags on watched wallets (`wallet_tags`), for the feed's and export's filters and rule
 * scopes. Tags arrive checked and lower-case (WalletTag in watchlist-schemas.ts), so equal
 * text is the same tag whatever case a person typed.
 */
export class TagStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** Adds tags to a watched wallet (a tag it has stays once); resolves to all its tags. */
  async tag(address: string, tags: readonly string[]): Promise<string[]> {
    const walletId = await walletIdOf(this.#db, address)
    await this.#db
      .insertInto('wallet_tags')
      .values([...new Set(tags)].map((tag) => ({ wallet_id: walletId, tag })))
      .onConflict((oc) => oc.columns(['wallet_id', 'tag']).doNothing())
      .execute()
    return this.#tagsOfId(walletId)
  }

  /**
   * Takes tags off a watched wallet; resolves to the tags it keeps. A tag the wallet does
   * not have is an error naming it (a mistyped tag must not pass for done), and then
   * nothing is taken off.
   */
  async untag(address: string, tags: readonly string[]): Promise<string[]> {
    const walletId = await walletIdOf(this.#db, address)
    const has = await this.#tagsOfId(walletId)
    const missing = tags.filter((tag) => !has.includes(tag))
    if (missing.length > 0) {
      const list = missing.map((t) => `“${t}”`).join(', ')
      const its = has.length === 0 ? 'it has none' : `its tags: ${has.join(', ')}`
      throw new InvalidInputError(`Wallet ${address} has no tag ${list} (${its}).`, {
        address,
        tags: missing,
      })
    }
    await this.#db
      .deleteFrom('wallet_tags')
      .where('wallet_id', '=', walletId)
      .where('tag', 'in', [...tags])
      .execute()
    return this.#tagsOfId(walletId)
  }

  /** A watched wallet's tags, sorted. */
  async tagsOf(address: string): Promise<string[]> {
    return this.#tagsOfId(await walletIdOf(this.#db, address))
  }

  /** The addresses of watched wallets carrying any of `tags`, in sidebar order. */
  async walletsTagged(tags: readonly string[]): Promise<string[]> {
    if (tags.length === 0) return []
    const rows = await this.#db
      .selectFrom('wallets as w')
      .select('w.address')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('wallet_tags as g')
            .select('g.tag')
            .whereRef('g.wallet_id', '=', 'w.id')
            .where('g.tag', 'in', [...tags]),
        ),
      )
      .orderBy('w.position')
      .orderBy('w.id')
      .execute()
    return rows.map((r) => r.address)
  }

  /** Every tag in use, sorted, with how many wallets carry it. */
  async listTags(): Promise<{ tag: string; walletCount: number }[]> {
    const rows = await this.#db
      .selectFrom('wallet_tags')
      .select((eb) => ['tag', eb.fn.countAll<number | string>().as('n')])
      .groupBy('tag')
      .orderBy('tag')
      .execute()
    return rows.map((r) => ({ tag: r.tag, walletCount: Number(r.n) }))
  }

  async #tagsOfId(walletId: number): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('wallet_tags')
      .select('tag')
      .where('wallet_id', '=', walletId)
      .orderBy('tag')
      .execute()
    return rows.map((r) => r.tag)
  }
}
