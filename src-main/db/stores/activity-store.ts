import type { Kysely } from 'kysely'
import type { Database } from '../schema'

/** How much of one mint a wallet's newest transactions moved, with what the cache knows of it. */
export interface MintMovement {
  mint: string
  amount: number
  symbol: string | null
  priceUsd: number | null
}

/** The newest transactions of a wallet, summed per mint, for a notification. */
export interface NewActivity {
  label: string | null
  /** Net change per mint, fees included (the chain's SOL change holds the fee). */
  movements: MintMovement[]
  /** SOL fees the wallet itself paid over these transactions. */
  feesPaidSol: number
}

/** Reads what new activity amounted to, for notifications. */
export class ActivityStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /**
   * What the wallet's newest `count` transactions (by slot) moved, per mint; null when the
   * wallet is not watched.
   */
  async newestActivity(address: string, count: number): Promise<NewActivity | null> {
    const wallet = await this.#db
      .selectFrom('wallets')
      .select(['id', 'label'])
      .where('address', '=', address)
      .executeTakeFirst()
    if (!wallet) return null
    // The slot just below the new transactions: the `count`-th newest, or none.
    const below = await this.#db
      .selectFrom('transactions')
      .select('slot')
      .where('wallet_id', '=', wallet.id)
      .orderBy('slot', 'desc')
      .limit(1)
      .offset(count)
      .executeTakeFirst()
    const rows = await this.#db
      .selectFrom('balance_changes as b')
      .leftJoin('mints as m', 'm.mint', 'b.mint')
      .select((eb) => [
        'b.mint',
        eb.fn.sum<number>('b.amount').as('amount'),
        'm.symbol',
        'm.price_usd as priceUsd',
      ])
      .where('b.wallet_id', '=', wallet.id)
      .where('b.slot', '>', below?.slot ?? -1)
      .groupBy(['b.mint', 'm.symbol', 'm.price_usd'])
      .execute()
    const fees = await this.#db
      .selectFrom('transactions')
      .select((eb) => eb.fn.sum<number>('fee').as('fees'))
      .where('wallet_id', '=', wallet.id)
      .where('fee_payer', '=', address)
      .where('slot', '>', below?.slot ?? -1)
      .executeTakeFirst()
    return {
      label: wallet.label,
      movements: rows.map((r) => ({ ...r, amount: Number(r.amount) })),
      feesPaidSol: Number(fees?.fees ?? 0),
    }
  }
}
