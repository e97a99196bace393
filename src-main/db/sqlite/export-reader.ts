import { constants } from 'node:fs'
import { access } from 'node:fs/promises'
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
import { readSqliteExport } from './export-rows'
import { newSnapshotGate } from './snapshot-gate'

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
   * The parts share one snapshot because no write can commit while they begin: the first
   * part holds the write lock until every part has begun its read (sqlite/snapshot-gate.ts).
   * A mirror this process cannot write (a read-only file) is read whole instead.
   */
  async parts(
    kind: ExportKind,
    filters: ExportRowFilters,
    options: ExportPartOptions,
  ): Promise<ExportParts | null> {
    const ranges = await planExportRanges(this.#db, kind, filters, options)
    if (ranges === null || !(await isWritable(this.#path))) return null
    const gate = newSnapshotGate(ranges.length)
    return {
      jobs: ranges.map((range, i) => ({
        engine: 'sqlite' as const,
        path: this.#path,
        statements: compileExportStatements(this.#db, kind, filters, range),
        gate,
        isFirst: i === 0,
      })),
      release: async () => undefined,
    }
  }
}

/** Whether this process may write the file (and so take its write lock). */
async function isWritable(path: string): Promise<boolean> {
  return access(path, constants.W_OK).then(
    () => true,
    () => false,
  )
}
