import type { Kysely } from 'kysely'
import type { ExportKind } from '@shared/ipc/export-schemas'
import type { ExportPartOptions } from './export-reader'
import {
  exportTimeSample,
  type ExportRowFilters,
  type ExportTimeRange,
} from './queries/export-queries'
import type { Database } from './schema'
import { describeStorageError } from './storage-errors'

/** Rows looked at to place the boundaries: evenly spaced over the table's ids. */
const SAMPLE_IDS = 2_048
/** Dated rows the sample must find for its boundaries to mean anything. */
const MIN_SAMPLED_ROWS = 8

/**
 * Time ranges that split an export into parts of about equal row counts, from a sample of
 * its rows (evenly spaced ids, the export's own filters): each boundary is a block time, so
 * a transaction's rows always fall in one part. Null when the export is estimated under
 * `minRows`, its kind is not split, or its rows do not spread over time.
 *
 * @example
 * await planExportRanges(db, 'balance-changes', filters, { parts: 2, minRows: 50_000 })
 * // [{ fromSec: null, belowSec: 1707500000 }, { fromSec: 1707500000, belowSec: null }]
 */
export async function planExportRanges(
  db: Kysely<Database>,
  kind: ExportKind,
  filters: ExportRowFilters,
  options: ExportPartOptions,
): Promise<ExportTimeRange[] | null> {
  return sampledRanges(db, kind, filters, options).catch((error: unknown) => {
    throw describeStorageError(error, 'plan the export')
  })
}

async function sampledRanges(
  db: Kysely<Database>,
  kind: ExportKind,
  filters: ExportRowFilters,
  options: ExportPartOptions,
): Promise<ExportTimeRange[] | null> {
  if (options.parts < 2) return null
  const sample = exportTimeSample(db, kind, filters)
  if (sample === null) return null
  const span = (await db.executeQuery(sample.idSpan.compile())).rows[0]
  if (span?.lo == null || span.hi == null) return null
  const lo = Number(span.lo)
  const hi = Number(span.hi)
  const step = Math.max(1, (hi - lo + 1) / SAMPLE_IDS)
  const ids = new Set<number>()
  for (let id = lo; id <= hi; id += step) ids.add(Math.round(id))
  const found = (await db.executeQuery(sample.timesOf([...ids]).compile())).rows
  if ((found.length / ids.size) * (hi - lo + 1) < options.minRows) return null
  const times = found
    .map((r) => r.t)
    .filter((t): t is number => t !== null)
    .map(Number)
    .sort((a, b) => a - b)
  if (times.length < MIN_SAMPLED_ROWS) return null
  const boundaries: number[] = []
  for (let k = 1; k < options.parts; k++) {
    const t = times[Math.floor((k * times.length) / options.parts)] as number
    // A boundary at the earliest time would leave the first part only the undated rows.
    if (t > (times[0] as number) && t > (boundaries.at(-1) ?? -Infinity)) boundaries.push(t)
  }
  if (boundaries.length === 0) return null
  return [null, ...boundaries].map((fromSec, i) => ({ fromSec, belowSec: boundaries[i] ?? null }))
}
