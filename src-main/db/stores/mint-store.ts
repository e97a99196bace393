import { sql, type Kysely } from 'kysely'
import { mintUpsert, type MintRow } from '../ingest/mint-upsert'
import type { Database } from '../schema'

/** A mint with its cached symbol and name. */
export interface MintName {
  mint: string
  symbol: string | null
  name: string | null
}

/** How many mints one `in (…)` list names: well under either engine's parameter limit. */
const MINTS_PER_QUERY = 500

/** The mint metadata cache (symbols, names, decimals, prices) beyond what snapshots fill. */
export class MintStore {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** The mints whose symbol is `symbol`, ignoring (ASCII) case: a symbol may name several. */
  async withSymbol(symbol: string): Promise<MintName[]> {
    return this.#db
      .selectFrom('mints')
      .select(['mint', 'symbol', 'name'])
      .where(sql`lower(symbol)`, '=', symbol.toLowerCase())
      .orderBy('mint')
      .execute()
  }

  /** The cached symbol of each of `mints` that has one. */
  async symbolsOf(mints: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>()
    const unique = [...new Set(mints)]
    for (let i = 0; i < unique.length; i += MINTS_PER_QUERY) {
      const rows = await this.#db
        .selectFrom('mints')
        .select(['mint', 'symbol'])
        .where('mint', 'in', unique.slice(i, i + MINTS_PER_QUERY))
        .where('symbol', 'is not', null)
        .execute()
      for (const r of rows) if (r.symbol !== null) out.set(r.mint, r.symbol)
    }
    return out
  }

  /** Mints the wallet's history or transfers mention that the cache has no name for. */
  async unknownMints(walletId: number): Promise<string[]> {
    const rows = await this.#db
      .selectFrom((eb) =>
        eb
          .selectFrom('balance_changes')
          .select('mint')
          .where('wallet_id', '=', walletId)
          .union(eb.selectFrom('transfers').select('mint').where('wallet_id', '=', walletId))
          .as('mentioned'),
      )
      // Not in the cache, or in it without a symbol or a name (a balances answer that
      // named neither; an NFT DAS named has its name).
      .leftJoin('mints as m', 'm.mint', 'mentioned.mint')
      .select('mentioned.mint')
      .where('m.symbol', 'is', null)
      .where('m.name', 'is', null)
      .orderBy('mentioned.mint')
      .execute()
    return rows.map((r) => r.mint)
  }

  /** Saves mint metadata by the one upsert rule; resolves to how many rows changed. */
  async save(rows: readonly MintRow[]): Promise<number> {
    if (rows.length === 0) return 0
    const result = await mintUpsert(this.#db, rows).executeTakeFirst()
    return Number(result.numInsertedOrUpdatedRows ?? 0n)
  }
}
