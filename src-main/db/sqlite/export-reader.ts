import BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { ExportKind } from '@shared/ipc/export-schemas'
import {
  compileExportStatements,
  countExportRows,
  type ExportRowFilters,
} from '../queries/export-queries'
import type { ExportPartOptions, ExportParts, ExportReader, ExportRows } from '../export-reader'
import { planExportRanges } from '../export-ranges'
import type { Database } from '../schema'
import { describeStorageError } from '../storage-errors'
import { BUSY_TIMEOUT_MS, readSqliteExport } from './export-rows'

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
    return readSqliteExport(this.#path, compileExportStatements(this.#db, kind, filters), batchRows)
  }

  /**
   * The parts share one snapshot because no write can commit while they begin: a
   * connection of its own takes the write lock (waiting, as any writer does, for a page
   * being written) and keeps it until `release`, a moment after the parts' first reads.
   * A mirror that cannot be written (a read-only file) is read whole instead.
   */
  async parts(
    kind: ExportKind,
    filters: ExportRowFilters,
    options: ExportPartOptions,
  ): Promise<ExportParts | null> {
    const ranges = await planExportRanges(this.#db, kind, filters, options)
    if (ranges === null) return null
    let gate: BetterSqlite3.Database | null = null
    try {
      gate = new BetterSqlite3(this.#path, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS })
      gate.exec('begin immediate')
    } catch {
      gate?.close()
      return null
    }
    const held = gate
    return {
      jobs: ranges.map((range) => ({
        engine: 'sqlite' as const,
        path: this.#path,
        statements: compileExportStatements(this.#db, kind, filters, range),
      })),
      release: async () => {
        if (!held.open) return
        if (held.inTransaction) held.exec('rollback')
        held.close()
      },
    }
  }
}
