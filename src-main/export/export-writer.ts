import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { access, open, rename, rm, stat, type FileHandle } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { ExportCancelledError, ExportFileError } from '@shared/ipc/export-schemas'
import type { CsvBatch } from './csv-batches'

/** What {@link writeCsvFile} needs besides the target and the records. */
export interface CsvFileOptions extends Pick<SafeFileOptions, 'onBytesWritten'> {
  signal?: AbortSignal | undefined
  /** Called after each batch reaches the file, with the records written so far. */
  onBatchWritten?: (recordsWritten: number) => void
  /**
   * Exactly these permission bits (POSIX), whatever the umask; by default 0644 less the
   * umask, as editors save documents.
   */
  fileMode?: number | undefined
}

/** What was written. */
export interface CsvFileSummary {
  path: string
  records: number
  bytes: number
}

/** Why a path cannot be written, in words a person can act on. */
function reasonOf(code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return 'the folder does not exist'
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'ENOSPC':
      return 'the disk is full'
    case 'EROFS':
      return 'the disk is read-only'
    case 'EISDIR':
      return 'it is a folder'
    case 'ENOTDIR':
      return 'part of the path is not a folder'
    case 'EDQUOT':
      return 'the disk quota is used up'
    default:
      return 'the file could not be written'
  }
}

/** An error naming the path and the reason, with the system code kept in details. */
export function exportFileError(path: string, error: unknown): ExportFileError {
  const code = (error as { code?: string } | null)?.code
  const suffix = code ? ` (${code})` : ''
  return new ExportFileError(`Cannot write the export to ${path}: ${reasonOf(code)}${suffix}.`, {
    path,
    code: code ?? null,
  })
}

/** Checks the target before any work: its folder exists and is writable, it is not a folder. */
export async function checkWritableTarget(target: string): Promise<void> {
  const folder = dirname(target)
  try {
    const info = await stat(folder)
    if (!info.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' })
    await access(folder, constants.W_OK)
  } catch (error) {
    throw exportFileError(target, error)
  }
  const existing = await stat(target).catch(() => null)
  if (existing?.isDirectory()) throw exportFileError(target, { code: 'EISDIR' })
}

/** Where {@link writeFileSafely} writes, and what it has the file's content written by. */
export interface SafeFileOptions {
  signal?: AbortSignal | undefined
  /** Exactly these permission bits (see CsvFileOptions.fileMode). */
  fileMode?: number | undefined
  /**
   * Told the size of each chunk once it reached the file; throwing stops the write (the
   * file is removed) with that error: how a pending download's allowance stops an export.
   */
  onBytesWritten?: ((bytes: number) => void) | undefined
}

/**
 * Writes a file safely: `fill` writes the content into `<target>.partial-<random>` in the
 * same folder (settling its own writes before it returns or throws); the file is then
 * flushed to disk and renamed over the target, so readers see the old file or the whole
 * new one. On cancel or failure the temporary file is removed and the target is left
 * untouched; a system error becomes an ExportFileError that names the path and the reason.
 *
 * @example
 * await writeFileSafely('/tmp/out.csv', async (file) => { await writeAll(file, bytes) }, {})
 */
export async function writeFileSafely<T>(
  target: string,
  fill: (file: FileHandle, temp: string) => Promise<T>,
  options: SafeFileOptions,
): Promise<{ path: string; result: T }> {
  const path = resolve(target)
  await checkWritableTarget(path)
  const temp = `${path}.partial-${randomBytes(6).toString('hex')}`
  let handle: FileHandle | null = null
  try {
    handle = await open(temp, 'wx', options.fileMode ?? 0o644)
    if (options.fileMode !== undefined) await handle.chmod(options.fileMode)
    const result = await fill(handle, temp)
    throwIfCancelled(options.signal)
    await handle.sync()
    await handle.close()
    handle = null
    throwIfCancelled(options.signal)
    await rename(temp, path)
    await syncFolder(dirname(path))
    return { path, result }
  } catch (error) {
    await handle?.close().catch(() => undefined)
    await rm(temp, { force: true }).catch(() => undefined)
    if (error instanceof ExportCancelledError || error instanceof ExportFileError) throw error
    if ((error as { code?: unknown } | null)?.code !== undefined) throw exportFileError(path, error)
    throw error
  }
}

/**
 * Byte chunks written to a file in order, one on its way to disk while the caller
 * prepares the next; `bytes` counts what reached the file.
 */
export class OrderedWrites {
  readonly #file: FileHandle
  #inFlight: Promise<void> = Promise.resolve()
  bytes = 0
  /** Told each chunk's size once on disk (see SafeFileOptions.onBytesWritten). */
  onWritten: ((bytes: number) => void) | undefined

  constructor(file: FileHandle, onWritten?: (bytes: number) => void) {
    this.#file = file
    this.onWritten = onWritten
  }

  /**
   * Queues `chunk` after the ones before it (it is not copied: leave it be); resolves once
   * the chunk before it is on disk, so a caller that awaits each write keeps one in flight.
   */
  write(chunk: Uint8Array): Promise<void> {
    return this.#enqueue(chunk).before
  }

  /** Queues `chunk` after the ones before it; resolves once it is on disk (to reuse it). */
  written(chunk: Uint8Array): Promise<void> {
    return this.#enqueue(chunk).current
  }

  #enqueue(chunk: Uint8Array): { before: Promise<void>; current: Promise<void> } {
    const before = this.#inFlight
    const current = before
      .then(() => writeAll(this.#file, chunk))
      .then(() => {
        this.bytes += chunk.length
        this.onWritten?.(chunk.length)
      })
    this.#inFlight = current
    // A failure reaches the caller through the next write or done().
    current.catch(() => undefined)
    return { before, current }
  }

  /** Every chunk on disk (or the first failure). */
  done(): Promise<void> {
    return this.#inFlight
  }

  /** Every write ended, failed or not: before the file is closed after a failure. */
  settle(): Promise<void> {
    return this.#inFlight.catch(() => undefined)
  }
}

/**
 * Writes CSV chunks to `target` safely (see {@link writeFileSafely}), batch by batch as
 * csvBatches writes them (header included), one chunk on its way to disk while the next
 * batch is written. Between batches the event loop runs, so a cancel request can land, and
 * writes wait for the disk, so memory stays flat.
 *
 * @example
 * await writeCsvFile('/tmp/out.csv', csvBatches(rows, { layout, csv, header, batchRows: 2_000, onRead }), {})
 */
export async function writeCsvFile(
  target: string,
  batches: AsyncIterable<CsvBatch>,
  options: CsvFileOptions,
): Promise<CsvFileSummary> {
  const iterator = batches[Symbol.asyncIterator]()
  let records = 0
  const { path, result: bytes } = await writeFileSafely(
    target,
    async (file) => {
      const writes = new OrderedWrites(file, options.onBytesWritten)
      try {
        for (;;) {
          throwIfCancelled(options.signal)
          const next = await iterator.next()
          if (next.done) break
          // Each chunk is fresh: written as it is, never copied or reused.
          for (const chunk of next.value.chunks) await writes.write(chunk)
          records += next.value.records
          options.onBatchWritten?.(records)
          // Yield after every batch, so cancel requests, write completions and other work get a turn.
          await new Promise<void>((done) => setImmediate(done))
        }
        throwIfCancelled(options.signal)
        await writes.done()
        return writes.bytes
      } catch (error) {
        await iterator.return?.()
        await writes.settle()
        throw error
      }
    },
    options,
  )
  return { path, records, bytes }
}

/** Writes all of `chunk`: a write may take fewer bytes than offered. */
async function writeAll(file: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0
  while (offset < chunk.length) {
    const { bytesWritten } = await file.write(chunk, offset, chunk.length - offset)
    offset += bytesWritten
  }
}

/** Throws the export's cancel error once `signal` has fired. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ExportCancelledError('Export cancelled; no file was written.')
}

/** Makes the rename itself durable where the platform allows opening a folder (not Windows). */
async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return
  const dir = await open(folder, 'r').catch(() => null)
  if (dir === null) return
  await dir.sync().catch(() => undefined)
  await dir.close().catch(() => undefined)
}
