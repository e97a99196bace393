import type { Worker } from 'node:worker_threads'

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
