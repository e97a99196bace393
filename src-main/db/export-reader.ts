import type { ExportKind } from '@shared/ipc/export-schemas'
import type { ExportRowFilters, PlainExportStatements } from './queries/export-queries'
import type { SnapshotGate } from './sqlite/snapshot-gate'

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
 * One part of an export split by time, as plain data a worker thread can take: where the
 * mirror is, and the statements of the part's rows. Every part of one export reads the
 * same snapshot: SQLite's because writers wait until each part has begun its read (the
 * first part holds them off: sqlite/snapshot-gate.ts), so no commit falls between them;
 * PostgreSQL's by importing the snapshot `snapshot` names.
 */
export type ExportPartJob =
  | {
      engine: 'sqlite'
      path: string
      statements: PlainExportStatements
      gate: SnapshotGate
      isFirst: boolean
    }
  | { engine: 'postgres'; url: string; snapshot: string; statements: PlainExportStatements }

/** An export split into parts in output order, each read on a thread of its own. */
export interface ExportParts {
  jobs: ExportPartJob[]
  /**
   * Ends what holds the snapshot for the parts (PostgreSQL's exporting transaction): call
   * it once every part has begun its read, or when the export fails.
   */
  release(): Promise<void>
}

/** How finely to split an export, and from what size it is worth it. */
export interface ExportPartOptions {
  /** Parts at most (one per core the export may use). */
  parts: number
  /** Below about this many rows an export is read whole, on the calling thread. */
  minRows: number
}

/**
 * Export rows, read from one consistent snapshot without holding up the sync engine: each
 * engine reads on a connection of its own (sqlite/export-reader.ts, postgres/export-reader.ts).
 */
export interface ExportReader {
  /** How many source rows an export of these filters reads now. */
  count(kind: ExportKind, filters: ExportRowFilters): Promise<number>
  open(kind: ExportKind, filters: ExportRowFilters, batchRows: number): Promise<ExportRows>
  /**
   * The export split by block time into parts of about equal size that read one snapshot,
   * or null when it is too small to gain from it, its kind is not split, or the snapshot
   * cannot be shared (then `open` reads it whole).
   */
  parts(
    kind: ExportKind,
    filters: ExportRowFilters,
    options: ExportPartOptions,
  ): Promise<ExportParts | null>
}
