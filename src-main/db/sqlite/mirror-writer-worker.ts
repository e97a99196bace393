import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads'
import type BetterSqlite3 from 'better-sqlite3'
import { type ErrorPayload } from '@shared/ipc/ipc-errors'
import { workerErrorPayload } from './worker-requests'
import type { MirrorWriter } from '../mirror-writer'
import { ledgerRow, type LedgerEntry } from '../stores/credit-ledger-store'
import { openWriterConnection } from './database'
import { SqliteMirrorWriter } from './mirror-writer'
import { refreshPlannerStatistics } from './planner-statistics'
import type { WriterReply, WriterRequest } from './worker-mirror-writer'

// The mirror writer's thread: its own connection to the mirror (WAL, so the main thread's
// connection keeps reading), and the same SqliteMirrorWriter, one request at a time in
// the order they were sent. Every page is still one transaction with its cursor.
//
// Requests that queued up while the thread was busy (a page, the ledger rows of the calls
// that fetched the next one) are written in one transaction, each in a savepoint of its
// own: one commit, one WAL append of the index pages they share, instead of one each. A
// request that fails rolls back to its savepoint alone; every reply waits for the commit.

const port = parentPort
if (port === null) throw new Error('mirror-writer-worker runs only as a worker thread.')
const { path } = workerData as { path: string }
/** WAL pages (4 KiB) after which a commit copies the WAL back into the database file. */
const WAL_CHECKPOINT_PAGES = 10_000
/** Requests written in one transaction at most: a commit still comes every few pages. */
const MAX_GROUP = 16
/**
 * How often the planner's statistics are looked at while pages are written (and at the
 * first write): SQLite gets statistics where they are missing, from a sample of each
 * index, and again for a table that has grown many times over, so a session that grows
 * the mirror plans for what it holds now. Without them SQLite chose a type's whole index
 * over a wallet's own order. Only a writing session does this: opening a mirror to read
 * it leaves its file as it was.
 */
const OPTIMIZE_EVERY_MS = 60_000
let optimizedAtMs: number | null = null
/** The requests that add rows to the mirror's tables. */
const ROW_WRITES = new Set<string>([
  'applyHistoryPage',
  'applyTransfersPage',
  'applyBalancesSnapshot',
  'applyCompressedSignaturesPage',
  'applySnapshotNfts',
  'applyCompressedSnapshot',
] satisfies (keyof MirrorWriter)[])

interface Connection {
  sqlite: BetterSqlite3.Database
  writer: SqliteMirrorWriter
  insertLedgerRow: BetterSqlite3.Statement
}
let connection: Connection | null = null
/** The last group's replies: a close is answered only after them. */
let replied: Promise<void> = Promise.resolve()

/** Opened on first use, so an open failure reaches the caller as that request's error. */
function connect(): Connection {
  if (connection !== null) return connection
  const sqlite = openWriterConnection(path)
  // This thread checkpoints the WAL (the main connection does not: see SqliteMirror),
  // every ~40 MB rather than 4: hot index pages are copied back once per span, not
  // once per few pages, and the file is synced ten times less often.
  sqlite.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`)
  connection = {
    sqlite,
    writer: new SqliteMirrorWriter(sqlite),
    insertLedgerRow: sqlite.prepare(`
      insert into credit_ledger (at_ms, operation, endpoint_class, wallet_address, stream, credits, status, error_name, duration_ms, http_status)
      values (@at_ms, @operation, @endpoint_class, @wallet_address, @stream, @credits, @status, @error_name, @duration_ms, @http_status)`),
  }
  return connection
}

port.on('message', (first: WriterRequest) => {
  const queued: WriterRequest[] = [first]
  for (;;) {
    const next = receiveMessageOnPort(port)
    if (next === undefined) break
    queued.push(next.message as WriterRequest)
  }
  // In order; a close ends the thread after what came before it.
  while (queued.length > 0) {
    const closeAt = queued.findIndex((r) => r.method === 'close')
    const upTo = closeAt === -1 ? queued.length : closeAt
    const group = queued.splice(0, Math.min(upTo, MAX_GROUP))
    if (group.length > 0) {
      replied = runGroup(group)
      continue
    }
    const close = queued.shift() as WriterRequest
    void replied.then(() => {
      connection?.sqlite.close()
      port.postMessage({ id: close.id, value: undefined } satisfies WriterReply)
      port.close()
    })
    return
  }
})

/**
 * Runs `group` in one transaction (a single request as it always ran). The writer's
 * bodies are synchronous (better-sqlite3), so each request's work is done, in order, when
 * its call returns; its own transaction becomes a savepoint inside the group's.
 */
async function runGroup(group: readonly WriterRequest[]): Promise<void> {
  const results: Promise<unknown>[] = []
  try {
    const { sqlite } = connect()
    const runAll = (): void => {
      for (const request of group) results.push(run(request))
    }
    if (group.length === 1) runAll()
    else sqlite.transaction(runAll).immediate()
  } catch (error) {
    // The connection could not open, or the group's commit failed: every request failed.
    for (const result of results) result.catch(() => undefined)
    for (const request of group) reply(request, { error: payloadOf(error, request.method) })
    return
  }
  const hasWrittenRows = group.some((r) => ROW_WRITES.has(r.method))
  if (
    hasWrittenRows &&
    (optimizedAtMs === null || Date.now() - optimizedAtMs >= OPTIMIZE_EVERY_MS)
  ) {
    const isFirst = optimizedAtMs === null
    optimizedAtMs = Date.now()
    try {
      if (connection !== null) refreshPlannerStatistics(connection.sqlite, { isFirst })
    } catch {
      // Statistics are a hint to the planner; a failed refresh is tried again later.
    }
  }
  const settled = await Promise.allSettled(results)
  for (const [i, request] of group.entries()) {
    const outcome = settled[i] as PromiseSettledResult<unknown>
    reply(
      request,
      outcome.status === 'fulfilled'
        ? { value: outcome.value }
        : { error: payloadOf(outcome.reason, request.method) },
    )
  }
}

/** One request's call; a failure becomes its rejected promise, not the group's. */
function run(request: WriterRequest): Promise<unknown> {
  if (request.method === 'close') return Promise.resolve(undefined)
  const { writer, insertLedgerRow } = connect()
  try {
    if (request.method === 'recordLedgerEntry') {
      insertLedgerRow.run(ledgerRow(request.args[0] as LedgerEntry))
      return Promise.resolve(undefined)
    }
    const method = writer[request.method] as (...a: unknown[]) => Promise<unknown>
    return method.apply(writer, request.args)
  } catch (error) {
    return Promise.reject(error as Error)
  }
}

function reply(request: WriterRequest, outcome: { value: unknown } | { error: ErrorPayload }) {
  port?.postMessage({ id: request.id, ...outcome } as WriterReply)
}

/** An error as plain data (see workerErrorPayload), saying what the request was doing. */
function payloadOf(thrown: unknown, method: string): ErrorPayload {
  return workerErrorPayload(thrown, DOING[method] ?? 'write to the mirror')
}

/** What a request was doing, for the reads and row set-ups that raise bare SQLite errors. */
const DOING: Record<string, string> = {
  walletId: 'read the watch list',
  stream: 'read the sync state',
  recordLedgerEntry: 'record a call in the credit ledger',
}
