import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../../helpers/raw-http'
import {
  startTestTeamServer,
  type TeamFixture,
  type TeamSocket,
} from '../../helpers/team-server-fixture'

// Where the team server keeps its data (a path with a home folder, a user name) is shown
// to admins, who run the server, and to nobody else: no answer or frame a viewer or an
// editor receives holds it.

describe('team server: the data folder path reaches admins only', () => {
  let fx: TeamFixture
  const sockets = new Map<string, TeamSocket>()
  const received = new Map<string, string[]>()

  beforeAll(async () => {
    fx = await startTestTeamServer({
      users: [
        { name: 'vera', role: 'viewer' },
        { name: 'ed', role: 'editor' },
        { name: 'ada', role: 'admin' },
      ],
    })
    for (const name of ['vera', 'ed', 'ada']) {
      const client = await fx.signIn(name)
      const texts: string[] = []
      for (const path of ['/', '/auth/session', '/login'])
        texts.push((await rawRequest(fx.port, path, { headers: { cookie: client.cookie } })).body)
      const ws = await fx.connect({ cookie: client.cookie })
      if (typeof ws === 'number') throw new Error(`${name}'s socket was refused (${ws})`)
      sockets.set(name, ws)
      received.set(name, texts)
    }
  })
  afterAll(async () => {
    for (const ws of sockets.values()) ws.close()
    await fx.stop()
  })

  const askAll = async (name: string) => {
    const ws = sockets.get(name) as TeamSocket
    const info = await ws.call('app:info')
    const settings = await ws.call('settings:get')
    return { ws, info, settings }
  }

  it.each(['vera', 'ed'])(
    '%s (not an admin) gets app:info and settings without it',
    async (name) => {
      const { ws, info, settings } = await askAll(name)
      expect(info).toMatchObject({ ok: true, result: { dataDir: '', version: expect.any(String) } })
      expect(settings).toMatchObject({ ok: true, result: { dataDir: '' } })
      for (const text of [...ws.frames, ...(received.get(name) ?? [])])
        expect(text).not.toContain(fx.dataDir)
    },
  )

  it('an editor saving settings gets the answer without it too', async () => {
    const ws = sockets.get('ed') as TeamSocket
    const saved = await ws.call('settings:update', { namesRefreshDays: 9 })
    expect(saved).toMatchObject({ ok: true, result: { namesRefreshDays: 9, dataDir: '' } })
    expect(ws.frames.join('\n')).not.toContain(fx.dataDir)
  })

  it('an admin sees it in app:info and settings', async () => {
    const { info, settings } = await askAll('ada')
    expect(info).toMatchObject({ ok: true, result: { dataDir: fx.dataDir } })
    expect(settings).toMatchObject({ ok: true, result: { dataDir: fx.dataDir } })
  })
})
