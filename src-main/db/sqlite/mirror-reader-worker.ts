import { parentPort, workerData } from 'node:worker_threads'
import BetterSqlite3 from 'better-sqlite3'
import type { ReaderReply, ReaderRequest } from './reader-pool'
import { cachingStatements } from './statement-cache'

// One of the mirror's reader threads: a read-only connection of its own (WAL, so it reads
// beside the writer's thread and the other readers), running the statements the main
// thread compiled, one at a time, each answered with its rows.

const port = parentPort
if (port === null) throw new Error('mirror-reader-worker runs only as a worker thread.')
const { path } = workerData as { path: string }

let connection: ReturnType<typeof cachingStatements> | null = null

/** Opened on first use, so an open failure reaches the caller as that statement's error. */
function connect(): ReturnType<typeof cachingStatements> {
  if (connection !== null) return connection
  const sqlite = new BetterSqlite3(path, { readonly: true, fileMustExist: true, timeout: 5_000 })
  connection = cachingStatements(sqlite)
  return connection
}

port.on('message', (request: ReaderRequest) => {
  if (request.kind === 'close') {
    connection?.close()
    connection = null
    port.postMessage({ id: request.id, rows: [] } satisfies ReaderReply)
    return
  }
  try {
    const statement = connect().prepare(request.sql)
    if (statement.reader) {
      port.postMessage({
        id: request.id,
        rows: statement.all(request.parameters),
      } satisfies ReaderReply)
      return
    }
    // Transaction control (begin, commit, rollback): a read-only connection runs nothing else.
    statement.run(request.parameters)
    port.postMessage({ id: request.id, rows: [] } satisfies ReaderReply)
  } catch (error) {
    const { name, message, code } = error as { name?: string; message?: string; code?: string }
    port.postMessage({
      id: request.id,
      error: { name: name ?? 'Error', message: message ?? String(error), code: code ?? null },
    } satisfies ReaderReply)
  }
})
