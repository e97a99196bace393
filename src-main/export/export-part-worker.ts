import { parentPort, workerData } from 'node:worker_threads'
import type { ErrorPayload } from '@shared/ipc/ipc-errors'
import { openExportPart } from '../db/export-part-rows'
import { encodeCsv } from './csv-encoder'
import { layoutFor, type CsvLayout } from './csv-presets'
import { currencyNames } from './currency-names'
import type { ExportPartWork, PartMessage, PartRequest } from './parted-export'
import { recordBatches } from './record-batches'

// One part of an export on a thread of its own: its rows read in the snapshot every part
// shares, turned into records and CSV bytes here, and handed to the thread that writes
// the file. At most `aheadChunks` chunks wait unwritten: memory stays flat.

const port = parentPort
if (port === null) throw new Error('export-part-worker runs only as a worker thread.')
const work = workerData as ExportPartWork
const post = (message: PartMessage, transfer: ArrayBuffer[] = []): void =>
  port.postMessage(message, transfer)

let credits = work.aheadChunks
let wake: (() => void) | null = null
port.on('message', (request: PartRequest) => {
  if (request === 'written') credits += 1
  wake?.()
  wake = null
})

async function writePart(): Promise<void> {
  const rows = await openExportPart(work.job, work.batchRows)
  try {
    post({ kind: 'opened', totalRows: rows.totalRows })
    // Every part reads the same mint symbols, so every part names currencies alike.
    const layout = layoutFor(work.kind, work.format, currencyNames(rows.mintSymbols))
    let rowsRead = 0
    let records = 0
    let pending: string[] = []
    let pendingLength = 0
    const send = async (): Promise<void> => {
      while (credits === 0) await new Promise<void>((done) => (wake = done))
      credits -= 1
      // Its own buffer (never the shared pool of small Buffers), so it can be handed over.
      const bytes = new TextEncoder().encode(pending.join(''))
      pending = []
      pendingLength = 0
      post({ kind: 'bytes', bytes, rowsRead, records }, [bytes.buffer as ArrayBuffer])
    }
    if (work.includeHeader) pending.push(encodeCsv([layout.header], work.delimiter))
    const batches = recordBatches(
      rows.batches as AsyncIterable<readonly unknown[]>,
      layout as CsvLayout<unknown>,
      work.batchRows,
      (read) => (rowsRead = read),
    )
    for await (const batch of batches) {
      if (batch.length === 0) continue
      const text = encodeCsv(batch, work.delimiter)
      pending.push(text)
      pendingLength += text.length
      records += batch.length
      if (pendingLength >= work.chunkBytes) await send()
    }
    if (pending.length > 0) await send()
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
