import { parentPort, workerData } from 'node:worker_threads'
import type { ErrorPayload } from '@shared/ipc/ipc-errors'
import { openExportPart } from '../db/export-part-rows'
import { csvBatches } from './csv-batches'
import { CsvChunkWriter } from './csv-encoder'
import { layoutFor, type CsvLayout } from './csv-presets'
import { currencyNames } from './currency-names'
import type { ExportPartWork, PartMessage, PartRequest } from './parted-export'

// One part of an export on a thread of its own: its rows read in the snapshot every part
// shares, written as CSV bytes here, and handed to the thread that writes the file. At most
// `aheadChunks` buffers are out at a time, each back once written and filled again: memory
// stays flat whatever the row count.

const port = parentPort
if (port === null) throw new Error('export-part-worker runs only as a worker thread.')
const work = workerData as ExportPartWork
const post = (message: PartMessage, transfer: ArrayBuffer[] = []): void =>
  port.postMessage(message, transfer)

/** Buffers free to fill: those handed back once written. */
const free: Buffer[] = []
/** Buffers handed over and not yet back. */
let handedOver = 0
let wake: (() => void) | null = null
port.on('message', (request: PartRequest) => {
  free.push(Buffer.from(request.buffer))
  handedOver -= 1
  wake?.()
  wake = null
})

/** Hands `chunks` over to be written; waits while more than `aheadChunks` are out. */
async function handOver(chunks: readonly Uint8Array[], rowsRead: number, records: number) {
  for (const bytes of chunks) {
    handedOver += 1
    post({ kind: 'bytes', bytes, rowsRead, records }, [bytes.buffer as ArrayBuffer])
  }
  while (handedOver > work.aheadChunks) await new Promise<void>((done) => (wake = done))
}

async function writePart(): Promise<void> {
  const rows = await openExportPart(work.job, work.batchRows)
  try {
    post({ kind: 'opened', totalRows: rows.totalRows })
    // Every part reads the same mint symbols, so every part names currencies alike.
    const layout = layoutFor(work.kind, work.format, currencyNames(rows.mintSymbols))
    // A new buffer only while none has come back: handOver waits once aheadChunks are out.
    const csv = new CsvChunkWriter(
      work.delimiter,
      work.chunkBytes,
      (bytes) => free.pop() ?? Buffer.allocUnsafeSlow(bytes),
    )
    let rowsRead = 0
    let records = 0
    const batches = csvBatches(rows.batches as AsyncIterable<readonly unknown[]>, {
      layout: layout as CsvLayout<unknown>,
      csv,
      header: work.includeHeader ? layout.header : null,
      batchRows: work.batchRows,
      onRead: (read) => (rowsRead = read),
    })
    for await (const batch of batches) {
      records += batch.records
      await handOver(batch.chunks, rowsRead, records)
    }
    post({ kind: 'done', rowsRead, records })
  } finally {
    await rows.close()
  }
}

writePart().then(
  () => port.close(),
  (error: unknown) => {
    const failure = error instanceof Error ? error : new Error(String(error))
    const details = (failure as { details?: unknown }).details
    const payload: ErrorPayload = {
      name: failure.name,
      message: failure.message,
      ...(details === undefined ? {} : { details }),
    }
    post({ kind: 'failed', error: payload })
    port.close()
  },
)
