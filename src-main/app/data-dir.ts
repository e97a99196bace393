import { accessSync, constants, existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { callerRole } from '../sync/spender'

/** Folder name under the OS's per-user app-data folder; Electron derives the same from productName. */
const APP_DIR_NAME = 'Heliograph'

/** File name of the person's own SQLite mirror inside the data folder. */
const DATABASE_FILE = 'heliograph.sqlite'

/** File name of the demo mirror: demo data never shares a file with the person's own. */
const DEMO_DATABASE_FILE = 'heliograph-demo.sqlite'

/** File name of the lock that the one writing process holds (see db/writer-lock.ts). */
const WRITER_LOCK_FILE = 'heliograph.lock'

/**
 * The per-user data folder, matching Electron's `app.getPath('userData')` so the desktop
 * app, the web shell and the CLI share one mirror.
 *
 * @example
 * defaultDataDir() // '/home/ana/.config/Heliograph' on Linux
 */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32')
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_DIR_NAME)
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_DIR_NAME)
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), APP_DIR_NAME)
}

/** Path of the person's own mirror inside a data folder (it also keeps the settings). */
export function databasePath(dataDir: string): string {
  return join(dataDir, DATABASE_FILE)
}

/** Path of the demo mirror inside a data folder. */
export function demoDatabasePath(dataDir: string): string {
  return join(dataDir, DEMO_DATABASE_FILE)
}

/** Path of the writer lock inside a data folder: both mirrors have one writer, together. */
export function writerLockPath(dataDir: string): string {
  return join(dataDir, WRITER_LOCK_FILE)
}

/**
 * Whether a folder holds Heliograph data (the person's own mirror, which every writing
 * run creates). Reading commands need it; a mistyped folder must not become an empty one.
 */
export function holdsMirror(dataDir: string): boolean {
  return existsSync(databasePath(dataDir))
}

/**
 * Why this process cannot use `dataDir` although it exists (another user's folder: the
 * 0700 mode keeps everyone else out), in one line saying what to do; null when it can.
 */
export function folderAccessProblem(dataDir: string): string | null {
  if (!existsSync(dataDir)) return null
  try {
    accessSync(dataDir, constants.R_OK | constants.W_OK | constants.X_OK)
    return null
  } catch {
    return `The data folder ${dataDir} is not yours to use (permission denied): Heliograph keeps each person's data private; run the command as the folder's owner, or give --data-dir a folder of your own.`
  }
}

/**
 * The data folder as an answer shows it: to the person at this machine and to a team
 * server's admins; other team accounts get null (where a server keeps its data is an
 * admin's matter, and a path tells about the machine).
 */
export function shownDataDir(dataDir: string): string | null {
  const role = callerRole()
  return role === null || role === 'admin' ? dataDir : null
}
