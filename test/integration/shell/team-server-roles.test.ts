import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  startTestTeamServer,
  type TeamFixture,
  type TeamSocket,
} from '../../helpers/team-server-fixture'
import { SESSION_RECHECK_MS } from '../../../src-main/shell/team/team-sessions'
import { testAddress } from '../../helpers/wallets'

// Roles over the real socket: a viewer reads everything but changes nothing (watchlist,
// settings) and spends nothing; an editor changes both; the API key is an admin's.

describe('team server: roles decide what each account may do', () => {
  let fx: TeamFixture
  const sockets: Record<string, TeamSocket> = {}
  const watched = testAddress(21)

  beforeAll(async () => {
    fx = await startTestTeamServer({
      users: [
        { name: 'vera', role: 'viewer' },
        { name: 'eddie', role: 'editor' },
        { name: 'ada', role: 'admin' },
      ],
      ownMirror: async (mirror) => {
        await mirror.watchlist.add({ address: watched, label: 'Shared' }, 1_700_000_000)
      },
    })
    for (const name of ['vera', 'eddie', 'ada']) {
      const ws = await fx.connect({ cookie: (await fx.signIn(name)).cookie })
      if (typeof ws === 'number') throw new Error(`${name}'s socket was refused (${ws})`)
      sockets[name] = ws
    }
  })
  afterAll(async () => {
    for (const ws of Object.values(sockets)) ws.close()
    await fx.stop()
  })

  const as = (name: string): TeamSocket => sockets[name] as TeamSocket

  it('a viewer reads the watchlist, the history, credits and settings', async () => {
    const list = await as('vera').call('watchlist:list')
    expect(list).toMatchObject({ ok: true, result: [{ address: watched, label: 'Shared' }] })
    expect(await as('vera').call('history:page', { address: watched })).toMatchObject({ ok: true })
    expect(await as('vera').call('credits:overview')).toMatchObject({ ok: true })
    expect(await as('vera').call('settings:get')).toMatchObject({ ok: true })
    expect(await as('vera').call('sync:status')).toMatchObject({ ok: true })
  })

  it('only an admin is told where the server keeps its data', async () => {
    for (const name of ['vera', 'eddie', 'ada']) {
      const info = await as(name).call('app:info')
      const settings = await as(name).call('settings:get')
      const expected = name === 'ada' ? fx.dataDir : null
      expect(info, name).toMatchObject({ ok: true, result: { dataDir: expected } })
      expect(settings, name).toMatchObject({ ok: true, result: { dataDir: expected } })
      // Nowhere else in the answer either.
      if (expected === null) expect(JSON.stringify([info, settings])).not.toContain(fx.dataDir)
    }
    // The person at the machine still sees it.
    expect(await fx.core.dispatch('app:info', undefined)).toMatchObject({
      result: { dataDir: fx.dataDir },
    })
  })

  it('a viewer cannot change the watchlist or the settings, and is told why', async () => {
    const added = await as('vera').call('watchlist:add', { address: testAddress(22) })
    expect(added).toEqual({
      ok: false,
      error: {
        name: 'PermissionError',
        message: 'Your role (viewer) cannot change the watchlist — ask an admin.',
        details: { role: 'viewer', channel: 'watchlist:add' },
      },
    })
    const renamed = await as('vera').call('watchlist:rename', { address: watched, label: 'Mine' })
    expect(renamed).toMatchObject({ ok: false, error: { name: 'PermissionError' } })
    const removed = await as('vera').call('watchlist:remove', { address: watched })
    expect(removed).toMatchObject({ ok: false, error: { name: 'PermissionError' } })
    const updated = await as('vera').call('settings:update', { dailyBudget: 5 })
    expect(updated).toMatchObject({
      ok: false,
      error: { message: 'Your role (viewer) cannot change the settings — ask an admin.' },
    })
    const spent = await as('vera').call('lookup:run', {
      request: { view: 'wallet', address: watched },
    })
    expect(spent).toMatchObject({ ok: false, error: { name: 'PermissionError' } })
    // Nothing changed underneath.
    const mirror = await fx.core.dispatch('watchlist:list', undefined)
    expect(mirror).toMatchObject({ ok: true, result: [{ address: watched, label: 'Shared' }] })
    expect(await fx.core.dispatch('settings:get', undefined)).not.toMatchObject({
      result: { dailyBudget: 5 },
    })
  })

  it('an editor changes the watchlist and the settings, but not the API key', async () => {
    const extra = testAddress(23)
    expect(
      await as('eddie').call('watchlist:add', { address: extra, label: 'Desk' }),
    ).toMatchObject({
      ok: true,
      result: { address: extra, label: 'Desk' },
    })
    expect(
      await as('eddie').call('watchlist:rename', { address: extra, label: 'Desk 2' }),
    ).toMatchObject({
      ok: true,
    })
    expect(await as('eddie').call('watchlist:remove', { address: extra })).toEqual({ ok: true })
    const updated = await as('eddie').call('settings:update', { dailyBudget: 1234 })
    expect(updated).toMatchObject({ ok: true, result: { dailyBudget: 1234 } })
    expect(await as('vera').call('settings:get')).toMatchObject({
      ok: true,
      result: { dailyBudget: 1234 },
    })
    expect(await as('eddie').call('settings:set-api-key', { apiKey: 'editor-key-12345' })).toEqual({
      ok: false,
      error: {
        name: 'PermissionError',
        message: 'Your role (editor) cannot manage the API key — ask an admin.',
        details: { role: 'editor', channel: 'settings:set-api-key' },
      },
    })
    expect(await as('eddie').call('data:delete-all', { confirm: 'DELETE' })).toMatchObject({
      ok: false,
      error: { name: 'PermissionError' },
    })
  })

  it('where the key is sent is an admin’s decision: an editor cannot move the service URLs', async () => {
    expect(
      await as('ada').call('settings:set-api-key', { apiKey: 'admin-key-12345' }),
    ).toMatchObject({ ok: true })
    const moved = await as('eddie').call('settings:update', {
      jsonRpcUrl: 'https://rpc.elsewhere.example/',
    })
    expect(moved).toEqual({
      ok: false,
      error: {
        name: 'PermissionError',
        message:
          'Your role (editor) cannot change the service URLs (where the API key is sent) — ask an admin.',
        details: { role: 'editor', settings: ['jsonRpcUrl'] },
      },
    })
    // The admin's key is still there, and the URL unchanged.
    const settings = await as('ada').call('settings:get')
    expect(settings).toMatchObject({ ok: true, result: { apiKeyHint: expect.any(String) } })
    expect(JSON.stringify(settings)).not.toContain('elsewhere')
    // Other settings are still the editor's.
    expect(await as('eddie').call('settings:update', { dailyBudget: 99 })).toMatchObject({
      ok: true,
    })
    // The admin may move it (and the key, going to a new host, is removed as before).
    const byAdmin = await as('ada').call('settings:update', {
      jsonRpcUrl: 'https://rpc.elsewhere.example/',
    })
    expect(byAdmin).toMatchObject({ ok: true, result: { apiKeyHint: null } })
  })

  it('a role changed by another process applies to an open socket within the recheck time', async () => {
    // fx.accounts is a connection of its own, as `heliograph user set-role` would open.
    await fx.accounts.team.setRole('vera', 'editor')
    await sleep(SESSION_RECHECK_MS)
    const extra = testAddress(24)
    expect(await as('vera').call('watchlist:add', { address: extra })).toMatchObject({ ok: true })
    await fx.accounts.team.setRole('vera', 'viewer')
    await sleep(SESSION_RECHECK_MS)
    expect(await as('vera').call('watchlist:remove', { address: extra })).toMatchObject({
      ok: false,
      error: { name: 'PermissionError' },
    })
  })
})
