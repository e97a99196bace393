/**
 * The one rule for writing the mint cache, used by balances snapshots and by naming
 * unknown mints: the newest answer wins column by column, but a source that does not
 * know a value (null) never erases one another source gave.
 */
export const MINT_UPSERT_SQL = `
  insert into mints (mint, symbol, name, decimals, logo_uri, token_program, price_usd, updated_at_sec)
  values (@mint, @symbol, @name, @decimals, @logoUri, @tokenProgram, @priceUsd, @updatedAtSec)
  on conflict (mint) do update set
    symbol = coalesce(excluded.symbol, mints.symbol),
    name = coalesce(excluded.name, mints.name),
    decimals = coalesce(excluded.decimals, mints.decimals),
    logo_uri = coalesce(excluded.logo_uri, mints.logo_uri),
    token_program = coalesce(excluded.token_program, mints.token_program),
    price_usd = coalesce(excluded.price_usd, mints.price_usd),
    updated_at_sec = excluded.updated_at_sec`

/** A row for {@link MINT_UPSERT_SQL}. */
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
