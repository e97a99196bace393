import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamAccountStore } from '../../../src-main/db/stores/team-account-store'
import { SESSION_RECHECK_MS } from '../../../src-main/shell/team/team-sessions'
import { CHANGE_PASSWORD_PATH, SIGN_OUT_PATH } from '@shared/ipc/team-session'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres'
import { rawRequest } from '../../helpers/raw-http'
import { ENGINES } from '../../helpers/sync-fixture'
import {
  startTestTeamServer,
  type TeamFixture,
  type TeamSocket,
} from '../../helpers/team-server-fixture'

// Issue 50, item 6: every call looked its session up in the database. Sessions are now kept
// in memory: a burst of calls reads the store's one-row revision at most every
// SESSION_RECHECK_MS and the session itself once; signing out and choosing a password end
// sessions at once; a change another process makes (a removed account, a changed role, a
// new one-time password) applies within the recheck time. On both engines.

/** The store the server is given, counting what it is asked (every call still reaches it). */
function counted(store: TeamAccountStore): { store: TeamAccountStore; calls: Map<string, number> } {
  const calls = new Map<string, number>()
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        calls.set(String(key), (calls.get(String(key)) ?? 0) + 1)
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
  return { store: proxy, calls }
}

describe.each(ENGINES)('team server on %s: sessions kept in memory', (engine) => {
  let database: TestDatabase | null = null
  let fx: TeamFixture
  let calls: Map<string, number>
  const clients: Record<string, { cookie: string; csrfToken: string }> = {}

  beforeAll(async () => {
    database = engine === 'postgres' ? await createTestDatabase() : null
    let counting: ReturnType<typeof counted> | null = null
    fx = await startTestTeamServer({
      dataSource: 'service',
      ...(database ? { databaseUrl: database.url } : {}),
      users: [
        { name: 'vera', role: 'viewer' },
        { name: 'ed', role: 'editor' },
        { name: 'bo', role: 'viewer' },
        { name: 'pat', role: 'viewer' },
      ],
      accountsStore: (store) => {
        counting = counted(store)
        return counting.store
      },
    })
    calls = (counting as unknown as ReturnType<typeof counted>).calls
  }, 120_000)
  afterAll(async () => {
    await fx?.stop()
    await database?.drop()
  })

  const socketOf = async (name: string): Promise<TeamSocket> => {
    clients[name] ??= await fx.signIn(name)
    const ws = await fx.connect({ cookie: clients[name].cookie })
    if (typeof ws === 'number') throw new Error(`${name}'s socket was refused (${ws})`)
    return ws
  }

  it('a burst of calls reads the session once and the revision at most every recheck time', async () => {
    const ws = await socketOf('vera')
    calls.clear()
    const t0 = performance.now()
    for (let i = 0; i < 200; i++)
      expect(await ws.call('watchlist:list')).toMatchObject({ ok: true })
    const elapsedMs = performance.now() - t0
    expect(calls.get('findSession') ?? 0).toBeLessThanOrEqual(1)
    expect(calls.get('revision') ?? 0).toBeLessThanOrEqual(
      Math.ceil(elapsedMs / SESSION_RECHECK_MS) + 1,
    )
    ws.close()
  })

  it('signing out ends the session at once, on every socket it opened', async () => {
    const ws = await socketOf('bo')
    expect(await ws.call('watchlist:list')).toMatchObject({ ok: true })
    const out = await rawRequest(fx.port, SIGN_OUT_PATH, {
      method: 'POST',
      headers: {
        origin: fx.origin,
        cookie: clients.bo!.cookie,
        'x-csrf-token': clients.bo!.csrfToken,
      },
    })
    expect(out.status).toBe(204)
    expect(await ws.call('watchlist:list')).toMatchObject({
      ok: false,
      error: { message: 'Your session has ended: sign in again.' },
    })
  })

  it('choosing a password ends the account’s other sessions at once', async () => {
    const other = await fx.signIn('ed')
    const otherWs = await fx.connect({ cookie: other.cookie })
    if (typeof otherWs === 'number') throw new Error('refused')
    expect(await otherWs.call('watchlist:list')).toMatchObject({ ok: true })
    const chosen = await socketOf('ed')
    const changed = await rawRequest(fx.port, CHANGE_PASSWORD_PATH, {
      method: 'POST',
      headers: {
        origin: fx.origin,
        cookie: clients.ed!.cookie,
        'x-csrf-token': clients.ed!.csrfToken,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        currentPassword: fx.password('ed'),
        newPassword: 'a new and long enough one',
      }),
    })
    expect(changed.status).toBe(204)
    expect(await otherWs.call('watchlist:list')).toMatchObject({ ok: false })
    expect(await chosen.call('watchlist:list')).toMatchObject({ ok: true })
  })

  it('a change another process makes applies within the recheck time', async () => {
    const ws = await socketOf('pat')
    expect(await ws.call('watchlist:list')).toMatchObject({ ok: true })
    // fx.accounts is a connection of its own, as `heliograph user …` opens one.
    await fx.accounts.team.setRole('pat', 'editor')
    await sleep(SESSION_RECHECK_MS)
    expect(
      await ws.call('sync:pause', { address: '11111111111111111111111111111111' }),
    ).not.toMatchObject({
      error: { name: 'PermissionError' },
    })
    await fx.accounts.team.removeUser('pat')
    await sleep(SESSION_RECHECK_MS)
    expect(await ws.call('watchlist:list')).toMatchObject({
      ok: false,
      error: { message: 'Your session has ended: sign in again.' },
    })
  })
})
