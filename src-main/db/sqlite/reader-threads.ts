import { availableParallelism } from 'node:os'
import { rebuildError, type ErrorPayload } from '@shared/ipc/ipc-errors'
import type { ViewReadStores } from '../kysely-mirror'
import { startWorker } from '../start-worker'
import { WorkerRequests } from './worker-requests'

// The views' reads on threads of their own. better-sqlite3 runs a statement to its end on
// the thread that asks, so on the main thread every page a person asks for waited for every
// other one before it, and the sockets, sessions and replies waited with them: with a
// hundred people paging History the slowest page set everyone's time. Here each reader
// thread keeps a read-only connection and the same stores (ReviewReader, the feed's pages,
// the header search): a page is one request, built there, compiled, read and shaped
// beside the main thread (WAL: readers never wait for each other or for the writer).

/** The stores whose reads run on the reader threads. */
export type ThreadedStores = ViewReadStores

/** A read for a reader thread (a store's method and its arguments), or the last request. */
export type ReaderRequest =
  | { id: number; store: keyof ThreadedStores; method: string; args: unknown[] }
  | { id: number; store: null; method: 'close'; args: [] }

/** A reader thread's answer: the method's value, or its error as plain data. */
export type ReaderReply = { id: number; value: unknown } | { id: number; error: ErrorPayload }

/** Writes and their reads stay on the mirror's own connection, in the order they are made. */
const ON_THIS_THREAD: Record<keyof ThreadedStores, ReadonlySet<string>> = {
  review: new Set(['markViewed']),
  feed: new Set(['markViewed', 'lastViewed']),
  search: new Set(),
}

/**
 * Reader threads: one per core, at least two (two pages read side by side even on two
 * cores: one long read never holds up the next), at most four.
 */
export function defaultReaderCount(): number {
  return Math.max(2, Math.min(4, availableParallelism()))
}

/** Reader threads over one SQLite file, each started with its first read. */
export class ReaderThreads {
  readonly #threads: WorkerRequests<ReaderRequest, ReaderReply>[]

  constructor(path: string, count = defaultReaderCount()) {
    this.#threads = Array.from(
      { length: count },
      () =>
        new WorkerRequests<ReaderRequest, ReaderReply>({
          start: () =>
            startWorker(
              'mirror-reader-worker',
              new URL('./mirror-reader-worker.ts', import.meta.url),
              { path },
            ),
          answer: (reply) =>
            'error' in reply ? { error: rebuildError(reply.error) } : { value: reply.value },
          stopped: (reason) => new Error(`A reader thread of the mirror stopped (${reason}).`),
        }),
    )
  }

  /** Runs a store's read on the thread with the fewest reads under way. */
  read(store: keyof ThreadedStores, method: string, args: unknown[]): Promise<unknown> {
    const thread = this.#threads.reduce((a, b) => (b.pending < a.pending ? b : a))
    return thread.send({ id: thread.nextId(), store, method, args })
  }

  /**
   * `local`'s stores with their reads sent to the threads: every method runs there but the
   * few that write (and the reads a write makes), which run on `local` itself.
   */
  storesOver(local: ThreadedStores): ThreadedStores {
    return {
      review: this.#over('review', local.review),
      feed: this.#over('feed', local.feed),
      search: this.#over('search', local.search),
    }
  }

  /** Ends every thread once its reads are answered. */
  async close(): Promise<void> {
    await Promise.all(
      this.#threads.map((t) => t.close({ id: t.nextId(), store: null, method: 'close', args: [] })),
    )
  }

  #over<K extends keyof ThreadedStores>(store: K, local: ThreadedStores[K]): ThreadedStores[K] {
    return new Proxy(local, {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver) as unknown
        if (
          typeof key !== 'string' ||
          typeof value !== 'function' ||
          ON_THIS_THREAD[store].has(key)
        )
          return typeof value === 'function' ? value.bind(target) : value
        return (...args: unknown[]) => this.read(store, key, args)
      },
    })
  }
}
