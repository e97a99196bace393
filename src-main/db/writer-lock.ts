import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { StorageError } from '@shared/ipc/ipc-errors'
import { describeStorageError } from './storage-errors'
import { makePrivateDir, makePrivateFile } from './private-files'

/** The process holding a writer lock, as a second process is told. */
export interface LockHolder {
  pid: number
  /** What it is, in words: "`heliograph sync`", "the Heliograph app". */
  name: string
  sinceMs: number
}

/** A data folder already has its writer; `holder` is null when it could not be read. */
export class DataFolderInUseError extends StorageError {
  override name = 'DataFolderInUseError'
  constructor(
    readonly folder: string,
    readonly holder: LockHolder | null,
  ) {
    const who = holder ? `${holder.name} (pid ${holder.pid})` : 'another Heliograph process'
    super(
      `The data folder ${folder} is in use by ${who}, which holds it: every other command runs through it, ` +
        'but a second app, web shell or watching sync cannot run beside it. Stop that one first.',
      { folder, holder },
    )
  }
}

/** A held writer lock; released by {@link WriterLock.release} or when the process ends. */
export interface WriterLock {
  release(): void
}

/**
 * Takes the one writer lock of the folder holding `lockPath`, or throws
 * {@link DataFolderInUseError} naming the process that holds it.
 *
 * The lock is SQLite's own RESERVED lock on a small file, held by a transaction left open
 * for the process's life: the operating system drops it when the process ends however it
 * ends (SIGKILL and power loss included), so a killed run never blocks the next one, on
 * every platform SQLite runs on. A lock file with a pid or an mtime (proper-lockfile) stays
 * behind after SIGKILL until it is judged stale. RESERVED still lets others read the file,
 * so a refused process can say who holds it.
 *
 * @example
 * const lock = acquireWriterLock('/data/heliograph.lock', '`heliograph sync`')
 * try { … } finally { lock.release() }
 */
export function acquireWriterLock(lockPath: string, holderName: string): WriterLock {
  const folder = dirname(lockPath)
  let sqlite: BetterSqlite3.Database | null = null
  try {
    makePrivateDir(folder)
    makePrivateFile(lockPath)
    // No busy wait: a held lock is an answer, not something to queue behind.
    const db = new BetterSqlite3(lockPath, { timeout: 0 })
    sqlite = db
    db.exec('begin immediate')
    db.exec(
      'create table if not exists holder (pid integer not null, name text not null, since_ms integer not null)',
    )
    db.exec('delete from holder')
    db.prepare('insert into holder values (?, ?, ?)').run(process.pid, holderName, Date.now())
    // The holder row is committed so that others can read it, then the lock is taken again
    // for good. A process that slips in between holds the lock, and this one is refused.
    db.exec('commit')
    db.exec('begin immediate')
    return {
      release() {
        if (!db.open) return
        db.exec('rollback')
        db.close()
      },
    }
  } catch (error) {
    const holder = sqlite && isBusy(error) ? readHolder(sqlite) : undefined
    sqlite?.close()
    if (holder !== undefined) throw new DataFolderInUseError(folder, holder)
    throw describeStorageError(error, `take the writer lock of ${folder}`)
  }
}

function isBusy(error: unknown): boolean {
  return String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY')
}

function readHolder(sqlite: BetterSqlite3.Database): LockHolder | null {
  try {
    // The holder may be committing its row this instant: wait a moment for it.
    sqlite.pragma('busy_timeout = 1000')
    const row = sqlite.prepare('select pid, name, since_ms from holder').get() as
      { pid: number; name: string; since_ms: number } | undefined
    return row ? { pid: row.pid, name: row.name, sinceMs: row.since_ms } : null
  } catch {
    return null
  }
}
