import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { systemClock, type Cancel, type Clock } from '@shared/clock'
import { makePrivateDir } from '../db/private-files'
import {
  PENDING_DOWNLOAD_TTL_MS,
  PendingExportAllowance,
  type ExportPlace,
  type PendingExportLimits,
} from './pending-export-limits'

/** Folder (inside the data folder) where web-shell exports wait for their one download. */
export const DOWNLOADS_FOLDER = 'exports-pending'

/** A finished export waiting to be fetched once by the web shell's browser. */
export interface PendingDownload {
  path: string
  fileName: string
}

/** How long a save-dialog choice stays valid for `export:run`. */
const GRANT_TTL_MS = 10 * 60_000

function newId(): string {
  return randomBytes(18).toString('base64url')
}

/**
 * The hand-offs between the core's export handlers and the shells: one-time downloads
 * (web shell) and paths the person picked in a save dialog (desktop). The renderer never
 * names a path itself, so it cannot make the core write anywhere it was not allowed to.
 */
export class ExportHandoffs {
  readonly #downloads = new Map<
    string,
    PendingDownload & { cancelTimer: Cancel; place: ExportPlace }
  >()
  readonly #grants = new Map<string, { path: string; expiresAtMs: number }>()
  readonly #downloadsDir: string
  readonly #clock: Clock
  readonly #allowance: PendingExportAllowance

  /**
   * `dataDir`: the data folder; pending downloads wait in its {@link DOWNLOADS_FOLDER},
   * bounded per account and by the disk's free space (`limits`, by default
   * DEFAULT_PENDING_EXPORT_LIMITS); they expire on `clock`.
   */
  constructor(
    dataDir: string,
    options: { clock?: Clock; limits?: Partial<PendingExportLimits> } = {},
  ) {
    this.#downloadsDir = join(dataDir, DOWNLOADS_FOLDER)
    this.#clock = options.clock ?? systemClock
    // The data folder exists (the mirror is in it); the downloads folder may not yet.
    this.#allowance = new PendingExportAllowance(dataDir, () => this.#clock.nowMs(), options.limits)
  }

  /**
   * Removes the downloads an earlier run left behind: their ids died with it, so nobody
   * can fetch them. Only the process holding the data folder's writer lock calls this, at
   * its start, before it has offered any download: no file in the folder is in use then.
   */
  async removeLeftovers(): Promise<void> {
    await rm(this.#downloadsDir, { recursive: true, force: true })
  }

  /**
   * A fresh file name for an export that will wait for its download, and its place in the
   * allowance of `account` (a team member; null for the person at this machine): the run
   * counts its bytes there, hands the place to {@link offerDownload} when written, and frees
   * it if it fails. Throws an ExportLimitError when no place is free, saying when one frees.
   */
  async startDownload(account: string | null): Promise<{ path: string; place: ExportPlace }> {
    const place = this.#allowance.take(account)
    makePrivateDir(this.#downloadsDir)
    return { path: join(this.#downloadsDir, `${newId()}.csv`), place }
  }

  /** Registers a finished export file for one download, keeping its place; returns its id. */
  offerDownload(download: PendingDownload, place: ExportPlace): string {
    const id = newId()
    const cancelTimer = this.#clock.setTimeout(
      () => void this.discardDownload(id),
      PENDING_DOWNLOAD_TTL_MS,
      {
        keepsAlive: false,
      },
    )
    place.waitUntil(this.#clock.nowMs() + PENDING_DOWNLOAD_TTL_MS)
    this.#downloads.set(id, { ...download, cancelTimer, place })
    return id
  }

  /** Takes a pending download (at most once), freeing its place; the caller removes the file when sent. */
  takeDownload(id: string): PendingDownload | null {
    const entry = this.#downloads.get(id)
    if (entry === undefined) return null
    this.#downloads.delete(id)
    entry.cancelTimer()
    entry.place.free()
    return { path: entry.path, fileName: entry.fileName }
  }

  /** Forgets a download and removes its file. */
  async discardDownload(id: string): Promise<void> {
    const entry = this.takeDownload(id)
    if (entry) await rm(entry.path, { force: true })
  }

  /** Records a path chosen in a save dialog; returns the grant that `export:run` spends. */
  grantPath(path: string, nowMs = Date.now()): string {
    const id = newId()
    this.#grants.set(id, { path, expiresAtMs: nowMs + GRANT_TTL_MS })
    return id
  }

  /** Spends a grant: its path, or null when unknown, used or expired. */
  takeGrant(id: string, nowMs = Date.now()): string | null {
    const grant = this.#grants.get(id)
    this.#grants.delete(id)
    return grant !== undefined && grant.expiresAtMs >= nowMs ? grant.path : null
  }

  /**
   * Removes every pending download and its file, and forgets every grant. Files still in
   * use stay: an export being written offers its download when done, and one being sent
   * is removed once sent.
   */
  async clear(): Promise<void> {
    await Promise.all([...this.#downloads.keys()].map((id) => this.discardDownload(id)))
    this.#grants.clear()
  }
}
