import type { ExportPartJob, ExportRows } from './export-reader'
import { connectPostgresClient } from './postgres/client'
import { readPostgresExport } from './postgres/export-rows'
import { readSqliteExport } from './sqlite/export-rows'

/**
 * Opens the rows of one part of an export, on the thread that reads it: a connection of
 * its own to the part's mirror, in the snapshot every part of the export shares.
 *
 * @example
 * const rows = await openExportPart(job, 2_000)
 * try { for await (const batch of rows.batches) write(batch) } finally { await rows.close() }
 */
export async function openExportPart(job: ExportPartJob, batchRows: number): Promise<ExportRows> {
  if (job.engine === 'sqlite') return readSqliteExport(job.path, job.statements, batchRows)
  const client = await connectPostgresClient(job.url)
  return readPostgresExport(
    client,
    job.statements,
    batchRows,
    () => client.end().catch(() => undefined),
    job.snapshot,
  )
}
