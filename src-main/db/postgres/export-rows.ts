import type pg from 'pg'
import type { ExportRows } from '../export-reader'
import type { PlainExportStatements } from '../queries/export-queries'
import { readExportLookups } from '../queries/export-lookups'
import { describeStorageError } from '../storage-errors'

/**
 * Reads one export's rows on `client` in a read-only repeatable-read transaction (the
 * count, the mint symbols and the rows see one snapshot: `snapshot`, another transaction's
 * exported snapshot, when given), through a cursor with one batch read ahead; `done` hands
 * the client back (with the error that broke it, if any) once the read ends. Used on the
 * calling thread and by an export part's thread.
 *
 * @example
 * const client = await connectPostgresClient(url) // postgres/client.ts
 * const rows = await readPostgresExport(client, statements, 2_000, () => client.end())
 */
export async function readPostgresExport(
  client: pg.ClientBase,
  statements: PlainExportStatements,
  batchRows: number,
  done: (error?: Error) => unknown,
  snapshot?: string,
): Promise<ExportRows> {
  let isClosed = false
  const close = async (): Promise<void> => {
    if (isClosed) return
    isClosed = true
    // Ending the transaction closes the cursor; a broken connection is dropped, not reused.
    await client.query('rollback').then(
      () => done(),
      (error: Error) => done(error),
    )
  }
  try {
    await client.query('begin isolation level repeatable read read only')
    if (snapshot !== undefined) {
      await client.query(`set transaction snapshot '${snapshot.replaceAll("'", "''")}'`)
    }
    const { count, rows: select } = statements
    const counted = await client.query(count.sql, count.parameters)
    const { mintSymbols, fill } = await readExportLookups(
      statements,
      async (s) => (await client.query(s.sql, s.parameters)).rows,
    )
    await client.query(`declare export_rows no scroll cursor for ${select.sql}`, select.parameters)
    const fetch = `fetch forward ${Math.max(1, Math.floor(batchRows))} from export_rows`
    const next = async (): Promise<Record<string, unknown>[]> => {
      const { rows } = await client.query<Record<string, unknown>>(fetch)
      if (fill) for (const row of rows) fill(row)
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
