import { parentPort, workerData } from 'node:worker_threads'
import { Kysely, SqliteDialect } from 'kysely'
import { AppError, type ErrorPayload } from '@shared/ipc/ipc-errors'
import type { Database } from '../schema'
import { describeStorageError } from '../storage-errors'
import { CreditLedgerStore, type LedgerEntry } from '../stores/credit-ledger-store'
import { openWriterConnection } from './database'
import { SqliteMirrorWriter } from './mirror-writer'
import type { WriterReply, WriterRequest } from './worker-mirror-writer'

// The mirror writer's thread: its own connection to the mirror (WAL, so the main thread's
// connection keeps reading), and the same SqliteMirrorWriter, one request at a time in
// the order they were sent. Every page is still one transaction with its cursor.

const port = parentPort
if (port === null) throw new Error('mirror-writer-worker runs only as a worker thread.')
const { path } = workerData as { path: string }
/** WAL pages (4 KiB) after which a commit copies the WAL back into the database file. */
const WAL_CHECKPOINT_PAGES = 10_000
let sqlite: ReturnType<typeof openWriterConnection> | null = null
let writer: SqliteMirrorWriter | null = null
let ledger: CreditLedgerStore | null = null

port.on('message', (request: WriterRequest) => {
  if (request.method === 'close') {
    sqlite?.close()
    port.postMessage({ id: request.id, value: undefined } satisfies WriterReply)
    port.close()
    return
  }
  try {
    // Opened on first use, so an open failure reaches the caller as that call's error.
    if (writer === null || ledger === null) {
      sqlite = openWriterConnection(path)
      // This thread checkpoints the WAL (the main connection does not: see SqliteMirror),
      // every ~40 MB rather than 4: hot index pages are copied back once per span, not
      // once per few pages, and the file is synced ten times less often.
      sqlite.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`)
      writer = new SqliteMirrorWriter(sqlite)
      ledger = new CreditLedgerStore(
        new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }),
      )
    }
    const { method, args } = request
    // The writer's bodies are synchronous (better-sqlite3) and the ledger's insert settles
    // in microtasks, so each request is done before the next message is read: order kept.
    const run =
      method === 'recordLedgerEntry'
        ? ledger.record(args[0] as LedgerEntry)
        : (writer[method] as (...a: unknown[]) => Promise<unknown>).apply(writer, args)
    run.then(
      (value) => port.postMessage({ id: request.id, value } satisfies WriterReply),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          error: payloadOf(error, request.method),
        } satisfies WriterReply),
    )
  } catch (error) {
    port.postMessage({
      id: request.id,
      error: payloadOf(error, request.method),
    } satisfies WriterReply)
  }
})

/**
 * An error as plain data: a StorageError keeps its class name and details (the code); a
 * bare SQLite error (a read outside a page transaction) is described the same way.
 */
function payloadOf(thrown: unknown, method: string): ErrorPayload {
  if (!(thrown instanceof Error)) return { name: 'Error', message: String(thrown) }
  const isBareSqlite =
    !(thrown instanceof AppError) && typeof (thrown as { code?: unknown }).code === 'string'
  const error = isBareSqlite
    ? describeStorageError(thrown, DOING[method] ?? 'write to the mirror')
    : thrown
  const details = (error as { details?: unknown }).details
  return {
    name: error.name,
    message: error.message,
    ...(details === undefined ? {} : { details }),
  }
}

/** What a request was doing, for the reads and row set-ups that raise bare SQLite errors. */
const DOING: Record<string, string> = {
  walletId: 'read the watch list',
  stream: 'read the sync state',
  recordLedgerEntry: 'record a call in the credit ledger',
}
