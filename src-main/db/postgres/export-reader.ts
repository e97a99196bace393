import type { Kysely } from 'kysely'
import type pg from 'pg'
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
import { readPostgresExport } from './export-rows'

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
    const client = await this.#connect()
    return readPostgresExport(
      client,
      compileExportStatements(this.#db, kind, filters),
      batchRows,
      (error) => client.release(error),
    )
  }

  /**
   * The parts share one snapshot the way parallel dumps do: a transaction of its own
   * exports its snapshot (`pg_export_snapshot`), each part's transaction imports it, and
   * the exporting transaction stays open until `release`, after every part has begun.
   */
  async parts(
    kind: ExportKind,
    filters: ExportRowFilters,
    options: ExportPartOptions,
  ): Promise<ExportParts | null> {
    const ranges = await planExportRanges(this.#db, kind, filters, options)
    const url = this.#pool.options.connectionString
    if (ranges === null || url === undefined) return null
    const client = await this.#connect()
    let snapshot: string
    try {
      await client.query('begin isolation level repeatable read read only')
      const exported = await client.query<{ id: string }>('select pg_export_snapshot() as id')
      snapshot = exported.rows[0]!.id
    } catch (error) {
      await client.query('rollback').catch(() => undefined)
      client.release(true)
      throw describeStorageError(error, 'share a snapshot between the parts of the export')
    }
    let isReleased = false
    return {
      jobs: ranges.map((range) => ({
        engine: 'postgres' as const,
        url,
        snapshot,
        statements: compileExportStatements(this.#db, kind, filters, range),
      })),
      release: async () => {
        if (isReleased) return
        isReleased = true
        await client.query('rollback').then(
          () => client.release(),
          (error: Error) => client.release(error),
        )
      },
    }
  }

  async #connect(): Promise<pg.PoolClient> {
    try {
      return await this.#pool.connect()
    } catch (error) {
      throw describeStorageError(error, 'connect for the export')
    }
  }
}
