import type BetterSqlite3 from 'better-sqlite3'
import { MINT_UPSERT_SQL, type MintRow } from '../ingest/mint-upsert'

/** A mint with its cached symbol and name. */
export interface MintName {
  mint: string
  symbol: string | null
  name: string | null
}

/** The mint metadata cache (symbols, names, decimals, prices) beyond what snapshots fill. */
export class MintStore {
  readonly #unknown: BetterSqlite3.Statement
  readonly #upsert: BetterSqlite3.Statement
  readonly #sqlite: BetterSqlite3.Database
  readonly #withSymbol: BetterSqlite3.Statement
  readonly #symbolsOf: BetterSqlite3.Statement

  constructor(sqlite: BetterSqlite3.Database) {
    this.#sqlite = sqlite
    this.#unknown = sqlite.prepare(
      `select mint from (select distinct mint from balance_changes where wallet_id = ?
         union select distinct mint from transfers where wallet_id = ?)
       where mint not in (select mint from mints)`,
    )
    this.#upsert = sqlite.prepare(MINT_UPSERT_SQL)
    this.#withSymbol = sqlite.prepare(
      `select mint, symbol, name from mints where symbol = ? collate nocase order by mint`,
    )
    this.#symbolsOf = sqlite.prepare(
      `select mint, symbol from mints where mint in (select value from json_each(?))`,
    )
  }

  /** The mints whose symbol is `symbol`, ignoring case (a symbol may name several). */
  async withSymbol(symbol: string): Promise<MintName[]> {
    return this.#withSymbol.all(symbol) as MintName[]
  }

  /** The cached symbol of each of `mints` that has one. */
  async symbolsOf(mints: readonly string[]): Promise<Map<string, string>> {
    const rows = this.#symbolsOf.all(JSON.stringify(mints)) as {
      mint: string
      symbol: string | null
    }[]
    return new Map(rows.flatMap((r) => (r.symbol === null ? [] : [[r.mint, r.symbol] as const])))
  }

  /** Mints the wallet's history or transfers mention that the cache does not know. */
  async unknownMints(walletId: number): Promise<string[]> {
    return (this.#unknown.all(walletId, walletId) as { mint: string }[]).map((r) => r.mint)
  }

  /** Saves mint metadata by the one upsert rule; resolves to how many rows changed. */
  async save(rows: readonly MintRow[]): Promise<number> {
    return this.#sqlite.transaction(() => {
      let changed = 0
      for (const row of rows) changed += this.#upsert.run(row).changes
      return changed
    })()
  }
}
