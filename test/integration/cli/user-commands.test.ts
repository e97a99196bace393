import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_RECHECK_MS } from '../../../src-main/shell/team/team-sessions'
import { runCli } from '../../helpers/cli-in-process'
import { createTestDatabase } from '../../helpers/postgres'
import { rawRequest } from '../../helpers/raw-http'
import { startTestTeamServer, type TeamFixture } from '../../helpers/team-server-fixture'

// `user add` makes an account beside a running team server: the one-time password it
// prints signs in, and the mirror keeps only its Argon2id hash.

describe('cli: user add | list | set-role | remove', () => {
  let fx: TeamFixture
  beforeAll(async () => {
    fx = await startTestTeamServer()
  })
  afterAll(() => fx.stop())

  const cli = (...args: string[]) => runCli(['--data-dir', fx.dataDir, 'user', ...args])

  it('prints a one-time password that signs in; the mirror keeps an argon2id hash only', async () => {
    const run = await cli('add', 'ana', '--role', 'editor')
    expect(run.code).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toBe('Added ana (editor). One-time password, shown only now:')
    const password = lines[1] as string
    expect(password).toMatch(/^[A-Za-z0-9_-]{20,}$/)

    const row = await fx.accounts.database.db
      .selectFrom('team_users')
      .selectAll()
      .where('name', '=', 'ana')
      .executeTakeFirstOrThrow()
    expect(row.role).toBe('editor')
    expect(row.password_hash.startsWith('$argon2id$')).toBe(true)
    expect(row.password_hash).not.toContain(password)

    const client = await fx.signIn('ana', password)
    const info = await rawRequest(fx.port, '/auth/session', { headers: { cookie: client.cookie } })
    expect(JSON.parse(info.body)).toMatchObject({ name: 'ana', role: 'editor' })
    expect((await fx.postLogin('ana', `${password}x`)).status).toBe(401)
  })

  it('lists, changes roles, removes (ending sessions) and names what is wrong', async () => {
    expect((await cli('add', 'bo', '--role', 'viewer')).code).toBe(0)
    const taken = await cli('add', 'bo', '--role', 'admin')
    expect(taken.code).toBe(1)
    expect(taken.stderr).toContain('There is already a user named “bo”.')
    const bad = await cli('add', 'b o', '--role', 'viewer')
    expect(bad.stderr).toContain('User name “b o” is not valid')
    const role = await cli('add', 'cy', '--role', 'owner')
    expect(role.code).not.toBe(0)
    expect(role.stderr).toMatch(/Allowed choices are viewer, editor, admin/)

    expect((await cli('set-role', 'bo', '--role', 'admin')).stdout).toContain('bo is now admin.')
    const list = await cli('list')
    expect(list.stdout).toMatch(/^ana\s+editor\s+added \d{4}-\d{2}-\d{2}\nbo\s+admin\s+added/)

    const passwordLine = (await cli('add', 'dee', '--role', 'viewer')).stdout.trim().split('\n')[1]
    const client = await fx.signIn('dee', passwordLine)
    expect((await cli('remove', 'dee')).stdout).toContain('Removed dee.')
    // Another process's change reaches the server's sessions at its next look at the store.
    await sleep(SESSION_RECHECK_MS)
    const after = await rawRequest(fx.port, '/auth/session', { headers: { cookie: client.cookie } })
    expect(after.status).toBe(401)
    expect((await cli('remove', 'dee')).stderr).toContain('There is no user named “dee”.')
  })

  it('`user passwd` prints a new one-time password once and ends the account’s sessions', async () => {
    const first = (await cli('add', 'eve', '--role', 'viewer')).stdout
      .trim()
      .split('\n')[1] as string
    const before = await fx.signIn('eve', first)
    const run = await cli('passwd', 'eve')
    expect(run.code).toBe(0)
    const lines = run.stdout.split('\n')
    expect(lines[0]).toBe(
      'New one-time password for eve, shown only now (their sessions have ended; they choose their own at sign-in):',
    )
    const second = lines[1] as string
    expect(second).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(second).not.toBe(first)
    expect(run.stdout).toBe(`${lines[0]}\n${second}\n`)

    await sleep(SESSION_RECHECK_MS)
    const ended = await rawRequest(fx.port, '/auth/session', { headers: { cookie: before.cookie } })
    expect(ended.status).toBe(401)
    expect((await fx.postLogin('eve', first)).status).toBe(401)
    const after = await fx.signIn('eve', second)
    const info = await rawRequest(fx.port, '/auth/session', { headers: { cookie: after.cookie } })
    expect(JSON.parse(info.body)).toMatchObject({ name: 'eve', mustChangePassword: true })

    const missing = await cli('passwd', 'nobody')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('There is no user named “nobody”.')
  })

  it('refuses a --database that is not a PostgreSQL URL', async () => {
    const run = await cli('list', '--database', 'mysql://u@localhost/heliograph')
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('--database (or HELIOGRAPH_DATABASE_URL) must be a PostgreSQL URL')
  })
})

describe('cli: user add on a PostgreSQL mirror, signing in to a team server on it', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  let fx: TeamFixture
  beforeAll(async () => {
    database = await createTestDatabase()
    fx = await startTestTeamServer({ databaseUrl: database.url, dataSource: 'service' })
  })
  afterAll(async () => {
    await fx?.stop()
    await database?.drop()
  })

  it('keeps the account in PostgreSQL; its one-time password signs in to choose its own', async () => {
    const run = await runCli(['--database', database.url, 'user', 'add', 'pat', '--role', 'viewer'])
    expect(run.stderr).toBe('')
    const password = run.stdout.trim().split('\n')[1] as string
    const row = await fx.accounts.database.db
      .selectFrom('team_users')
      .select('password_hash')
      .where('name', '=', 'pat')
      .executeTakeFirstOrThrow()
    expect(row.password_hash.startsWith('$argon2id$')).toBe(true)
    const client = await fx.signIn('pat', password)
    const ws = await fx.connect({ cookie: client.cookie })
    if (typeof ws === 'number') throw new Error(`refused: ${ws}`)
    expect(await ws.call('watchlist:list')).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('one-time password') },
    })
    const chosen = await rawRequest(fx.port, '/auth/password', {
      method: 'POST',
      headers: {
        cookie: client.cookie,
        origin: fx.origin,
        'x-csrf-token': client.csrfToken,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ currentPassword: password, newPassword: 'pat chose this one' }),
    })
    expect(chosen.status).toBe(204)
    expect(await ws.call('watchlist:add', { address: 'x' })).toMatchObject({
      ok: false,
      error: { name: 'PermissionError' },
    })
    expect(await ws.call('watchlist:list')).toEqual({ ok: true, result: [] })
    ws.close()
    const list = await runCli(['--database', database.url, 'user', 'list'])
    expect(list.stdout).toMatch(/^pat\s+viewer/)
  })
})
