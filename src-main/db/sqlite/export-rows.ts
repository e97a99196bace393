import BetterSqlite3 from 'better-sqlite3'
import type { ExportRows } from '../export-reader'
import type { PlainExportStatements } from '../queries/export-queries'
import { readExportLookups } from '../queries/export-lookups'
import { describeStorageError } from '../storage-errors'

/** How long an export's connection waits for another's lock before giving up. */
export const BUSY_TIMEOUT_MS = 5_000

/**
 * Reads one export's rows from the SQLite file at `path` on a read-only connection of its
 * own, in one read transaction (the count, the mint symbols and the rows see one snapshot,
 * taken at the count). Used on the calling thread and by an export part's thread.
 *
 * @example
 * const rows = await readSqliteExport(path, compileExportStatements(db, kind, filters), 2_000)
 */
export async function readSqliteExport(
  path: string,
  statements: PlainExportStatements,
  batchRows: number,
): Promise<ExportRows> {
  let sqlite: BetterSqlite3.Database
  try {
    sqlite = new BetterSqlite3(path, {
      readonly: true,
      fileMustExist: true,
      timeout: BUSY_TIMEOUT_MS,
    })
  } catch (error) {
    throw describeStorageError(error, `open the database at ${path} for export`)
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
    const { count, rows: select } = statements
    const { n } = sqlite.prepare(count.sql).get(...count.parameters) as { n: number }
    const { mintSymbols, fill } = await readExportLookups(statements, (s) =>
      sqlite.prepare(s.sql).all(...s.parameters),
    )
    const iterator = sqlite.prepare(select.sql).iterate(...select.parameters) as IterableIterator<
      Record<string, unknown>
    >
    rows = iterator
    const size = Math.max(1, batchRows)
    async function* batches(): AsyncGenerator<unknown[], void, undefined> {
      let batch: unknown[] = []
      for (const row of iterator) {
        fill?.(row)
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
