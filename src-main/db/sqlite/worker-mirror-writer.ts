import type { Worker } from 'node:worker_threads'
import { rebuildError, StorageError, type ErrorPayload } from '@shared/ipc/ipc-errors'
import type BetterSqlite3 from 'better-sqlite3'
import type { MirrorWriter } from '../mirror-writer'
import type { LedgerEntry } from '../stores/credit-ledger-store'
import { StreamRowReader } from './mirror-writer'
import { startWorker } from '../start-worker'

/** The writer's methods, each a request to the worker, and the credit ledger's row. */
type WriterMethod = keyof MirrorWriter | 'recordLedgerEntry'

/** A request to the worker: a writer method and its arguments, or the last one, close. */
export type WriterRequest =
  { id: number; method: WriterMethod; args: unknown[] } | { id: number; method: 'close' }

/** The worker's answer to one request. */
export type WriterReply = { id: number; value: unknown } | { id: number; error: ErrorPayload }

interface Pending {
  resolve(value: unknown): void
  reject(error: Error): void
}

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
  readonly #path: string
  readonly #rows: StreamRowReader | null
  #worker: Worker | null = null
  readonly #pending = new Map<number, Pending>()
  #nextId = 1

  /**
   * @param reader the caller's own connection to the same file: a stream's row is read
   * there when nothing asked of the worker is still under way (so every earlier write is
   * committed and visible), sparing a round trip to the worker after each page.
   */
  constructor(path: string, reader?: BetterSqlite3.Database) {
    this.#path = path
    this.#rows = reader ? new StreamRowReader(reader) : null
  }

  walletId(...args: Parameters<MirrorWriter['walletId']>) {
    return this.#ask<number | null>('walletId', args)
  }
  stream(...args: Parameters<MirrorWriter['stream']>) {
    const row = this.#pending.size === 0 ? this.#rows?.read(...args) : undefined
    if (row !== undefined) return Promise.resolve(row)
    // Before its first use the row is created, which is a write: the worker's.
    return this.#ask<Awaited<ReturnType<MirrorWriter['stream']>>>('stream', args)
  }
  streams(...args: Parameters<MirrorWriter['streams']>) {
    const rows = this.#pending.size === 0 ? this.#rows?.readAll(...args) : undefined
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
  async close(): Promise<void> {
    const worker = this.#worker
    if (worker === null) return
    // Its connection is closed once it answers; the loader hooks of a source run would
    // keep the thread alive, so it is ended rather than left to exit.
    await this.#send({ id: this.#nextId++, method: 'close' }).catch(() => undefined)
    this.#worker = null
    await worker.terminate()
  }

  #ask<T>(method: WriterMethod, args: unknown[]): Promise<T> {
    return this.#send({ id: this.#nextId++, method, args }) as Promise<T>
  }

  #send(request: WriterRequest): Promise<unknown> {
    const worker = this.#worker ?? this.#start()
    return new Promise((resolve, reject) => {
      this.#pending.set(request.id, { resolve, reject })
      worker.ref()
      worker.postMessage(request)
    })
  }

  #start(): Worker {
    const worker = startWorker(
      'mirror-writer-worker',
      new URL('./mirror-writer-worker.ts', import.meta.url),
      { path: this.#path },
    )
    this.#worker = worker
    worker.on('message', (reply: WriterReply) => {
      const pending = this.#pending.get(reply.id)
      if (pending === undefined) return
      this.#pending.delete(reply.id)
      if (this.#pending.size === 0) worker.unref()
      if ('error' in reply) pending.reject(rebuildError(reply.error))
      else pending.resolve(reply.value)
    })
    const fail = (reason: string): void => {
      if (this.#worker === worker) this.#worker = null
      const error = new StorageError(
        `Could not write to the database at ${this.#path}: the writer thread stopped (${reason}).`,
        { path: this.#path },
      )
      for (const pending of this.#pending.values()) pending.reject(error)
      this.#pending.clear()
    }
    worker.on('error', (error) => fail(error.message))
    worker.on('exit', (code) => fail(`exit code ${code}`))
    return worker
  }
}
