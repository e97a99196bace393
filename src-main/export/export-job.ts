import BetterSqlite3 from 'better-sqlite3'
import type {
  ExportDelimiter,
  ExportFiltersInput,
  ExportFormat,
  ExportKind,
} from '@shared/ipc/export-schemas'
import { ExportFilters } from '@shared/ipc/export-schemas'
import { describeStorageError } from '../db/database'
import type { CsvLayout, CsvRecord, RowOfKind } from './csv-presets'
import { layoutFor } from './csv-presets'
import { buildExportQuery, resolveFilters } from './export-query'
import { writeCsvFile } from './export-writer'

/** Progress of a running export. */
export interface ExportProgressInfo {
  /** Mirror rows read so far, of `totalRows` (counted before the first row). */
  rowsRead: number
  totalRows: number
  /** CSV records written (a tax layout can write more or fewer records than rows read). */
  rowsWritten: number
  /** 0…1 of the rows read; 1 when there was nothing to export. */
  fraction: number
}

/** What to export, from which mirror, to where. */
export interface ExportOptions {
  /** The mirror's SQLite file; read on a connection of its own (see {@link runExport}). */
  databasePath: string
  kind: ExportKind
  format?: ExportFormat
  filters?: ExportFiltersInput
  delimiter?: ExportDelimiter
  includeHeader?: boolean
  /** The file to create or replace. */
  outPath: string
  signal?: AbortSignal
  /** Called at most once per whole percent, and once at the end. */
  onProgress?: (progress: ExportProgressInfo) => void
  /** Rows per batch between event-loop turns (default 2,000). */
  batchRows?: number
}

/** The finished export. */
export interface ExportSummary {
  path: string
  rowsRead: number
  rowsWritten: number
  bytes: number
}

/**
 * Exports rows of the local mirror to a CSV file: no network, rows streamed from SQLite
 * (an iterating statement, never the whole result in memory), the file written safely
 * (see writeCsvFile). The export reads on its own read-only connection inside one read
 * transaction: the count and the rows see the same snapshot, and the app's connection
 * stays free for the sync engine while a long export runs (WAL lets both proceed).
 *
 * @example
 * const summary = await runExport({
 *   databasePath: '/data/heliograph.sqlite',
 *   kind: 'balance-changes',
 *   format: 'koinly',
 *   filters: { wallets: ['9xQe…'], from: '2026-01-01', to: '2026-12-31' },
 *   outPath: '/home/me/koinly-2026.csv',
 *   onProgress: (p) => console.error(`${Math.round(p.fraction * 100)}%`),
 * })
 */
export async function runExport(options: ExportOptions): Promise<ExportSummary> {
  const filters = resolveFilters(ExportFilters.parse(options.filters ?? {}))
  const layout = layoutFor(options.kind, options.format ?? 'full')
  const query = buildExportQuery(options.kind, filters)
  const batchRows = Math.max(1, options.batchRows ?? 2_000)

  let sqlite: BetterSqlite3.Database
  try {
    sqlite = new BetterSqlite3(options.databasePath, {
      readonly: true,
      fileMustExist: true,
      timeout: 5_000,
    })
  } catch (error) {
    throw describeStorageError(error, `open the database at ${options.databasePath} for export`)
  }
  let rows: IterableIterator<RowOfKind[typeof options.kind]> | null = null
  try {
    sqlite.exec('begin')
    const { n: totalRows } = sqlite.prepare(query.countSql).get(...query.params) as { n: number }
    rows = sqlite.prepare(query.rowsSql).iterate(...query.params) as IterableIterator<
      RowOfKind[typeof options.kind]
    >
    let rowsRead = 0
    let lastPercent = -1
    const report = (rowsWritten: number, isFinal: boolean): void => {
      if (!options.onProgress) return
      const fraction = totalRows === 0 ? 1 : Math.min(1, rowsRead / totalRows)
      const percent = Math.floor(fraction * 100)
      if (!isFinal && percent === lastPercent) return
      lastPercent = percent
      options.onProgress({ rowsRead, totalRows, rowsWritten, fraction })
    }
    const batches = recordBatches(rows, layout as CsvLayout<unknown>, batchRows, (read) => {
      rowsRead = read
    })
    const file = await writeCsvFile(options.outPath, batches, {
      delimiter: options.delimiter ?? ',',
      header: options.includeHeader === false ? null : layout.header,
      signal: options.signal,
      onBatchWritten: (written) => report(written, false),
    })
    report(file.records, true)
    return { path: file.path, rowsRead, rowsWritten: file.records, bytes: file.bytes }
  } finally {
    // An unfinished iterator keeps the connection busy: close it before ending the read.
    rows?.return?.()
    if (sqlite.inTransaction) sqlite.exec('commit')
    sqlite.close()
  }
}

/**
 * Groups adjacent rows by the layout's key (one transaction) and turns them into batches
 * of records of about `batchRows` rows each. Lazy: rows are read as batches are taken.
 */
export function* recordBatches<Row>(
  rows: Iterable<Row>,
  layout: CsvLayout<Row>,
  batchRows: number,
  onRead: (rowsRead: number) => void,
): Generator<CsvRecord[], void, undefined> {
  const key = layout.groupKey
  let batch: CsvRecord[] = []
  let group: Row[] = []
  let groupKey: number | undefined
  let read = 0
  let inBatch = 0
  const closeGroup = (): void => {
    if (group.length === 0) return
    for (const record of layout.records(group)) batch.push(record)
    group = []
  }
  for (const row of rows) {
    const k = key?.(row)
    if (key === undefined || k !== groupKey) {
      closeGroup()
      groupKey = k
      // Batches end only between groups, so a transaction is never split.
      if (inBatch >= batchRows) {
        onRead(read)
        yield batch
        batch = []
        inBatch = 0
      }
    }
    group.push(row)
    read += 1
    inBatch += 1
  }
  closeGroup()
  onRead(read)
  yield batch
}
