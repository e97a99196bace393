import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { access, open, rename, rm, stat, type FileHandle } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { ExportDelimiter } from '@shared/ipc/export-schemas'
import { ExportCancelledError, ExportFileError } from '@shared/ipc/export-schemas'
import { encodeCsv } from './csv-encoder'
import type { CsvRecord } from './csv-presets'

/** What {@link writeCsvFile} needs besides the target and the records. */
export interface CsvFileOptions {
  delimiter: ExportDelimiter
  /** Written first when given. */
  header: readonly string[] | null
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

/** Bytes gathered before one write: few syscalls, memory flat whatever the row count. */
const WRITE_CHUNK_BYTES = 1 << 20

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

/**
 * Writes CSV records to `target` safely: RFC 4180 (CRLF, quotes doubled, fields with a
 * delimiter, quote or line break quoted; see encodeCsv), into `<target>.partial-<random>`
 * in the same folder, flushed to disk, then renamed over the target, so readers see the
 * old file or the whole new one. On cancel or failure the temporary file is removed and the
 * target is left untouched.
 *
 * Records arrive in batches; between batches the event loop runs, so a cancel request can
 * land, and writes wait for the disk, so memory stays flat.
 *
 * @example
 * await writeCsvFile('/tmp/out.csv', [[['a', '1']]], { delimiter: ',', header: ['name', 'n'] })
 */
export async function writeCsvFile(
  target: string,
  batches: Iterable<readonly CsvRecord[]> | AsyncIterable<readonly CsvRecord[]>,
  options: CsvFileOptions,
): Promise<CsvFileSummary> {
  const path = resolve(target)
  await checkWritableTarget(path)
  const temp = `${path}.partial-${randomBytes(6).toString('hex')}`
  const iterator =
    Symbol.asyncIterator in batches ? batches[Symbol.asyncIterator]() : batches[Symbol.iterator]()
  let handle: FileHandle | null = null
  let settle: () => Promise<void> | undefined = () => undefined
  let records = 0
  let bytes = 0
  try {
    handle = await open(temp, 'wx', options.fileMode ?? 0o644)
    if (options.fileMode !== undefined) await handle.chmod(options.fileMode)
    const file = handle
    let pending: string[] = []
    let pendingBytes = 0
    // One write may be on its way to disk while the next chunk is being built.
    let inFlight: Promise<void> | null = null
    const flush = async (): Promise<void> => {
      if (pending.length === 0) return
      const chunk = Buffer.from(pending.join(''), 'utf8')
      pending = []
      pendingBytes = 0
      await inFlight
      inFlight = writeAll(file, chunk).then(() => {
        bytes += chunk.length
      })
    }
    settle = () => inFlight?.catch(() => undefined)
    const push = async (text: string): Promise<void> => {
      pending.push(text)
      pendingBytes += text.length
      if (pendingBytes >= WRITE_CHUNK_BYTES) await flush()
    }

    if (options.header) await push(encodeCsv([options.header], options.delimiter))
    for (;;) {
      throwIfCancelled(options.signal)
      const next = await iterator.next()
      if (next.done) break
      if (next.value.length > 0) {
        await push(encodeCsv(next.value, options.delimiter))
        records += next.value.length
      }
      options.onBatchWritten?.(records)
      // Yield after every batch, so cancel requests, write completions and other work get a turn.
      await new Promise<void>((done) => setImmediate(done))
    }
    throwIfCancelled(options.signal)
    await flush()
    await inFlight
    await file.sync()
    await file.close()
    handle = null
    throwIfCancelled(options.signal)
    await rename(temp, path)
    await syncFolder(dirname(path))
    return { path, records, bytes }
  } catch (error) {
    await iterator.return?.()
    await settle()
    await handle?.close().catch(() => undefined)
    await rm(temp, { force: true }).catch(() => undefined)
    if (error instanceof ExportCancelledError || error instanceof ExportFileError) throw error
    if ((error as { code?: unknown } | null)?.code !== undefined) throw exportFileError(path, error)
    throw error
  }
}

/** Writes all of `chunk`: a write may take fewer bytes than offered. */
async function writeAll(file: FileHandle, chunk: Buffer): Promise<void> {
  let offset = 0
  while (offset < chunk.length) {
    const { bytesWritten } = await file.write(chunk, offset, chunk.length - offset)
    offset += bytesWritten
  }
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
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
