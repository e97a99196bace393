import type { Compilable, Kysely } from 'kysely'
import { StorageError } from '@shared/ipc/ipc-errors'
import type { Database } from '../schema'
import type { PlainExportStatements, PlainStatement } from './export-queries'

// What an export's reader looks up instead of joining per row: the snapshot's mint symbols
// (what tax layouts name currencies from, and balance-change rows take their symbol from)
// and its wallets (balance-change rows take their address and label from). Kept light (no
// query builder at run time): the export's reading thread imports it.

/** A mint's symbol as the snapshot knows it. */
export interface MintSymbol {
  mint: string
  symbol: string | null
}

/** A wallet as the snapshot knows it. */
export interface ExportWallet {
  id: number
  address: string
  label: string | null
}

/** Every mint the mirror knows a symbol for: what tax layouts name currencies from. */
export function mintSymbolsStatement(db: Kysely<Database>): Compilable<MintSymbol> {
  return db.selectFrom('mints').select(['mint', 'symbol']).where('symbol', 'is not', null)
}

/** Every wallet of the mirror, by id. */
export function exportWalletsStatement(db: Kysely<Database>): Compilable<ExportWallet> {
  return db.selectFrom('wallets').select(['id', 'address', 'label'])
}

/**
 * The symbol of a mint from the snapshot's mint symbols, for rows whose statement leaves
 * it to the reader ({@link ExportStatements.symbolsFromMints}).
 *
 * @example
 * const symbolOf = mintSymbolOf([{ mint: 'EPjF…', symbol: 'USDC' }])
 * symbolOf('EPjF…') // 'USDC'
 */
function mintSymbolOf(mintSymbols: readonly MintSymbol[]): (mint: string) => string | null {
  const symbols = new Map(mintSymbols.map((m) => [m.mint, m.symbol]))
  return (mint) => symbols.get(mint) ?? null
}

/** What a reader takes from its snapshot besides the rows. */
export interface ExportLookups {
  mintSymbols: MintSymbol[]
  /** What to do to each row its statement leaves to the reader; null when nothing. */
  fill: ((row: Record<string, unknown>) => void) | null
}

/**
 * Reads the snapshot's mint symbols, and its wallets when the rows need them, with `all`
 * (the engine's way to run a statement in the export's transaction); the filler gives each
 * row its symbol from the mint (`symbolsFromMints`) and its wallet's address and label from
 * its `walletId` (`walletsFromIds`).
 *
 * @example
 * const { mintSymbols, fill } = await readExportLookups(statements, (s) => sqlite.prepare(s.sql).all(...s.parameters))
 * for (const row of rows) fill?.(row)
 */
export async function readExportLookups(
  statements: PlainExportStatements,
  all: (statement: PlainStatement) => unknown[] | Promise<unknown[]>,
): Promise<ExportLookups> {
  const mintSymbols = (await all(statements.symbols)) as MintSymbol[]
  const wallets = statements.walletsFromIds
    ? ((await all(statements.wallets)) as ExportWallet[])
    : []
  const symbolOf = statements.symbolsFromMints ? mintSymbolOf(mintSymbols) : null
  const byId = statements.walletsFromIds ? new Map(wallets.map((w) => [Number(w.id), w])) : null
  if (symbolOf === null && byId === null) return { mintSymbols, fill: null }
  const fill = (row: Record<string, unknown>): void => {
    if (symbolOf) row.symbol = symbolOf(row.mint as string)
    if (byId) {
      const wallet = byId.get(Number(row.walletId))
      // Balance changes go with their transaction, and it with its wallet (foreign keys).
      if (wallet === undefined) {
        throw new StorageError(
          `A row to export names wallet ${String(row.walletId)}, which is gone.`,
        )
      }
      row.wallet = wallet.address
      row.walletLabel = wallet.label
    }
  }
  return { mintSymbols, fill }
}
