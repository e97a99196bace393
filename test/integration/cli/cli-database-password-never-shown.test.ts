import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli } from '../../helpers/cli-in-process'
import { createPasswordDatabase, type TestDatabase } from '../../helpers/postgres'
import { rawRequest } from '../../helpers/raw-http'
import { startTestTeamServer } from '../../helpers/team-server-fixture'
import { makeTempDir } from '../../helpers/temp-dir'

// The database URL's password never reaches what Heliograph shows: every command that
// takes --database, when all goes well and when the server is down, refuses the password,
// lacks the database or lacks TLS; the team server's pages and the contract's answers.
// (`server` and `serve` open the database through the same openCore as these commands.)

const PASSWORD = 's3cr3t-Pa55'
const WRONG = `${PASSWORD}-wrong`

/** Fails naming where when `text` holds the password (as typed or URL-encoded). */
function expectNoPassword(where: string, text: string): void {
  for (const secret of [PASSWORD, encodeURIComponent(PASSWORD)])
    expect(text.includes(secret), `${where} shows the password:\n${text}`).toBe(false)
}

describe('the database password never appears in output', () => {
  let database: TestDatabase
  let sim: RunningSimulator
  const temp = makeTempDir()
  beforeAll(async () => {
    database = await createPasswordDatabase(PASSWORD)
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
  })
  afterAll(async () => {
    await sim.close()
    await database.drop()
    temp.remove()
  })

  /** The test database's URL changed by `change`. */
  const urlWith = (change: (url: URL) => void): string => {
    const url = new URL(database.url)
    change(url)
    return url.toString()
  }

  /** Runs one command on `url`, against the simulator, and checks all it printed. */
  const runOn = async (url: string, ...command: string[]) => {
    const run = await runCli([
      ...['--data-dir', temp.dir, '--database', url, '--service', sim.url, '--api-key', 'demo'],
      ...command,
    ])
    expectNoPassword(
      `\`${command.join(' ')}\` on ${url.replace(/:[^:@/]*@/, ':…@')}`,
      run.stdout + run.stderr,
    )
    return run
  }

  const address = () => sim.chain.wallets[0]!.address

  /** Every command that opens the database, once each. */
  const commands = (): string[][] => [
    ['watch', 'add', address()],
    ['watch', 'list'],
    ['sync', '--once'],
    ['status'],
    ['credits'],
    ['show', address()],
    ['export', '--out', `${temp.dir}/out.csv`],
    ['user', 'add', 'ana', '--role', 'admin'],
    ['user', 'list'],
  ]

  it('when all goes well', async () => {
    for (const command of commands()) {
      const run = await runOn(database.url, ...command)
      expect(run.code, `${command.join(' ')}: ${run.stderr}`).toBe(0)
    }
  })

  const failures: [string, () => string, RegExp][] = [
    [
      'a wrong password',
      () => urlWith((u) => (u.password = WRONG)),
      /refused the user name or password/,
    ],
    [
      'a wrong password given as a query parameter',
      () => urlWith((u) => ((u.password = ''), (u.search = `?password=${WRONG}`))),
      /refused the user name or password/,
    ],
    [
      'a database that does not exist',
      () => urlWith((u) => (u.pathname = '/no_such_db')),
      /does not exist/,
    ],
    [
      'no server at the address',
      () => urlWith((u) => (u.port = '1')),
      /no PostgreSQL server answers/,
    ],
    [
      'TLS asked of a server without it',
      () => urlWith((u) => (u.search = '?sslmode=require')),
      /asks for TLS/,
    ],
  ]

  it.each(failures)('with %s, every command fails saying why', async (_, url, reason) => {
    for (const command of commands()) {
      const run = await runOn(url(), ...command)
      expect(run.code, command.join(' ')).not.toBe(0)
      expect(run.stderr).toMatch(reason)
    }
  })

  it('a URL without the password the server asks for says so', async () => {
    const run = await runOn(
      urlWith((u) => (u.password = '')),
      'status',
    )
    expect(run.stderr).toContain('the server asks for a password and none was given')
  })

  it("the team server's pages and the contract's answers", async () => {
    const fx = await startTestTeamServer({
      databaseUrl: database.url,
      users: [{ name: 'root', role: 'admin' }],
    })
    try {
      const { cookie } = await fx.signIn('root')
      for (const path of ['/', '/login', '/auth/session']) {
        const page = await rawRequest(fx.port, path, { headers: { cookie } })
        expectNoPassword(`page ${path}`, JSON.stringify(page.headers) + page.body)
      }
      const socket = await fx.connect({ cookie })
      if (typeof socket === 'number') throw new Error(`the socket answered ${socket}`)
      try {
        for (const channel of ['app:info', 'settings:get', 'sync:status', 'watchlist:list'])
          await socket.call(channel)
        expectNoPassword('the contract', socket.frames.join('\n'))
      } finally {
        socket.close()
      }
    } finally {
      await fx.stop()
    }
  })
})
