import type {
  ExportDelimiter,
  ExportFiltersInput,
  ExportFormat,
  ExportKind,
} from '@shared/ipc/export-schemas'
import { ExportFilters } from '@shared/ipc/export-schemas'
import type { ExportPartOptions } from '../db/export-reader'
import type { Mirror } from '../db/mirror'
import { csvBatches } from './csv-batches'
import { CSV_CHUNK_BYTES, CsvChunkWriter } from './csv-encoder'
import type { CsvLayout, RowOfKind } from './csv-presets'
import { layoutFor } from './csv-presets'
import { currencyNames } from './currency-names'
import { resolveFilters } from './export-filters'
import { writeCsvFile } from './export-writer'
import { defaultExportParts, writePartedExport } from './parted-export'

/**
 * What opens an export's rows: the mirror's reader (which can also split a large export
 * into parts read side by side), or any source of the same rows.
 */
export type ExportRowSource = Pick<Mirror['exports'], 'open'> &
  Partial<Pick<Mirror['exports'], 'parts'>>

/** Below about this many rows an export is read whole: starting threads would cost more. */
const MIN_ROWS_FOR_PARTS = 50_000

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
  /** Told the size of each chunk written; throwing stops the export and removes its file. */
  onBytesWritten?: (bytes: number) => void
  /**
   * How a large export is split into parts read side by side (by default one per core,
   * from 50,000 rows); `{ parts: 1, … }` reads it whole. The file is the same either way.
   */
  parts?: ExportPartOptions
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
 * safely (see writeCsvFile). A large export is split by time into parts read, laid out
 * and encoded side by side on threads of their own (see writePartedExport).
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
  const progress = progressReporter(options.onProgress)
  const parts = await options.source.parts?.(
    options.kind,
    filters,
    options.parts ?? { parts: defaultExportParts(), minRows: MIN_ROWS_FOR_PARTS },
  )
  if (parts) {
    const file = await writePartedExport(parts, {
      kind: options.kind,
      format,
      delimiter: options.delimiter ?? ',',
      includeHeader: options.includeHeader !== false,
      outPath: options.outPath,
      batchRows,
      signal: options.signal,
      fileMode: options.fileMode,
      onBytesWritten: options.onBytesWritten,
      onProgress: (p) => progress(p.rowsRead, p.totalRows, p.rowsWritten, false),
    })
    progress(file.rowsRead, file.rowsRead, file.rowsWritten, true)
    return file
  }
  const read = await options.source.open(options.kind, filters, batchRows)
  try {
    // Currency names are unique over the mirror's mints: symbols never merge in a tax tool.
    const layout = layoutFor(options.kind, format, currencyNames(read.mintSymbols))
    const { totalRows } = read
    let rowsRead = 0
    const report = (rowsWritten: number, isFinal: boolean): void =>
      progress(rowsRead, totalRows, rowsWritten, isFinal)
    const batches = csvBatches(
      read.batches as AsyncIterable<readonly RowOfKind[typeof options.kind][]>,
      {
        layout: layout as CsvLayout<unknown>,
        // Each chunk fresh: the file's writes take them as they are.
        csv: new CsvChunkWriter(options.delimiter ?? ',', CSV_CHUNK_BYTES, (bytes) =>
          Buffer.allocUnsafe(bytes),
        ),
        header: options.includeHeader === false ? null : layout.header,
        batchRows,
        onRead: (count) => {
          rowsRead = count
        },
      },
    )
    const file = await writeCsvFile(options.outPath, batches, {
      signal: options.signal,
      onBatchWritten: (written) => report(written, false),
      fileMode: options.fileMode,
      onBytesWritten: options.onBytesWritten,
    })
    report(file.records, true)
    return { path: file.path, rowsRead, rowsWritten: file.records, bytes: file.bytes }
  } finally {
    await read.close()
  }
}

/**
 * Reports progress at most once per whole percent of the rows read, and once at the end.
 */
function progressReporter(
  onProgress: ((progress: ExportProgressInfo) => void) | undefined,
): (rowsRead: number, totalRows: number, rowsWritten: number, isFinal: boolean) => void {
  let lastPercent = -1
  return (rowsRead, totalRows, rowsWritten, isFinal) => {
    if (!onProgress) return
    const fraction = totalRows === 0 ? 1 : Math.min(1, rowsRead / totalRows)
    const percent = Math.floor(fraction * 100)
    if (!isFinal && percent === lastPercent) return
    lastPercent = percent
    onProgress({ rowsRead, totalRows, rowsWritten, fraction })
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
    // Counted as written, into one chunk used over and over: its bytes are never read.
    const scratch = Buffer.allocUnsafe(CSV_CHUNK_BYTES)
    const csv = new CsvChunkWriter(',', CSV_CHUNK_BYTES, () => scratch)
    const batches = csvBatches(
      read.batches as AsyncIterable<readonly RowOfKind[typeof query.kind][]>,
      { layout: layout as CsvLayout<unknown>, csv, header: null, batchRows, onRead: () => {} },
    )
    for await (const batch of batches) records += batch.records
    return records
  } finally {
    await read.close()
  }
}
