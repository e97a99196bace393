import { parentPort, workerData } from 'node:worker_threads'
import type { ErrorPayload } from '@shared/ipc/ipc-errors'
import { openExportPart } from '../db/export-part-rows'
import { csvBatches } from './csv-batches'
import { encodeCsv } from './csv-encoder'
import { layoutFor, type CsvLayout } from './csv-presets'
import { currencyNames } from './currency-names'
import type { ExportPartWork, PartMessage, PartRequest } from './parted-export'

// One part of an export on a thread of its own: its rows read in the snapshot every part
// shares, turned into records and CSV bytes here, and handed to the thread that writes
// the file. The part has `aheadChunks` buffers, handed over full and back once written:
// memory stays flat whatever the row count.

const port = parentPort
if (port === null) throw new Error('export-part-worker runs only as a worker thread.')
const work = workerData as ExportPartWork
const post = (message: PartMessage, transfer: ArrayBuffer[] = []): void =>
  port.postMessage(message, transfer)

/** Buffers free to fill: the part's own at first, then those handed back once written. */
const free: Uint8Array[] = Array.from(
  { length: work.aheadChunks },
  () => new Uint8Array(work.chunkBytes),
)
let wake: (() => void) | null = null
port.on('message', (request: PartRequest) => {
  free.push(new Uint8Array(request.buffer))
  wake?.()
  wake = null
})

/** CSV text into chunk buffers, each handed over full (the last one as far as it is filled). */
class ChunkFiller {
  #buffer: Uint8Array | null = null
  #filled = 0
  readonly #encoder = new TextEncoder()
  rowsRead = 0
  records = 0

  async add(text: string): Promise<void> {
    let rest = text
    while (rest.length > 0) {
      const buffer = this.#buffer ?? (this.#buffer = await takeFree())
      const { read, written } = this.#encoder.encodeInto(rest, buffer.subarray(this.#filled))
      this.#filled += written
      rest = rest.slice(read)
      // Full, or the next character does not fit (a multi-byte one at the end).
      if (rest.length > 0 || this.#filled === buffer.length) this.hand()
    }
  }

  /** Hands the buffer over as far as it is filled. */
  hand(): void {
    const buffer = this.#buffer
    if (buffer === null || this.#filled === 0) return
    const bytes = buffer.subarray(0, this.#filled)
    post({ kind: 'bytes', bytes, rowsRead: this.rowsRead, records: this.records }, [
      buffer.buffer as ArrayBuffer,
    ])
    this.#buffer = null
    this.#filled = 0
  }
}

async function takeFree(): Promise<Uint8Array> {
  while (free.length === 0) await new Promise<void>((done) => (wake = done))
  return free.shift() as Uint8Array
}

async function writePart(): Promise<void> {
  const rows = await openExportPart(work.job, work.batchRows)
  try {
    post({ kind: 'opened', totalRows: rows.totalRows })
    // Every part reads the same mint symbols, so every part names currencies alike.
    const layout = layoutFor(work.kind, work.format, currencyNames(rows.mintSymbols))
    const chunks = new ChunkFiller()
    if (work.includeHeader) await chunks.add(encodeCsv([layout.header], work.delimiter))
    const batches = csvBatches(
      rows.batches as AsyncIterable<readonly unknown[]>,
      layout as CsvLayout<unknown>,
      work.delimiter,
      work.batchRows,
      (read) => (chunks.rowsRead = read),
    )
    for await (const batch of batches) {
      if (batch.records === 0) continue
      chunks.records += batch.records
      await chunks.add(batch.text)
    }
    chunks.hand()
    post({ kind: 'done', rowsRead: chunks.rowsRead, records: chunks.records })
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
