import { createHash, randomBytes } from 'node:crypto'
import { lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { makePrivateDir, PRIVATE_FILE_MODE } from '../db/private-files'

// Where the process that holds a data folder listens for the others, and the proof that a
// process asking is the folder's owner: a file in the folder (0600, in a 0700 folder) that
// names the socket and a token only a reader of that file knows. The socket itself is in
// the folder where its path fits (POSIX limits a socket's path to about 100 bytes), else in
// a private folder of this user's; on Windows it is a named pipe with a random name.

/** File name, in the data folder, of what the holder writes about itself. */
const HOLDER_FILE = 'heliograph.holder'

/** File name, in the data folder, of the holder's socket (POSIX). */
const SOCKET_FILE = 'heliograph.sock'

/** The longest socket path every POSIX system takes (macOS: 104 bytes with the final NUL). */
const MAX_SOCKET_PATH_BYTES = 100

/** What the holder writes about itself for the others. */
export const HolderAddress = z.object({
  pid: z.number().int(),
  /** What it is, in words: "`heliograph sync`", "the Heliograph app". */
  name: z.string(),
  socket: z.string(),
  token: z.string().min(32),
})
export type HolderAddress = z.infer<typeof HolderAddress>

/** Path of the holder file inside a data folder. */
export function holderFilePath(dataDir: string): string {
  return join(dataDir, HOLDER_FILE)
}

/**
 * Where a new holder of `dataDir` listens: in the folder when the path fits, else in this
 * user's private runtime folder under a name drawn from the folder's path; a named pipe
 * with a random name on Windows (pipes share one namespace: a guessable name could be taken
 * first by another user).
 */
export function newHolderSocketPath(
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return `\\\\.\\pipe\\heliograph-${randomBytes(16).toString('hex')}`
  const inFolder = join(dataDir, SOCKET_FILE)
  if (Buffer.byteLength(inFolder) <= MAX_SOCKET_PATH_BYTES) return inFolder
  const name = createHash('sha256').update(dataDir).digest('hex').slice(0, 24)
  return join(privateRuntimeDir(), `${name}.sock`)
}

/**
 * This user's folder for sockets whose folder path is too long: $XDG_RUNTIME_DIR (private
 * by definition), else `heliograph-<uid>` in the temporary folder, made 0700 and refused
 * when it belongs to someone else or others may enter it.
 */
function privateRuntimeDir(): string {
  const runtime = process.env.XDG_RUNTIME_DIR
  if (runtime) return runtime
  const dir = join(tmpdir(), `heliograph-${process.getuid?.() ?? 'user'}`)
  makePrivateDir(dir)
  const stat = lstatSync(dir)
  if (!stat.isDirectory() || stat.uid !== process.getuid?.() || (stat.mode & 0o077) !== 0)
    throw new Error(
      `${dir} is not a private folder of this user's: the holder cannot listen in it.`,
    )
  return dir
}

/** A new token for a holder: 256 random bits. */
export function newHolderToken(): string {
  return randomBytes(32).toString('base64url')
}

/**
 * Writes the holder file, 0600 from its first byte, replacing any left by a holder that was
 * killed (the caller holds the folder's writer lock, so no live holder owns it).
 */
export function writeHolderAddress(dataDir: string, address: HolderAddress): void {
  const path = holderFilePath(dataDir)
  const next = `${path}.${process.pid}.tmp`
  writeFileSync(next, JSON.stringify(address), { mode: PRIVATE_FILE_MODE })
  renameSync(next, path)
}

/** The holder file's content, or null when there is none (or it cannot be read as one). */
export function readHolderAddress(dataDir: string): HolderAddress | null {
  let text: string
  try {
    text = readFileSync(holderFilePath(dataDir), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  try {
    const parsed = HolderAddress.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** Removes the holder file and socket if they are still this holder's (its token). */
export function removeHolderAddress(dataDir: string, address: HolderAddress): void {
  try {
    if (readHolderAddress(dataDir)?.token !== address.token) return
    rmSync(holderFilePath(dataDir), { force: true })
  } catch {
    // A folder being deleted, or unreadable now: the next holder replaces what is left.
  }
  removeSocketFile(address.socket)
}

/** Removes a socket file left at `path` (POSIX; a pipe on Windows goes with its process). */
export function removeSocketFile(path: string): void {
  if (path.startsWith('\\\\.\\pipe\\')) return
  rmSync(path, { force: true })
}

/** A secret given for one run, as the holder compares it: its SHA-256, never the secret. */
export function secretDigest(secret: string | null | undefined): string | null {
  return secret ? createHash('sha256').update(secret).digest('hex') : null
}
