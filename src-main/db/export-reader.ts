import type { ExportKind } from '@shared/ipc/export-schemas'
import type { ExportRowFilters } from './queries/export-queries'

/** The rows of one export, read in batches from one consistent snapshot. */
export interface ExportRows {
  /** Source rows the export will read (counted in the same snapshot as the rows). */
  totalRows: number
  /** Every mint with a symbol in the same snapshot, for naming currencies uniquely. */
  mintSymbols: readonly { mint: string; symbol: string | null }[]
  /** The rows in export order, `batchRows` at a time. */
  batches: AsyncIterable<readonly unknown[]>
  /** Ends the read; call it whether or not every batch was taken. */
  close(): Promise<void>
}

/**
 * Export rows, read from one consistent snapshot without holding up the sync engine: each
 * engine reads on a connection of its own (sqlite/export-reader.ts, postgres/export-reader.ts).
 */
export interface ExportReader {
  /** How many source rows an export of these filters reads now. */
  count(kind: ExportKind, filters: ExportRowFilters): Promise<number>
  open(kind: ExportKind, filters: ExportRowFilters, batchRows: number): Promise<ExportRows>
}
