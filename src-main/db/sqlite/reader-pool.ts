import { availableParallelism } from 'node:os'
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely'
import type { Database } from '../schema'
import { startWorker } from '../start-worker'
import { WorkerRequests } from './worker-requests'

// The mirror's reads on threads of their own. better-sqlite3 runs a statement to its end
// on the thread that asks, so on the main thread every page a person asks for waits for
// every other one before it, and the sockets, sessions and replies wait with them: with a
// hundred people paging History the slowest page set everyone's time. Here Kysely compiles
// each read on the main thread and a reader thread runs it on its own read-only connection
// (WAL: readers never wait for each other or for the writer's thread), while the main
// thread goes on serving.

/** A statement for a reader thread, or the last request: close. */
export type ReaderRequest =
  | { kind: 'run'; id: number; sql: string; parameters: readonly unknown[] }
  | { kind: 'close'; id: number }

/** A reader thread's answer: the statement's rows, or its error. */
export type ReaderReply =
  | { id: number; rows: unknown[] }
  | { id: number; error: { name: string; message: string; code: string | null } }

/**
 * Reader threads: one per core, at least two (two pages read side by side even on two
 * cores: one long read never holds up the next), at most four.
 */
export function defaultReaderCount(): number {
  return Math.max(2, Math.min(4, availableParallelism()))
}

/** One reader thread and its connection, lent to one query or transaction at a time. */
class ReaderConnection implements DatabaseConnection {
  readonly #requests: WorkerRequests<ReaderRequest, ReaderReply>

  constructor(path: string) {
    this.#requests = new WorkerRequests({
      start: () =>
        startWorker('mirror-reader-worker', new URL('./mirror-reader-worker.ts', import.meta.url), {
          path,
        }),
      answer: (reply) => {
        if (!('error' in reply)) return { value: reply.rows }
        const { name, message, code } = reply.error
        return { error: Object.assign(new Error(message), { name, ...(code ? { code } : {}) }) }
      },
      stopped: (reason) => new Error(`A reader thread of the mirror stopped (${reason}).`),
    })
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const rows = await this.#requests.send({
      kind: 'run',
      id: this.#requests.nextId(),
      sql: compiled.sql,
      parameters: compiled.parameters,
    })
    return { rows: rows as R[] }
  }

  // eslint-disable-next-line require-yield -- a stream holds a reader; the app streams on its own connection
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The reader threads run whole queries; stream on the mirror’s own connection.')
  }

  /** Ends the thread once its statements are answered. */
  close(): Promise<void> {
    return this.#requests.close({ kind: 'close', id: this.#requests.nextId() })
  }
}

/**
 * SQLite's adapter, but with many connections: Kysely's own holds every query behind one
 * lock (one connection per file), which would put the readers back in a single line.
 */
class ReaderPoolAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true
  }
}

/** Lends reader threads to Kysely: a free one, or the next one freed, first come first served. */
class ReaderPoolDriver implements Driver {
  readonly #all: ReaderConnection[]
  readonly #free: ReaderConnection[]
  readonly #waiting: ((connection: ReaderConnection) => void)[] = []

  constructor(path: string, readers: number) {
    this.#all = Array.from({ length: readers }, () => new ReaderConnection(path))
    this.#free = [...this.#all]
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const free = this.#free.pop()
    if (free !== undefined) return free
    return new Promise((resolve) => this.#waiting.push(resolve))
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery({ sql: 'begin', parameters: [] } as unknown as CompiledQuery)
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery({ sql: 'commit', parameters: [] } as unknown as CompiledQuery)
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery({ sql: 'rollback', parameters: [] } as unknown as CompiledQuery)
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const next = this.#waiting.shift()
    if (next !== undefined) next(connection as ReaderConnection)
    else this.#free.push(connection as ReaderConnection)
  }

  async destroy(): Promise<void> {
    await Promise.all(this.#all.map((c) => c.close()))
  }
}

/**
 * A Kysely handle whose queries run on `readers` reader threads, each with its own
 * read-only connection to the SQLite file at `path` (created and migrated already). For
 * reads only: a write fails on a read-only connection. Threads start with their first
 * query and do not keep the process alive while idle.
 *
 * @example
 * const reads = openReaderPool('/data/heliograph.sqlite')
 * await reads.selectFrom('wallets').selectAll().execute() // on a reader thread
 * await reads.destroy()
 */
export function openReaderPool(path: string, readers = defaultReaderCount()): Kysely<Database> {
  const dialect: Dialect = {
    createAdapter: () => new ReaderPoolAdapter(),
    createDriver: () => new ReaderPoolDriver(path, readers),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  }
  return new Kysely<Database>({ dialect })
}
