import BetterSqlite3 from 'better-sqlite3'
import { StorageError } from '@shared/ipc/ipc-errors'
import { describeStorageError } from '../storage-errors'

// How the parts of one SQLite export, each on a thread of its own with its own connection,
// come to read the same snapshot: the first part takes the write lock on a connection of
// its own, every part then begins its read, and the first part lets writers go on once
// all have begun. No commit can fall between the parts' snapshots. The parts meet through
// shared memory, not messages, so the lock never waits on the thread that started them
// (which may itself be waiting on the lock to write), and waits never block a thread.

/** Shared between the parts (plain data: it crosses to their threads). */
export interface SnapshotGate {
  /** [state, parts begun or given up]: state 0 waiting, 1 locked, -1 the lock was not had. */
  cells: SharedArrayBuffer
  parts: number
}

const STATE = 0
const BEGUN = 1
/** Longest a part waits for the lock, and the lock for the parts: writers wait meanwhile. */
const WAIT_MS = 10_000

/** A gate for `parts` parts. */
export function newSnapshotGate(parts: number): SnapshotGate {
  return { cells: new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT), parts }
}

/**
 * The first part's side: takes the write lock (waiting, as any writer does, for a page
 * being written), opens the gate, and returns the release to await once its own read has
 * begun: it waits for every other part to begin, then lets writers go on.
 */
export function holdWrites(
  path: string,
  gate: SnapshotGate,
  busyTimeoutMs: number,
): () => Promise<void> {
  const cells = new Int32Array(gate.cells)
  let lock: BetterSqlite3.Database | null = null
  try {
    lock = new BetterSqlite3(path, { fileMustExist: true, timeout: busyTimeoutMs })
    lock.exec('begin immediate')
  } catch (error) {
    lock?.close()
    Atomics.store(cells, STATE, -1)
    Atomics.notify(cells, STATE)
    throw describeStorageError(error, 'hold writes while the export begins')
  }
  Atomics.store(cells, STATE, 1)
  Atomics.notify(cells, STATE)
  const held = lock
  return async () => {
    markBegun(gate)
    try {
      await waitWhile(cells, BEGUN, (begun) => begun < gate.parts)
    } finally {
      held.exec('rollback')
      held.close()
    }
  }
}

/** A later part's side: waits until the first part holds the lock. */
export async function writesHeld(gate: SnapshotGate): Promise<void> {
  const cells = new Int32Array(gate.cells)
  await waitWhile(cells, STATE, (state) => state === 0)
  if (Atomics.load(cells, STATE) !== 1) {
    markBegun(gate)
    throw new StorageError(
      'Could not begin the export: another part could not hold writes while it began.',
    )
  }
}

/** A part has begun its read (or given up): the first part waits for every one. */
export function markBegun(gate: SnapshotGate): void {
  const cells = new Int32Array(gate.cells)
  Atomics.add(cells, BEGUN, 1)
  Atomics.notify(cells, BEGUN)
}

/**
 * Waits, without blocking the thread (the parts may share one), while the cell's value
 * holds `isWaiting`, or at most {@link WAIT_MS}.
 */
async function waitWhile(
  cells: Int32Array,
  index: number,
  isWaiting: (value: number) => boolean,
): Promise<void> {
  const until = Date.now() + WAIT_MS
  for (;;) {
    const value = Atomics.load(cells, index)
    if (!isWaiting(value) || Date.now() >= until) return
    const wait = Atomics.waitAsync(cells, index, value, until - Date.now())
    if (wait.async) await wait.value
  }
}
