import { rebuildError, StorageError, type ErrorPayload } from '@shared/ipc/ipc-errors'
import type BetterSqlite3 from 'better-sqlite3'
import type { MirrorWriter } from '../mirror-writer'
import type { LedgerEntry } from '../stores/credit-ledger-store'
import { StreamRowReader } from './mirror-writer'
import { startWorker } from '../start-worker'
import { WorkerRequests } from './worker-requests'

/** The writer's methods, each a request to the worker, and the credit ledger's row. */
type WriterMethod = keyof MirrorWriter | 'recordLedgerEntry'

/** A request to the worker: a writer method and its arguments, or the last one, close. */
export type WriterRequest =
  { id: number; method: WriterMethod; args: unknown[] } | { id: number; method: 'close' }

/** The worker's answer to one request. */
export type WriterReply = { id: number; value: unknown } | { id: number; error: ErrorPayload }

/**
 * The mirror writer on a worker thread (node:worker_threads) with its own connection to
 * the SQLite file: page transactions, their statements and index updates run beside the
 * main thread, which keeps answering the views (WAL lets its connection read meanwhile),
 * and the stream fetches its next page while this one is written. Requests run one at a
 * time in the order they were made, each page still one transaction with its cursor; a
 * storage failure reaches the caller as the same StorageError the writer throws.
 *
 * The worker starts on the first call and holds the process open only while a call is
 * under way.
 *
 * @example
 * const writer = new WorkerMirrorWriter('/data/heliograph.sqlite')
 * await writer.applyHistoryPage(walletId, page.data, { backfillCursor, addPages: 1 })
 * await writer.close()
 */
export class WorkerMirrorWriter implements MirrorWriter {
  /**
   * The thread writes requests in the order they came and commits those that queued up
   * together, so a backfill that fetches faster than it writes sends a few pages ahead
   * and they share one commit (and one WAL append of the index pages they touch).
   */
  readonly pagesInFlight = 16
  readonly #rows: StreamRowReader | null
  readonly #requests: WorkerRequests<WriterRequest, WriterReply>

  /**
   * @param reader the caller's own connection to the same file: a stream's row is read
   * there when nothing asked of the worker is still under way (so every earlier write is
   * committed and visible), sparing a round trip to the worker after each page.
   */
  constructor(path: string, reader?: BetterSqlite3.Database) {
    this.#rows = reader ? new StreamRowReader(reader) : null
    this.#requests = new WorkerRequests({
      start: () =>
        startWorker('mirror-writer-worker', new URL('./mirror-writer-worker.ts', import.meta.url), {
          path,
        }),
      answer: (reply) =>
        'error' in reply ? { error: rebuildError(reply.error) } : { value: reply.value },
      stopped: (reason) =>
        new StorageError(
          `Could not write to the database at ${path}: the writer thread stopped (${reason}).`,
          { path },
        ),
    })
  }

  walletId(...args: Parameters<MirrorWriter['walletId']>) {
    return this.#ask<number | null>('walletId', args)
  }
  stream(...args: Parameters<MirrorWriter['stream']>) {
    const row = this.#requests.pending === 0 ? this.#rows?.read(...args) : undefined
    if (row !== undefined) return Promise.resolve(row)
    // Before its first use the row is created, which is a write: the worker's.
    return this.#ask<Awaited<ReturnType<MirrorWriter['stream']>>>('stream', args)
  }
  streams(...args: Parameters<MirrorWriter['streams']>) {
    const rows = this.#requests.pending === 0 ? this.#rows?.readAll(...args) : undefined
    if (rows !== undefined) return Promise.resolve(rows)
    return this.#ask<Awaited<ReturnType<MirrorWriter['streams']>>>('streams', args)
  }
  patchStream(...args: Parameters<MirrorWriter['patchStream']>) {
    return this.#ask<void>('patchStream', args)
  }
  applyHistoryPage(...args: Parameters<MirrorWriter['applyHistoryPage']>) {
    return this.#ask<number>('applyHistoryPage', args)
  }
  applyTransfersPage(...args: Parameters<MirrorWriter['applyTransfersPage']>) {
    return this.#ask<number>('applyTransfersPage', args)
  }
  firstKnownTransfer(...args: Parameters<MirrorWriter['firstKnownTransfer']>) {
    return this.#ask<number>('firstKnownTransfer', args)
  }
  applyBalancesSnapshot(...args: Parameters<MirrorWriter['applyBalancesSnapshot']>) {
    return this.#ask<number>('applyBalancesSnapshot', args)
  }
  applyCompressedSignaturesPage(
    ...args: Parameters<MirrorWriter['applyCompressedSignaturesPage']>
  ) {
    return this.#ask<number>('applyCompressedSignaturesPage', args)
  }
  firstKnownCompressedSignature(
    ...args: Parameters<MirrorWriter['firstKnownCompressedSignature']>
  ) {
    return this.#ask<number>('firstKnownCompressedSignature', args)
  }
  knownSignatures(...args: Parameters<MirrorWriter['knownSignatures']>) {
    return this.#ask<Set<string>>('knownSignatures', args)
  }
  applySnapshotNfts(...args: Parameters<MirrorWriter['applySnapshotNfts']>) {
    return this.#ask<void>('applySnapshotNfts', args)
  }
  hasCompressedActivity(...args: Parameters<MirrorWriter['hasCompressedActivity']>) {
    return this.#ask<boolean>('hasCompressedActivity', args)
  }
  applyCompressedSnapshot(...args: Parameters<MirrorWriter['applyCompressedSnapshot']>) {
    return this.#ask<number>('applyCompressedSnapshot', args)
  }

  /**
   * Writes a call's ledger row on the worker's connection: a row written on the main
   * thread's connection would wait there (busy timeout) while a page transaction holds
   * the write lock.
   */
  recordLedgerEntry(entry: LedgerEntry) {
    return this.#ask<void>('recordLedgerEntry', [entry])
  }

  /** Finishes the calls under way, closes the worker's connection and ends the thread. */
  close(): Promise<void> {
    return this.#requests.close({ id: this.#requests.nextId(), method: 'close' })
  }

  #ask<T>(method: WriterMethod, args: unknown[]): Promise<T> {
    return this.#requests.send({ id: this.#requests.nextId(), method, args }) as Promise<T>
  }
}
