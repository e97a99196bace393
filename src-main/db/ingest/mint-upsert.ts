import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Database } from '../schema'

/** A row of the mint cache as the upsert writes it. */
export interface MintRow {
  mint: string
  symbol: string | null
  name: string | null
  decimals: number | null
  logoUri: string | null
  tokenProgram: string | null
  priceUsd: number | null
  updatedAtSec: number
}

/**
 * The one rule for writing the mint cache, used by balances snapshots and by naming
 * unknown mints, on either engine: the newest answer wins column by column, but a source
 * that does not know a value (null) never erases one another source gave.
 *
 * @example
 * await mintUpsert(db, [{ mint, symbol: 'USDC', name: null, … }]).execute(db)
 */
export function mintUpsert(db: Kysely<Database>, rows: readonly MintRow[]) {
  const keep = <T>(column: string): RawBuilder<T> =>
    sql<T>`coalesce(excluded.${sql.ref(column)}, mints.${sql.ref(column)})`
  return db
    .insertInto('mints')
    .values(
      rows.map((r) => ({
        mint: r.mint,
        symbol: r.symbol,
        name: r.name,
        decimals: r.decimals,
        logo_uri: r.logoUri,
        token_program: r.tokenProgram,
        price_usd: r.priceUsd,
        updated_at_sec: r.updatedAtSec,
      })),
    )
    .onConflict((oc) =>
      oc.column('mint').doUpdateSet({
        symbol: keep<string | null>('symbol'),
        name: keep<string | null>('name'),
        decimals: keep<number | null>('decimals'),
        logo_uri: keep<string | null>('logo_uri'),
        token_program: keep<string | null>('token_program'),
        price_usd: keep<number | null>('price_usd'),
        updated_at_sec: sql<number>`excluded.updated_at_sec`,
      }),
    )
}
