import { statfsSync } from 'node:fs'
import { utcTimeText } from '@shared/domain/health-text'
import { AppError } from '@shared/ipc/ipc-errors'

// An export made for a browser waits in the data folder until it is downloaded (or expires
// a quarter of an hour after it is written). On a team server anyone may ask for one, a viewer too,
// so what waits is bounded: per account, how many exports and how many bytes (counted from
// the moment one starts, as it is written), and for everyone, the disk's free space stays
// above a floor the mirror needs. A download or an expiry frees its place.

/** How long a finished export waits for its download before its file is removed. */
export const PENDING_DOWNLOAD_TTL_MS = 15 * 60_000
const TTL_TEXT = `${PENDING_DOWNLOAD_TTL_MS / 60_000} minutes`

/** How much may wait for download. */
export interface PendingExportLimits {
  /** Exports an account may have running or waiting for their download. */
  perAccount: number
  /** Bytes an account's exports may hold on the server while they wait. */
  bytesPerAccount: number
  /** Free space the disk keeps: no export starts, or goes on writing, below it. */
  freeDiskFloorBytes: number
}

const GB = 1024 ** 3

/** Three exports and 1 GB per account (a year of a busy desk's full layout), 1 GB left free. */
export const DEFAULT_PENDING_EXPORT_LIMITS: PendingExportLimits = {
  perAccount: 3,
  bytesPerAccount: GB,
  freeDiskFloorBytes: GB,
}

/** The disk is looked at again after each this many bytes an export writes. */
const DISK_CHECK_EVERY_BYTES = 16 * 1024 ** 2

/** An export that may not start or go on: says why, and when a place frees. */
export class ExportLimitError extends AppError {
  override name = 'ExportLimitError'
}

/** One export's place in its account's allowance. */
interface Hold {
  bytes: number
  /** When it expires once written and waiting; null while it is being written. */
  expiresAtMs: number | null
}

/** A place taken by one export: its bytes counted as written, freed once it is done with. */
export interface ExportPlace {
  /** Counts bytes written; throws an ExportLimitError once a limit would be passed. */
  addBytes(bytes: number): void
  /** The export is written and waits for its download until `expiresAtMs`. */
  waitUntil(expiresAtMs: number): void
  /** Frees the place (downloaded, expired, failed or cancelled). Idempotent. */
  free(): void
}

/** "2.0 GB", "512 MB", "64 KB": sizes as a person reads them. */
function sizeText(bytes: number): string {
  if (bytes >= GB) return `${(bytes / GB).toFixed(1)} GB`
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MB`
  return `${Math.round(bytes / 1024)} KB`
}

/**
 * Bounds what waits for download: per account (a team member; the person at this machine
 * is no account and has only the disk's floor), and the disk's free space for everyone.
 */
export class PendingExportAllowance {
  readonly #limits: PendingExportLimits
  readonly #folder: string
  readonly #nowMs: () => number
  readonly #holds = new Map<string, Set<Hold>>()

  /** `folder`: where pending exports are written (its disk's free space is checked). */
  constructor(folder: string, nowMs: () => number, limits: Partial<PendingExportLimits> = {}) {
    this.#limits = { ...DEFAULT_PENDING_EXPORT_LIMITS, ...limits }
    this.#folder = folder
    this.#nowMs = nowMs
  }

  /**
   * Takes a place for one export of `account` (null: the person at this machine), or
   * throws an ExportLimitError saying why not and when a place frees.
   */
  take(account: string | null): ExportPlace {
    this.#checkDisk('was not started')
    const holds = account === null ? null : (this.#holds.get(account) ?? new Set<Hold>())
    if (holds !== null) this.#checkAccount(holds)
    const hold: Hold = { bytes: 0, expiresAtMs: null }
    if (holds !== null && account !== null) {
      holds.add(hold)
      this.#holds.set(account, holds)
    }
    let sinceDiskCheck = 0
    return {
      addBytes: (bytes) => {
        hold.bytes += bytes
        sinceDiskCheck += bytes
        if (holds !== null) {
          const total = [...holds].reduce((sum, h) => sum + h.bytes, 0)
          if (total > this.#limits.bytesPerAccount)
            throw new ExportLimitError(
              `This export would take your exports waiting for download past the ${sizeText(this.#limits.bytesPerAccount)} an account may keep on the server, so it was stopped and its file removed. ${this.#whenFrees(holds, hold)} Or narrow this export (fewer wallets, a shorter range).`,
              { limit: 'bytes' },
            )
        }
        if (sinceDiskCheck >= DISK_CHECK_EVERY_BYTES) {
          sinceDiskCheck = 0
          this.#checkDisk('was stopped and its file removed')
        }
      },
      waitUntil: (expiresAtMs) => {
        hold.expiresAtMs = expiresAtMs
      },
      free: () => {
        holds?.delete(hold)
        if (account !== null && holds?.size === 0) this.#holds.delete(account)
      },
    }
  }

  /** Refuses a further export of an account at its count or bytes. */
  #checkAccount(holds: Set<Hold>): void {
    const { perAccount, bytesPerAccount } = this.#limits
    const bytes = [...holds].reduce((sum, h) => sum + h.bytes, 0)
    if (holds.size >= perAccount) {
      const writing = [...holds].filter((h) => h.expiresAtMs === null).length
      throw new ExportLimitError(
        `You have ${holds.size} exports waiting for their download${writing > 0 ? ` (${writing} still being written)` : ''}, the most an account may have on the server. ${this.#whenFrees(holds)}`,
        { limit: 'count', freesAt: this.#oldestExpiry(holds) },
      )
    }
    if (bytes >= bytesPerAccount)
      throw new ExportLimitError(
        `Your exports waiting for their download hold ${sizeText(bytes)}, the most an account may keep on the server (${sizeText(bytesPerAccount)}). ${this.#whenFrees(holds)}`,
        { limit: 'bytes', freesAt: this.#oldestExpiry(holds) },
      )
  }

  /** Refuses when the disk's free space is under the floor. */
  #checkDisk(outcome: string): void {
    const stats = statfsSync(this.#folder)
    const free = stats.bavail * stats.bsize
    if (free < this.#limits.freeDiskFloorBytes)
      throw new ExportLimitError(
        `The server's disk has ${sizeText(free)} free, under the ${sizeText(this.#limits.freeDiskFloorBytes)} kept free for the mirror, so the export ${outcome}. Space frees as waiting exports are downloaded or expire (${TTL_TEXT} after each is written), or when the disk is cleared.`,
        { limit: 'disk' },
      )
  }

  #oldestExpiry(holds: Set<Hold>): string | null {
    const times = [...holds].flatMap((h) => (h.expiresAtMs === null ? [] : [h.expiresAtMs]))
    return times.length === 0 ? null : new Date(Math.min(...times)).toISOString()
  }

  /** When a place frees: at a download, or at the oldest one's expiry. */
  #whenFrees(holds: Set<Hold>, except?: Hold): string {
    const others = new Set([...holds].filter((h) => h !== except))
    const oldest = this.#oldestExpiry(others)
    if (oldest === null)
      return `Downloading one frees its place; one not downloaded expires ${TTL_TEXT} after it is written.`
    const atMs = Date.parse(oldest)
    const minutes = Math.max(1, Math.ceil((atMs - this.#nowMs()) / 60_000))
    return `Downloading one frees its place; otherwise the oldest expires at ${utcTimeText(Math.floor(atMs / 1000), Math.floor(this.#nowMs() / 1000))} (in ${minutes} minute${minutes === 1 ? '' : 's'}).`
  }
}
