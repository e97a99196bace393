import type { CsvChunkWriter } from './csv-encoder'
import type { CsvLayout } from './csv-presets'

/** One batch's CSV: the chunks it filled, and how many records it wrote. */
export interface CsvBatch {
  /** In order; the last batch's last chunk is filled only as far as it goes. */
  chunks: Uint8Array[]
  records: number
}

/** What {@link csvBatches} writes with. */
export interface CsvBatchOptions<Row> {
  layout: CsvLayout<Row>
  csv: CsvChunkWriter
  /** Written first when given. */
  header: readonly string[] | null
  batchRows: number
  onRead(rowsRead: number): void
}

/**
 * Groups adjacent rows by the layout's key (one transaction) and writes them as CSV, in
 * batches of about `batchRows` rows each; each batch hands on the chunks it filled (the
 * last hands on every chunk). Lazy: rows are read as batches are taken.
 *
 * @example
 * const csv = new CsvChunkWriter(',', 1 << 20, (n) => Buffer.allocUnsafe(n))
 * for await (const batch of csvBatches(rows.batches, { layout, csv, header: layout.header, batchRows: 2_000, onRead: () => {} }))
 *   for (const chunk of batch.chunks) await file.write(chunk)
 */
export async function* csvBatches<Row>(
  rowBatches: AsyncIterable<readonly Row[]>,
  { layout, csv, header, batchRows, onRead }: CsvBatchOptions<Row>,
): AsyncGenerator<CsvBatch, void, undefined> {
  const key = layout.groupKey
  let records = 0
  let group: Row[] = []
  let groupKey: number | undefined
  let read = 0
  let inBatch = 0
  const closeGroup = (): void => {
    if (group.length === 0) return
    records += layout.encode(group, csv)
    group = []
  }
  const take = (isLast: boolean): CsvBatch => {
    const batch = { chunks: csv.take(isLast), records }
    records = 0
    inBatch = 0
    return batch
  }
  if (header) csv.record(header)
  for await (const rows of rowBatches) {
    for (const row of rows) {
      const k = key?.(row)
      if (key === undefined || k !== groupKey) {
        closeGroup()
        groupKey = k
        // Batches end only between groups, so a transaction is never split.
        if (inBatch >= batchRows) {
          onRead(read)
          yield take(false)
        }
      }
      group.push(row)
      read += 1
      inBatch += 1
    }
  }
  closeGroup()
  onRead(read)
  yield take(true)
}
