import type BetterSqlite3 from 'better-sqlite3'
import { MINT_UPSERT_SQL, type MintRow } from '../ingest/mint-upsert'

/** The mint metadata cache (symbols, names, decimals, prices) beyond what snapshots fill. */
export class MintStore {
  readonly #unknown: BetterSqlite3.Statement
  readonly #upsert: BetterSqlite3.Statement
  readonly #sqlite: BetterSqlite3.Database

  constructor(sqlite: BetterSqlite3.Database) {
    this.#sqlite = sqlite
    this.#unknown = sqlite.prepare(
      `select mint from (select distinct mint from balance_changes where wallet_id = ?
         union select distinct mint from transfers where wallet_id = ?)
       where mint not in (select mint from mints)`,
    )
    this.#upsert = sqlite.prepare(MINT_UPSERT_SQL)
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
