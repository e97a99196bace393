import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli as cli } from '../../helpers/cli-in-process'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// The database URL carries a password. Whatever goes wrong (a wrong password, a server
// that is down, a URL that cannot be read, a database that does not exist, TLS asked of a
// server without it) and whatever goes right, no output of the command line holds it.

const PASSWORD = 's3cr3t-Pa55'

describe('PostgreSQL: the database password is never shown', () => {
  const temp = makeTempDir()
  let database: TestDatabase
  let withPassword: (password: string, change?: (url: URL) => void) => string
  let withRightPassword: (change: (url: URL) => void) => string

  beforeAll(async () => {
    database = await createTestDatabase()
    withPassword = (password, change) => {
      const url = new URL(database.url)
      url.password = password
      change?.(url)
      return url.toString()
    }
    withRightPassword = (change) => {
      const url = new URL(database.url)
      change(url)
      return url.toString()
    }
  })
  afterAll(async () => {
    await database?.drop()
    temp.remove()
  })

  /** Runs a command; fails if what it printed holds the URL's password in any form. */
  const run = async (url: string, args: string[]) => {
    const answer = await cli(['--data-dir', temp.dir, '--database', url, ...args])
    const printed = answer.stdout + answer.stderr
    const password = decodeURIComponent(URL.parse(url)?.password || PASSWORD)
    expect(printed, printed).not.toContain(password)
    expect(printed).not.toContain(encodeURIComponent(password))
    return answer
  }

  it('a wrong password, a server that is down, a missing database, an unreadable URL', async () => {
    const cases: [string, RegExp][] = [
      [withPassword(PASSWORD), /refused the user name or password/],
      [withPassword(PASSWORD, (u) => (u.port = '1')), /no PostgreSQL server answers/],
      [withRightPassword((u) => (u.pathname = '/no_such_database')), /does not exist/i],
      [`postgres://heliograph:${PASSWORD}@[::1/heliograph`, /PostgreSQL URL|Invalid|read/i],
      [withPassword(PASSWORD, (u) => u.searchParams.set('sslmode', 'require')), /SSL|TLS/i],
    ]
    for (const [url, why] of cases) {
      const answer = await run(url, ['watch', 'add', testAddress(1)])
      expect(answer.code, url.replace(PASSWORD, '…')).not.toBe(0)
      expect(answer.stderr).toMatch(why)
    }
  })

  it('nor when everything works: writing, reading and JSON output', async () => {
    const url = withRightPassword(() => {})
    expect((await run(url, ['watch', 'add', testAddress(2), '--label', 'Desk'])).code).toBe(0)
    for (const args of [['watch', 'list'], ['status'], ['status', '--json'], ['credits']]) {
      const answer = await run(url, args)
      expect(answer.code, `${args.join(' ')}: ${answer.stderr}`).toBe(0)
    }
  })

  it('a URL asking for TLS never falls back to plain text', async () => {
    // The run's server has no TLS: each mode that asks for it is refused, none connects.
    for (const mode of ['require', 'verify-ca', 'verify-full']) {
      const url = withRightPassword((u) => u.searchParams.set('sslmode', mode))
      const answer = await run(url, ['watch', 'add', testAddress(3)])
      expect(answer.code, mode).not.toBe(0)
      expect(answer.stderr, mode).toMatch(/SSL|TLS/)
    }
  })
})
