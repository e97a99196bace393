import type { ExportDelimiter } from '@shared/ipc/export-schemas'
import type { CsvLayout } from './csv-presets'

/** Records encoded as CSV lines, one batch's worth. */
export interface CsvBatch {
  /** The batch's lines, each ending CRLF. */
  text: string
  records: number
}

/**
 * Groups adjacent rows by the layout's key (one transaction) and encodes them as CSV, in
 * batches of about `batchRows` rows each. Lazy: rows are read as batches are taken.
 *
 * @example
 * for await (const batch of csvBatches(rows.batches, layoutFor('transfers', 'full'), ',', 2_000, () => {}))
 *   await file.write(batch.text)
 */
export async function* csvBatches<Row>(
  rowBatches: AsyncIterable<readonly Row[]>,
  layout: CsvLayout<Row>,
  delimiter: ExportDelimiter,
  batchRows: number,
  onRead: (rowsRead: number) => void,
): AsyncGenerator<CsvBatch, void, undefined> {
  const key = layout.groupKey
  let lines: string[] = []
  let records = 0
  let group: Row[] = []
  let groupKey: number | undefined
  let read = 0
  let inBatch = 0
  const closeGroup = (): void => {
    if (group.length === 0) return
    records += layout.encode(group, delimiter, lines)
    group = []
  }
  const take = (): CsvBatch => {
    const batch = { text: lines.join(''), records }
    lines = []
    records = 0
    inBatch = 0
    return batch
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
          yield take()
        }
      }
      group.push(row)
      read += 1
      inBatch += 1
    }
  }
  closeGroup()
  onRead(read)
  yield take()
}
