import type { Compilable, Kysely } from 'kysely'
import type { Database } from '../schema'

// The mint symbols of one export's snapshot: what tax layouts name currencies from, and
// what balance-change rows take their symbol from. Kept light (no query builder at run
// time): the export's reading thread imports it.

/** Every mint the mirror knows a symbol for: what tax layouts name currencies from. */
export function mintSymbolsStatement(db: Kysely<Database>): Compilable<{
  mint: string
  symbol: string | null
}> {
  return db.selectFrom('mints').select(['mint', 'symbol']).where('symbol', 'is not', null)
}

/**
 * The symbol of a mint from the snapshot's mint symbols, for rows whose statement leaves
 * it to the reader ({@link ExportStatements.symbolsFromMints}).
 *
 * @example
 * const symbolOf = mintSymbolOf([{ mint: 'EPjF…', symbol: 'USDC' }])
 * symbolOf('EPjF…') // 'USDC'
 */
export function mintSymbolOf(
  mintSymbols: readonly { mint: string; symbol: string | null }[],
): (mint: string) => string | null {
  const symbols = new Map(mintSymbols.map((m) => [m.mint, m.symbol]))
  return (mint) => symbols.get(mint) ?? null
}
