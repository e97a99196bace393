import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import { open, rm, type FileHandle } from 'node:fs/promises'
import type { ExportDelimiter, ExportFormat, ExportKind } from '@shared/ipc/export-schemas'
import { ExportCancelledError } from '@shared/ipc/export-schemas'
import { rebuildError, StorageError, type ErrorPayload } from '@shared/ipc/ipc-errors'
import type { ExportPartJob, ExportParts } from '../db/export-reader'
import { startWorker } from '../db/start-worker'
import { CSV_CHUNK_BYTES } from './csv-encoder'
import { OrderedWrites, throwIfCancelled, writeFileSafely } from './export-writer'

// An export split by block time into parts that read one snapshot side by side, each on a
// thread of its own that reads, lays out and encodes its rows; this thread only writes the
// bytes, the first part's into the export's file and each later part's into a file of its
// own, appended in order once every part is done. SQLite steps through one part's rows
// while another part's records are encoded: an export runs at the pace of the machine's
// cores, not of one.

/** What one part's thread is given (its workerData). */
export interface ExportPartWork {
  job: ExportPartJob
  kind: ExportKind
  format: ExportFormat
  delimiter: ExportDelimiter
  /** Only the first part writes the header line. */
  includeHeader: boolean
  batchRows: number
  /** The size of a chunk's buffer. */
  chunkBytes: number
  /** Chunks a part may have handed over and not had back before it waits (one more while a batch fills). */
  aheadChunks: number
}

/** To a part's thread: a chunk it handed over is on disk; its buffer comes back to be reused. */
export interface PartRequest {
  kind: 'written'
  buffer: ArrayBuffer
}

/** From a part's thread, in order: opened, bytes…, then done or failed. */
export type PartMessage =
  | { kind: 'opened'; totalRows: number }
  | { kind: 'bytes'; bytes: Uint8Array; rowsRead: number; records: number }
  | { kind: 'done'; rowsRead: number; records: number }
  | { kind: 'failed'; error: ErrorPayload }

/** Rows read, records written, of the rows every part counted. */
export interface PartedProgress {
  rowsRead: number
  totalRows: number
  rowsWritten: number
}

/** What a parted export writes and how. */
export interface PartedExportSettings {
  kind: ExportKind
  format: ExportFormat
  delimiter: ExportDelimiter
  includeHeader: boolean
  outPath: string
  batchRows: number
  signal?: AbortSignal | undefined
  fileMode?: number | undefined
  /** Told each chunk's size as a part writes it (see SafeFileOptions.onBytesWritten). */
  onBytesWritten?: ((bytes: number) => void) | undefined
  onProgress(progress: PartedProgress): void
}

const AHEAD_CHUNKS = 4
/**
 * A part's heap: its batches are small and short-lived, so a small young generation is
 * collected often, and the old one never holds more than a few batches; without limits
 * each part's heap grew by hundreds of MB before its first full collection.
 */
const PART_HEAP_LIMITS = { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb: 256 }
/** Bytes copied at a time when a later part's file is appended. */
const APPEND_BYTES = 1 << 20

/**
 * Parts an export may be split into here: one per core, at most four (more parts add
 * threads, not speed, once the disk or the database is the limit).
 */
export function defaultExportParts(): number {
  return Math.min(4, availableParallelism())
}

/**
 * Writes an export split into `parts` to `settings.outPath` safely (see writeFileSafely):
 * the same bytes as reading it whole, in less time. The parts' snapshot is released as
 * soon as every part has begun its read. Cancelling stops every part's thread and leaves
 * no file.
 *
 * @example
 * const parts = await mirror.exports.parts('balance-changes', filters, { parts: 2, minRows: 50_000 })
 * if (parts) await writePartedExport(parts, { kind: 'balance-changes', format: 'full', … })
 */
export async function writePartedExport(
  parts: ExportParts,
  settings: PartedExportSettings,
): Promise<{ path: string; rowsRead: number; rowsWritten: number; bytes: number }> {
  const threads = parts.jobs.map((job, i) => new PartThread(job, i === 0, settings))
  const stop = (): void => threads.forEach((t) => t.stop())
  try {
    throwIfCancelled(settings.signal)
    // Every part has begun its read (its snapshot is taken) before writers go on.
    const opened = await Promise.allSettled(threads.map((t) => t.opened))
    await parts.release()
    const failed = opened.find((o) => o.status === 'rejected')
    if (failed) throw failed.reason
    const totalRows = threads.reduce((sum, t) => sum + t.totalRows, 0)
    const report = (): void =>
      settings.onProgress({
        rowsRead: threads.reduce((sum, t) => sum + t.rowsRead, 0),
        totalRows,
        rowsWritten: threads.reduce((sum, t) => sum + t.records, 0),
      })
    const { path, result: bytes } = await writeFileSafely(
      settings.outPath,
      async (file, temp) => {
        const later: FileHandle[] = []
        const laterPaths = threads.slice(1).map((_, i) => `${temp}-${i + 1}`)
        try {
          for (const p of laterPaths) later.push(await open(p, 'wx+', 0o600))
          const writes = [file, ...later].map((f) => new OrderedWrites(f, settings.onBytesWritten))
          let onAbort = (): void => undefined
          const cancelled = new Promise<never>((_, reject) => {
            onAbort = () =>
              reject(new ExportCancelledError('Export cancelled; no file was written.'))
            settings.signal?.addEventListener('abort', onAbort, { once: true })
          })
          cancelled.catch(() => undefined)
          try {
            await Promise.race([
              Promise.all(threads.map((t, i) => t.writeTo(writes[i] as OrderedWrites, report))),
              cancelled,
            ])
          } finally {
            settings.signal?.removeEventListener('abort', onAbort)
            stop()
            await Promise.all(writes.map((w) => w.settle()))
          }
          const whole = writes[0] as OrderedWrites
          // The later parts' bytes were counted as their parts wrote them, not again here.
          whole.onWritten = undefined
          for (const [i, handle] of later.entries()) {
            await appendFile(whole, handle, (writes[i + 1] as OrderedWrites).bytes)
          }
          await whole.done()
          return whole.bytes
        } finally {
          await Promise.all(later.map((h) => h.close().catch(() => undefined)))
          await Promise.all(laterPaths.map((p) => rm(p, { force: true }).catch(() => undefined)))
        }
      },
      settings,
    )
    report()
    return {
      path,
      rowsRead: threads.reduce((sum, t) => sum + t.rowsRead, 0),
      rowsWritten: threads.reduce((sum, t) => sum + t.records, 0),
      bytes,
    }
  } finally {
    stop()
    await parts.release()
  }
}

/** Copies `bytes` bytes of a later part's file onto the end of the export's. */
async function appendFile(whole: OrderedWrites, from: FileHandle, bytes: number): Promise<void> {
  for (let at = 0; at < bytes;) {
    const chunk = Buffer.allocUnsafe(Math.min(APPEND_BYTES, bytes - at))
    const { bytesRead } = await from.read(chunk, 0, chunk.length, at)
    if (bytesRead === 0) break
    at += bytesRead
    await whole.write(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead))
  }
}

/** One part's thread, seen from here: its count once opened, then its bytes in order. */
class PartThread {
  readonly opened: Promise<void>
  totalRows = 0
  rowsRead = 0
  records = 0
  readonly #worker: Worker
  /** Who takes the thread's next message; until someone does, messages wait in order. */
  #take: ((message: PartMessage) => void) | null = null
  readonly #waiting: PartMessage[] = []
  #isOver = false
  #isStopped = false

  constructor(job: ExportPartJob, isFirst: boolean, settings: PartedExportSettings) {
    const work: ExportPartWork = {
      job,
      kind: settings.kind,
      format: settings.format,
      delimiter: settings.delimiter,
      includeHeader: isFirst && settings.includeHeader,
      batchRows: settings.batchRows,
      chunkBytes: CSV_CHUNK_BYTES,
      aheadChunks: AHEAD_CHUNKS,
    }
    this.#worker = startWorker(
      'export-part-worker',
      new URL('./export-part-worker.ts', import.meta.url),
      work,
      PART_HEAP_LIMITS,
    )
    this.opened = new Promise((resolve, reject) => {
      this.#take = (message) => {
        this.#take = null
        if (message.kind === 'opened') {
          this.totalRows = message.totalRows
          resolve()
        } else if (message.kind === 'failed') reject(rebuildError(message.error))
        else reject(new StorageError(`A part of the export sent ${message.kind} before opening.`))
      }
    })
    this.#worker.on('message', (message: PartMessage) => this.#deliver(message))
    const gone = (reason: string): void => {
      // A thread that ends after its last message, or is stopped from here, is no failure.
      if (!this.#isOver) this.#deliver({ kind: 'failed', error: stoppedPayload(reason) })
    }
    this.#worker.on('error', (error) => gone(error.message))
    this.#worker.on('exit', (code) => gone(`exit code ${code}`))
  }

  /** Writes the part's bytes in order as they come; resolves once they are all on disk. */
  writeTo(writes: OrderedWrites, report: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const take = (message: PartMessage): void => {
        if (message.kind === 'bytes') {
          this.rowsRead = message.rowsRead
          this.records = message.records
          // Once on disk, the chunk's buffer goes back to the part to be filled again: a
          // buffer per chunk would pile up here between collections.
          writes.written(message.bytes).then(() => {
            const buffer = message.bytes.buffer as ArrayBuffer
            this.#worker.postMessage({ kind: 'written', buffer } satisfies PartRequest, [buffer])
            report()
          }, reject)
        } else if (message.kind === 'done') {
          this.rowsRead = message.rowsRead
          this.records = message.records
          this.#isOver = true
          this.#take = null
          writes.done().then(resolve, reject)
        } else if (message.kind === 'failed') {
          this.#isOver = true
          this.#take = null
          reject(rebuildError(message.error))
        }
      }
      this.#take = take
      // The thread's exit may follow its last message before that is taken: once the
      // part is over, nothing after it counts.
      for (const message of this.#waiting.splice(0)) if (this.#take === take) take(message)
    })
  }

  /** Ends the part's thread (its connection closes with it). */
  stop(): void {
    if (this.#isStopped) return
    this.#isStopped = true
    this.#isOver = true
    this.#take = null
    void this.#worker.terminate()
  }

  #deliver(message: PartMessage): void {
    if (this.#take) this.#take(message)
    else if (!this.#isOver) this.#waiting.push(message)
  }
}

function stoppedPayload(reason: string): ErrorPayload {
  const error = new StorageError(
    `Could not read the rows to export: a part's thread stopped (${reason}).`,
  )
  return { name: error.name, message: error.message }
}
