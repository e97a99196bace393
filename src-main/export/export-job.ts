import type {
  ExportDelimiter,
  ExportFiltersInput,
  ExportFormat,
  ExportKind,
} from '@shared/ipc/export-schemas'
import { ExportFilters } from '@shared/ipc/export-schemas'
import type { Mirror } from '../db/mirror'
import type { CsvLayout, CsvRecord, RowOfKind } from './csv-presets'
import { layoutFor } from './csv-presets'
import { currencyNames } from './currency-names'
import { resolveFilters } from './export-filters'
import { writeCsvFile } from './export-writer'

/** What opens an export's rows: the mirror's reader, or any source of the same rows. */
export type ExportRowSource = Pick<Mirror['exports'], 'open'>

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
  /**
   * Where the rows come from: the mirror's export reader (one consistent snapshot), or
   * balances at a date rebuilt per wallet (app/balances-at-export.ts).
   */
  source: ExportRowSource
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
  /** Exactly these permission bits for the file (see CsvFileOptions.fileMode). */
  fileMode?: number
}

/** The finished export. */
export interface ExportSummary {
  path: string
  rowsRead: number
  rowsWritten: number
  bytes: number
}

/**
 * Exports rows of the local mirror to a CSV file: no network, rows streamed in batches
 * from one snapshot of the mirror (never the whole result in memory), the file written
 * safely (see writeCsvFile).
 *
 * @example
 * const summary = await runExport({
 *   source: mirror.exports,
 *   kind: 'balance-changes',
 *   format: 'koinly',
 *   filters: { wallets: ['9xQe…'], from: '2026-01-01', to: '2026-12-31' },
 *   outPath: '/home/me/koinly-2026.csv',
 *   onProgress: (p) => console.error(`${Math.round(p.fraction * 100)}%`),
 * })
 */
export async function runExport(options: ExportOptions): Promise<ExportSummary> {
  const filters = resolveFilters(ExportFilters.parse(options.filters ?? {}))
  const format = options.format ?? 'full'
  layoutFor(options.kind, format) // refuses a layout the kind does not have before reading
  const batchRows = Math.max(1, options.batchRows ?? 2_000)
  const read = await options.source.open(options.kind, filters, batchRows)
  try {
    // Currency names are unique over the mirror's mints: symbols never merge in a tax tool.
    const layout = layoutFor(options.kind, format, currencyNames(read.mintSymbols))
    const { totalRows } = read
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
    const batches = recordBatches(
      read.batches as AsyncIterable<readonly RowOfKind[typeof options.kind][]>,
      layout as CsvLayout<unknown>,
      batchRows,
      (count) => {
        rowsRead = count
      },
    )
    const file = await writeCsvFile(options.outPath, batches, {
      delimiter: options.delimiter ?? ',',
      header: options.includeHeader === false ? null : layout.header,
      signal: options.signal,
      onBatchWritten: (written) => report(written, false),
      fileMode: options.fileMode,
    })
    report(file.records, true)
    return { path: file.path, rowsRead, rowsWritten: file.records, bytes: file.bytes }
  } finally {
    await read.close()
  }
}

/** What {@link countExportRecords} counts: the rows and layout of an export. */
export type ExportRecordsQuery = Pick<ExportOptions, 'source' | 'kind' | 'format' | 'filters'>

/**
 * How many CSV records (header excluded) {@link runExport} writes for these settings,
 * without writing: the same rows through the same grouping and layout, so a tax layout
 * that merges a swap into one row or writes a fee-only transaction is counted as it is
 * written. Reads every row of the selection once.
 *
 * @example
 * await countExportRecords({ source: mirror.exports, kind: 'balance-changes', format: 'koinly' }) // 13166
 */
export async function countExportRecords(query: ExportRecordsQuery): Promise<number> {
  const filters = resolveFilters(ExportFilters.parse(query.filters ?? {}))
  const format = query.format ?? 'full'
  layoutFor(query.kind, format)
  const batchRows = 2_000
  const read = await query.source.open(query.kind, filters, batchRows)
  try {
    const layout = layoutFor(query.kind, format, currencyNames(read.mintSymbols))
    let records = 0
    const batches = recordBatches(
      read.batches as AsyncIterable<readonly RowOfKind[typeof query.kind][]>,
      layout as CsvLayout<unknown>,
      batchRows,
      () => {},
    )
    for await (const batch of batches) records += batch.length
    return records
  } finally {
    await read.close()
  }
}

/**
 * Groups adjacent rows by the layout's key (one transaction) and turns them into batches
 * of records of about `batchRows` rows each. Lazy: rows are read as batches are taken.
 */
export async function* recordBatches<Row>(
  rowBatches: AsyncIterable<readonly Row[]>,
  layout: CsvLayout<Row>,
  batchRows: number,
  onRead: (rowsRead: number) => void,
): AsyncGenerator<CsvRecord[], void, undefined> {
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
  for await (const rows of rowBatches) {
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
  }
  closeGroup()
  onRead(read)
  yield batch
}
