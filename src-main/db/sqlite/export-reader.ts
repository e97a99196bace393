import BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { ExportKind } from '@shared/ipc/export-schemas'
import { countExportRows, exportStatements, type ExportRowFilters } from '../queries/export-queries'
import { mintSymbolOf, mintSymbolsStatement } from '../queries/mint-symbols'
import type { ExportReader, ExportRows } from '../export-reader'
import type { Database } from '../schema'
import { describeStorageError } from '../storage-errors'

/**
 * Reads export rows from a SQLite mirror on a read-only connection of its own, inside one
 * read transaction: the count and the rows see the same snapshot, and the app's connection
 * stays free for the sync engine while a long export runs (WAL lets both proceed). Rows
 * stream from an iterating statement, never the whole result in memory.
 *
 * @example
 * const rows = await reader.open('transfers', filters, 2_000)
 * try { for await (const batch of rows.batches) write(batch) } finally { await rows.close() }
 */
export class SqliteExportReader implements ExportReader {
  readonly #db: Kysely<Database>
  readonly #path: string

  constructor(db: Kysely<Database>, path: string) {
    this.#db = db
    this.#path = path
  }

  /** How many source rows an export of these filters reads now. */
  async count(kind: ExportKind, filters: ExportRowFilters): Promise<number> {
    return countExportRows(this.#db, kind, filters).catch((error: unknown) => {
      throw describeStorageError(error, 'count the rows to export')
    })
  }

  async open(kind: ExportKind, filters: ExportRowFilters, batchRows: number): Promise<ExportRows> {
    const statements = exportStatements(this.#db, kind, filters)
    let sqlite: BetterSqlite3.Database
    try {
      sqlite = new BetterSqlite3(this.#path, {
        readonly: true,
        fileMustExist: true,
        timeout: 5_000,
      })
    } catch (error) {
      throw describeStorageError(error, `open the database at ${this.#path} for export`)
    }
    let rows: IterableIterator<unknown> | null = null
    const close = async (): Promise<void> => {
      // An unfinished iterator keeps the connection busy: close it before ending the read.
      rows?.return?.()
      rows = null
      if (sqlite.open && sqlite.inTransaction) sqlite.exec('commit')
      if (sqlite.open) sqlite.close()
    }
    try {
      sqlite.exec('begin')
      const count = statements.count.compile()
      const { n } = sqlite.prepare(count.sql).get(...count.parameters) as { n: number }
      const symbols = mintSymbolsStatement(this.#db).compile()
      const mintSymbols = sqlite.prepare(symbols.sql).all(...symbols.parameters) as {
        mint: string
        symbol: string | null
      }[]
      const select = statements.rows.compile()
      const iterator = sqlite.prepare(select.sql).iterate(...select.parameters) as IterableIterator<
        Record<string, unknown>
      >
      rows = iterator
      const symbolOf = statements.symbolsFromMints ? mintSymbolOf(mintSymbols) : null
      const size = Math.max(1, batchRows)
      async function* batches(): AsyncGenerator<unknown[], void, undefined> {
        let batch: unknown[] = []
        for (const row of iterator) {
          if (symbolOf) row.symbol = symbolOf(row.mint as string)
          batch.push(row)
          if (batch.length >= size) {
            yield batch
            batch = []
          }
        }
        if (batch.length > 0) yield batch
      }
      return { totalRows: Number(n), mintSymbols, batches: batches(), close }
    } catch (error) {
      await close()
      throw describeStorageError(error, 'read the rows to export')
    }
  }
}
