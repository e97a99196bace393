import { parentPort, workerData } from 'node:worker_threads'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { Database } from '../schema'
import { FeedStore } from '../stores/feed-store'
import { ReviewReader } from '../stores/review-reader'
import { SearchStore } from '../stores/search-store'
import type { ReaderReply, ReaderRequest, ThreadedStores } from './reader-threads'
import { cachingStatements } from './statement-cache'
import { workerErrorPayload } from './worker-requests'

// One of the mirror's reader threads: a read-only connection of its own (WAL, so it reads
// beside the writer's thread and the other readers) and the stores the views read through,
// each read answered with its value, one at a time in the order asked.

const port = parentPort
if (port === null) throw new Error('mirror-reader-worker runs only as a worker thread.')
const { path } = workerData as { path: string }

let opened: { db: Kysely<Database>; stores: ThreadedStores } | null = null

/** Opened on first use, so an open failure reaches the caller as that read's error. */
function open(): ThreadedStores {
  if (opened !== null) return opened.stores
  const sqlite = new BetterSqlite3(path, { readonly: true, fileMustExist: true, timeout: 5_000 })
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: cachingStatements(sqlite) }),
  })
  opened = {
    db,
    stores: { review: new ReviewReader(db), feed: new FeedStore(db), search: new SearchStore(db) },
  }
  return opened.stores
}

port.on('message', (request: ReaderRequest) => {
  void answer(request).then((reply) => port.postMessage(reply))
})

async function answer(request: ReaderRequest): Promise<ReaderReply> {
  if (request.store === null) {
    await opened?.db.destroy()
    opened = null
    return { id: request.id, value: null }
  }
  try {
    const store = open()[request.store] as unknown as Record<
      string,
      (...args: unknown[]) => unknown
    >
    const method = store[request.method]
    if (typeof method !== 'function') throw new Error(`No read ${request.store}.${request.method}.`)
    return { id: request.id, value: await method.apply(store, request.args) }
  } catch (error) {
    return { id: request.id, error: workerErrorPayload(error, 'read the mirror') }
  }
}
