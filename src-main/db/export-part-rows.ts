import type { ExportPartJob, ExportRows } from './export-reader'
import { connectPostgresClient } from './postgres/client'
import { readPostgresExport } from './postgres/export-rows'
import { BUSY_TIMEOUT_MS, readSqliteExport } from './sqlite/export-rows'
import { holdWrites, markBegun, writesHeld } from './sqlite/snapshot-gate'

/**
 * Opens the rows of one part of an export, on the thread that reads it: a connection of
 * its own to the part's mirror, in the snapshot every part of the export shares.
 *
 * @example
 * const rows = await openExportPart(job, 2_000)
 * try { for await (const batch of rows.batches) write(batch) } finally { await rows.close() }
 */
export async function openExportPart(job: ExportPartJob, batchRows: number): Promise<ExportRows> {
  if (job.engine === 'sqlite') {
    // Writers wait (held off by the first part) until every part has begun its read.
    let begun: () => Promise<void> | void
    if (job.isFirst) begun = holdWrites(job.path, job.gate, BUSY_TIMEOUT_MS)
    else {
      await writesHeld(job.gate)
      begun = () => markBegun(job.gate)
    }
    try {
      return await readSqliteExport(job.path, job.statements, batchRows)
    } finally {
      await begun()
    }
  }
  const client = await connectPostgresClient(job.url)
  return readPostgresExport(
    client,
    job.statements,
    batchRows,
    () => client.end().catch(() => undefined),
    job.snapshot,
  )
}
