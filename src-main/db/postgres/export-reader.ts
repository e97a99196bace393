import type { Kysely } from 'kysely'
import type pg from 'pg'
import type { ExportKind } from '@shared/ipc/export-schemas'
import { countExportRows, exportStatements, type ExportRowFilters } from '../queries/export-queries'
import { mintSymbolOf, mintSymbolsStatement } from '../queries/mint-symbols'
import type { ExportReader, ExportRows } from '../export-reader'
import type { Database } from '../schema'
import { describeStorageError } from '../storage-errors'

/**
 * Reads export rows from a PostgreSQL mirror on a connection of its own, inside one
 * read-only repeatable-read transaction: the count and the rows see the same snapshot
 * while sync workers go on writing. Rows stream through a server-side cursor, `batchRows`
 * at a time, one batch read ahead, never the whole result in memory.
 *
 * @example
 * const rows = await reader.open('transfers', filters, 2_000)
 * try { for await (const batch of rows.batches) write(batch) } finally { await rows.close() }
 */
export class PostgresExportReader implements ExportReader {
  readonly #db: Kysely<Database>
  readonly #pool: pg.Pool

  constructor(db: Kysely<Database>, pool: pg.Pool) {
    this.#db = db
    this.#pool = pool
  }

  /** How many source rows an export of these filters reads now. */
  async count(kind: ExportKind, filters: ExportRowFilters): Promise<number> {
    return countExportRows(this.#db, kind, filters).catch((error: unknown) => {
      throw describeStorageError(error, 'count the rows to export')
    })
  }

  async open(kind: ExportKind, filters: ExportRowFilters, batchRows: number): Promise<ExportRows> {
    const statements = exportStatements(this.#db, kind, filters)
    let client: pg.PoolClient
    try {
      client = await this.#pool.connect()
    } catch (error) {
      throw describeStorageError(error, 'connect for the export')
    }
    let isClosed = false
    const close = async (): Promise<void> => {
      if (isClosed) return
      isClosed = true
      // Ending the transaction closes the cursor; a broken connection is dropped, not reused.
      await client.query('rollback').then(
        () => client.release(),
        (error: Error) => client.release(error),
      )
    }
    try {
      await client.query('begin isolation level repeatable read read only')
      const count = statements.count.compile()
      const counted = await client.query(count.sql, [...count.parameters])
      const symbols = mintSymbolsStatement(this.#db).compile()
      const mintSymbols = (await client.query(symbols.sql, [...symbols.parameters])).rows as {
        mint: string
        symbol: string | null
      }[]
      const select = statements.rows.compile()
      await client.query(`declare export_rows no scroll cursor for ${select.sql}`, [
        ...select.parameters,
      ])
      const fetch = `fetch forward ${Math.max(1, Math.floor(batchRows))} from export_rows`
      const symbolOf = statements.symbolsFromMints ? mintSymbolOf(mintSymbols) : null
      const next = async (): Promise<Record<string, unknown>[]> => {
        const { rows } = await client.query<Record<string, unknown>>(fetch)
        if (symbolOf) for (const row of rows) row.symbol = symbolOf(row.mint as string)
        return rows
      }
      async function* batches(): AsyncGenerator<unknown[], void, undefined> {
        // The next batch is asked for before this one is handed on: the server reads it
        // and the wire carries it while the export encodes and writes this one.
        let ahead = next()
        for (;;) {
          const rows = await ahead
          if (rows.length === 0 || isClosed) return
          ahead = next()
          // A read left unawaited when the export stops early must not go unhandled.
          ahead.catch(() => undefined)
          yield rows
        }
      }
      return {
        totalRows: Number((counted.rows[0] as { n?: unknown } | undefined)?.n ?? 0),
        mintSymbols,
        batches: batches(),
        close,
      }
    } catch (error) {
      await close()
      throw describeStorageError(error, 'read the rows to export')
    }
  }
}
