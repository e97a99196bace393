import type { CsvLayout, CsvRecord } from './csv-presets'

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
