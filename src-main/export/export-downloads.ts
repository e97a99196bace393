import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { makePrivateDir } from '../db/private-files'

/** Folder (inside the data folder) where web-shell exports wait for their one download. */
export const DOWNLOADS_FOLDER = 'exports-pending'

/** A finished export waiting to be fetched once by the web shell's browser. */
export interface PendingDownload {
  path: string
  fileName: string
}

/** How long a finished export waits for its download before its file is removed. */
const DOWNLOAD_TTL_MS = 15 * 60_000

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
  readonly #downloads = new Map<string, PendingDownload & { timer: NodeJS.Timeout }>()
  readonly #grants = new Map<string, { path: string; expiresAtMs: number }>()
  readonly #downloadsDir: string

  /** `dataDir`: the data folder; pending downloads wait in its {@link DOWNLOADS_FOLDER}. */
  constructor(dataDir: string) {
    this.#downloadsDir = join(dataDir, DOWNLOADS_FOLDER)
  }

  /**
   * Removes the downloads an earlier run left behind: their ids died with it, so nobody
   * can fetch them. Only the process holding the data folder's writer lock calls this, at
   * its start, before it has offered any download: no file in the folder is in use then.
   */
  async removeLeftovers(): Promise<void> {
    await rm(this.#downloadsDir, { recursive: true, force: true })
  }

  /** A fresh file name for an export that will wait for its download. */
  async newDownloadPath(): Promise<string> {
    makePrivateDir(this.#downloadsDir)
    return join(this.#downloadsDir, `${newId()}.csv`)
  }

  /** Registers a finished export file for one download; returns its id. */
  offerDownload(download: PendingDownload): string {
    const id = newId()
    const timer = setTimeout(() => void this.discardDownload(id), DOWNLOAD_TTL_MS)
    timer.unref()
    this.#downloads.set(id, { ...download, timer })
    return id
  }

  /** Takes a pending download (at most once); the caller removes the file when sent. */
  takeDownload(id: string): PendingDownload | null {
    const entry = this.#downloads.get(id)
    if (entry === undefined) return null
    this.#downloads.delete(id)
    clearTimeout(entry.timer)
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
