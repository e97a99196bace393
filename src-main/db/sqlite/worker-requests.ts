import type { Worker } from 'node:worker_threads'
import { AppError, type ErrorPayload } from '@shared/ipc/ipc-errors'
import { describeStorageError } from '../storage-errors'

// Requests to one of the mirror's worker threads (its writer, a reader), each answered by
// its id: the thread starts with the first request and holds the process open only while
// one is under way; a thread that stops fails every request still waiting.

/** Every request and reply carries the id that pairs them. */
interface Numbered {
  id: number
}

/** How a kind of thread is started, and how its replies and its stop read. */
export interface WorkerRequestsOptions<Reply> {
  start(): Worker
  /** The reply's value, or the error to reject its request with. */
  answer(reply: Reply): { value: unknown } | { error: Error }
  /** The error every waiting request gets when the thread stops (`reason`: why). */
  stopped(reason: string): Error
}

/** The requests to one worker thread. */
export class WorkerRequests<Request extends Numbered, Reply extends Numbered> {
  readonly #options: WorkerRequestsOptions<Reply>
  #worker: Worker | null = null
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(e: Error): void }>()
  #nextId = 1

  constructor(options: WorkerRequestsOptions<Reply>) {
    this.#options = options
  }

  /** Requests sent and not yet answered. */
  get pending(): number {
    return this.#pending.size
  }

  /** A fresh id for a request. */
  nextId(): number {
    return this.#nextId++
  }

  /** Sends a request (starting the thread if needed); resolves with its reply's value. */
  send(request: Request): Promise<unknown> {
    const worker = this.#worker ?? this.#start()
    return new Promise((resolve, reject) => {
      this.#pending.set(request.id, { resolve, reject })
      worker.ref()
      worker.postMessage(request)
    })
  }

  /**
   * Sends the thread's last request (it closes its connection and answers), then ends the
   * thread: the loader hooks of a source run would keep it alive.
   */
  async close(last: Request): Promise<void> {
    const worker = this.#worker
    if (worker === null) return
    await this.send(last).catch(() => undefined)
    this.#worker = null
    await worker.terminate()
  }

  #start(): Worker {
    const worker = this.#options.start()
    this.#worker = worker
    worker.on('message', (reply: Reply) => {
      const pending = this.#pending.get(reply.id)
      if (pending === undefined) return
      this.#pending.delete(reply.id)
      if (this.#pending.size === 0) worker.unref()
      const answer = this.#options.answer(reply)
      if ('error' in answer) pending.reject(answer.error)
      else pending.resolve(answer.value)
    })
    const fail = (reason: string): void => {
      if (this.#worker === worker) this.#worker = null
      const error = this.#options.stopped(reason)
      for (const pending of this.#pending.values()) pending.reject(error)
      this.#pending.clear()
    }
    worker.on('error', (error) => fail(error.message))
    worker.on('exit', (code) => fail(`exit code ${code}`))
    return worker
  }
}

/**
 * An error thrown on a worker thread as plain data for its reply: an AppError (a
 * StorageError, a NotFoundError) keeps its class name and details; a bare SQLite error is
 * described in words a person can act on, as `doing` ("read the mirror").
 */
export function workerErrorPayload(thrown: unknown, doing: string): ErrorPayload {
  if (!(thrown instanceof Error)) return { name: 'Error', message: String(thrown) }
  const isBareSqlite =
    !(thrown instanceof AppError) && typeof (thrown as { code?: unknown }).code === 'string'
  const error = isBareSqlite ? describeStorageError(thrown, doing) : thrown
  const details = (error as { details?: unknown }).details
  return {
    name: error.name,
    message: error.message,
    ...(details === undefined ? {} : { details }),
  }
}
