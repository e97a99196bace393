import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs'

// What Heliograph keeps (the wallets a person watches, what they hold, their exports) is
// theirs alone: folders 0700, files 0600. The mode is set again after creating, so it is
// exact whatever the process's umask. POSIX only: Windows ignores these bits, and its
// per-user AppData folder is private already.

/** Folder mode: only the owner can list or enter it. */
export const PRIVATE_DIR_MODE = 0o700

/** File mode: only the owner can read or write it. */
export const PRIVATE_FILE_MODE = 0o600

/**
 * Creates `dir` and any missing parents, 0700. A folder that already exists is left as it
 * is here (the data folder itself is tightened on open: see tightenDataDir).
 */
export function makePrivateDir(dir: string): void {
  if (mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE }) !== undefined)
    chmodSync(dir, PRIVATE_DIR_MODE)
}

/**
 * Creates `path` empty if it is missing, and makes it 0600 either way. An existing file is
 * never opened here: closing any descriptor of a file drops every POSIX lock this process
 * holds on it, including SQLite's (a writer lock or a live connection would be lost).
 */
export function makePrivateFile(path: string): void {
  if (!existsSync(path)) {
    try {
      closeSync(openSync(path, 'wx', PRIVATE_FILE_MODE))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
  chmodSync(path, PRIVATE_FILE_MODE)
}

/** Makes `path` 0600 if it exists. */
export function narrowToPrivate(path: string): void {
  if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE)
}

/**
 * Tightens an existing data folder to 0700 when it is looser, and says what it was. Only a
 * folder of this user's own, without the sticky bit (a shared folder such as /tmp keeps
 * its mode); POSIX only. Returns the old mode (e.g. 0o755), or null when nothing changed.
 *
 * @example
 * tightenDataDir('/home/ana/.config/Heliograph') // 0o755, and the folder is now 0700
 */
export function tightenDataDir(dir: string): number | null {
  if (process.platform === 'win32' || !existsSync(dir)) return null
  const stat = statSync(dir)
  const mode = stat.mode & 0o7777
  const isOwn = process.getuid === undefined || stat.uid === process.getuid()
  const isShared = (mode & 0o1000) !== 0
  if (!stat.isDirectory() || !isOwn || isShared || (mode & 0o077) === 0) return null
  chmodSync(dir, PRIVATE_DIR_MODE)
  return mode
}
