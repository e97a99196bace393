import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { startLocalPostgres } from '../../../scripts/postgres/local-postgres'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres'
import { makeTempDir } from '../../helpers/temp-dir'

const CLI = resolve(import.meta.dirname, '../../../scripts/postgres/local-postgres-cli.ts')
const MODULE = resolve(import.meta.dirname, '../../../scripts/postgres/local-postgres.ts')

async function query<R extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<R>(text, values)).rows
  } finally {
    await client.end()
  }
}

/** The pid of the server running in `dataDir`, from its lock file. */
function serverPidIn(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[0])
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Starts a node child and resolves with the first stdout line matching `pattern`. */
async function startChild(
  args: string[],
  pattern: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const match = await new Promise<RegExpExecArray>((done, fail) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const found = pattern.exec(out)
      if (found) done(found)
    })
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('exit', (code) => fail(new Error(`child exited with ${code}: ${out}`)))
  })
  return { child, match, output: () => out }
}

describe('the run’s PostgreSQL server', () => {
  let database: TestDatabase
  beforeAll(async () => (database = await createTestDatabase()))
  afterAll(() => database.drop())

  it('sorts text by bytes in UTF-8, as SQLite does', async () => {
    const [settings] = await query<{ collate: string; encoding: string }>(
      database.url,
      `select datcollate as collate, pg_encoding_to_char(encoding) as encoding
       from pg_database where datname = current_database()`,
    )
    expect(settings).toEqual({ collate: 'C', encoding: 'UTF8' })
    const rows = await query<{ t: string }>(
      database.url,
      `select t from unnest(array['b', 'é', 'B', 'a', 'Z', 'z']) as t order by t`,
    )
    expect(rows.map((r) => r.t)).toEqual(['B', 'Z', 'a', 'b', 'z', 'é'])
  })

  it('gives each caller a fresh database and drops it', async () => {
    const other = await createTestDatabase()
    expect(other.url).not.toBe(database.url)
    await query(other.url, 'create table t (x integer)')
    await expect(query(database.url, 'select * from t')).rejects.toThrow(/does not exist/)
    await other.drop()
    const name = new URL(other.url).pathname.slice(1)
    const left = await query(
      inject('postgresServerUrl'),
      'select 1 from pg_database where datname = $1',
      [name],
    )
    expect(left).toEqual([])
  })

  it('says clearly when the port asked for is taken', async () => {
    const port = Number(new URL(inject('postgresServerUrl')).port)
    await expect(startLocalPostgres({ port })).rejects.toThrow(
      `PostgreSQL cannot listen on port ${port}: it is taken`,
    )
  })
})

describe('a server kept in a folder', () => {
  const folder = makeTempDir()
  // As root the server runs as the postgres account, which must pass through the folder.
  chmodSync(folder.dir, 0o711)
  afterAll(() => folder.remove())
  const dataDir = join(folder.dir, 'postgres')

  it('npm run postgres prints the heliograph database’s URL, and Ctrl-C stops it', async () => {
    const { child, match, output } = await startChild(
      [CLI, '--port', '0', '--data', dataDir],
      /^(postgres:\/\/\S+)$/m,
    )
    const url = match[1] as string
    expect(new URL(url).pathname).toBe('/heliograph')
    expect(new URL(url).hostname).toBe('127.0.0.1')
    await query(url, 'create table kept (note text)')
    await query(url, `insert into kept values ('before Ctrl-C')`)
    const serverPid = serverPidIn(dataDir)
    const exited = new Promise<number | null>((done) => child.on('exit', done))
    child.kill('SIGINT')
    expect(await exited).toBe(0)
    expect(output()).toContain('PostgreSQL stopped')
    expect(isAlive(serverPid)).toBe(false)
  })

  it('is stopped when the process that started it is killed', async () => {
    const { child, match } = await startChild(
      [CLI, '--port', '0', '--data', dataDir],
      /^(postgres:\/\/\S+)$/m,
    )
    const url = match[1] as string
    expect(await query(url, 'select note from kept')).toEqual([{ note: 'before Ctrl-C' }])
    const serverPid = serverPidIn(dataDir)
    child.kill('SIGKILL')
    await waitUntil(() => !isAlive(serverPid), 'the orphaned server stopped', 5_000)
  })

  it('starts again after the server itself was killed, keeping its data', async () => {
    let server = await startLocalPostgres({ dataDir })
    const serverPid = serverPidIn(dataDir)
    process.kill(serverPid, 'SIGKILL')
    await waitUntil(() => !isAlive(serverPid), 'the killed server is gone')
    expect(existsSync(join(dataDir, 'pgdata', 'postmaster.pid'))).toBe(true)
    await server.stop()

    server = await startLocalPostgres({ dataDir })
    const url = await server.createDatabase('heliograph', { isExistingOk: true })
    expect(await query(url, 'select note from kept')).toEqual([{ note: 'before Ctrl-C' }])
    await server.stop()
  })

  it('starts when its stale lock file names a pid another process now has', async () => {
    const lockFile = join(dataDir, 'pgdata', 'postmaster.pid')
    const other = spawn('sleep', ['30'], { stdio: 'ignore' })
    try {
      writeFileSync(lockFile, `${other.pid}\n${join(dataDir, 'pgdata')}\n0\n5432\n`)
      const server = await startLocalPostgres({ dataDir })
      try {
        const url = await server.createDatabase('heliograph', { isExistingOk: true })
        expect(await query(url, 'select note from kept')).toEqual([{ note: 'before Ctrl-C' }])
      } finally {
        await server.stop()
      }
      expect(isAlive(other.pid as number)).toBe(true)
    } finally {
      other.kill()
    }
  })

  it('refuses to start a second server in the folder of a running one', async () => {
    const server = await startLocalPostgres({ dataDir })
    try {
      await expect(startLocalPostgres({ dataDir })).rejects.toThrow(
        /A PostgreSQL server \(pid \d+\) already runs in .*pgdata, on port \d+/,
      )
    } finally {
      await server.stop()
    }
  })
})

describe('a server in a temporary folder', () => {
  it('is stopped and its folder removed when the process that started it is killed', async () => {
    const script = `
      const { startLocalPostgres } = await import(${JSON.stringify(MODULE)})
      const server = await startLocalPostgres()
      console.log('started in ' + server.dataDir)
      setInterval(() => {}, 1000)`
    const { child, match } = await startChild(
      ['--input-type=module', '-e', script],
      /^started in (\S+)$/m,
    )
    const dataDir = match[1] as string
    const serverPid = serverPidIn(dataDir)
    child.kill('SIGKILL')
    await waitUntil(
      () => !isAlive(serverPid) && !existsSync(dataDir),
      'server and folder gone',
      5_000,
    )
  })
})
