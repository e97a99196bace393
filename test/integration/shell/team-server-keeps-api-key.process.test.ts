import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { profileAddressOf, startSimulatorProcess } from '../../helpers/simulator-process'
import { rawRequest } from '../../helpers/raw-http'
import {
  startTestTeamServer,
  type TeamFixture,
  type TeamSocket,
} from '../../helpers/team-server-fixture'

// The API key stays on the team server: with a real key in use against the simulator, a
// sync run and every read a team member makes, no HTTP answer and no socket frame holds
// the key or its last characters (which the desktop app shows as a hint).

const KEY = 'team-server-key-~0O0~never-leaves'
const OTHER_KEY = 'second-team-key-~1I1~never-leaves'
const tail = (key: string) => key.slice(-4)

describe('team server: the API key never leaves the server', () => {
  let sim: Awaited<ReturnType<typeof startSimulatorProcess>>
  let fx: TeamFixture
  let address: string
  const received: string[] = []
  const sockets: TeamSocket[] = []

  beforeAll(async () => {
    sim = await startSimulatorProcess(['--keys', `${KEY},${OTHER_KEY}`])
    address = await profileAddressOf(sim.url, 'casual')
    fx = await startTestTeamServer({
      apiKey: KEY,
      serviceUrl: sim.url,
      users: [
        { name: 'ada', role: 'admin' },
        { name: 'vera', role: 'viewer' },
      ],
    })
  }, 60_000)
  afterAll(async () => {
    for (const ws of sockets) ws.close()
    await fx?.stop()
    await sim?.close()
  })

  it('the core itself does show the tail: the filter is what keeps it from browsers', async () => {
    const settings = await fx.core.dispatch('settings:get', undefined)
    expect(settings).toMatchObject({
      ok: true,
      result: { apiKeyHint: expect.stringContaining(tail(KEY)) },
    })
  })

  it('no frame or answer of a signed-in session holds the key, while syncing and reading', async () => {
    for (const name of ['ada', 'vera']) {
      const client = await fx.signIn(name)
      for (const path of ['/', '/auth/session', '/login', '/no/such/page']) {
        const answer = await rawRequest(fx.port, path, { headers: { cookie: client.cookie } })
        received.push(JSON.stringify(answer.headers), answer.body)
      }
      const ws = await fx.connect({ cookie: client.cookie })
      if (typeof ws === 'number') throw new Error(`${name}'s socket was refused (${ws})`)
      sockets.push(ws)
    }
    const [admin, viewer] = sockets as [TeamSocket, TeamSocket]
    expect(await admin.call('watchlist:add', { address, label: 'Keyed' })).toMatchObject({
      ok: true,
    })
    const synced = await admin.call('sync:run', { address })
    expect(synced).toMatchObject({ ok: true })
    for (const ws of [admin, viewer]) {
      for (const [channel, input] of [
        ['app:info', undefined],
        ['settings:get', undefined],
        ['credits:overview', undefined],
        ['sync:status', undefined],
        ['watchlist:summaries', undefined],
        ['history:page', { address }],
        ['wallet:whole', { address }],
        ['lookup:recent', undefined],
        ['webhooks:cached', undefined],
        // An error answer goes through the same envelope.
        ['settings:update', { walletRestBaseUrl: 'not a url' }],
      ] as const) {
        const answer = await ws.call(channel, input)
        expect(answer).toHaveProperty('ok')
      }
    }
    const settings = await admin.call('settings:get')
    expect(settings).toMatchObject({ ok: true, result: { apiKeyHint: '••••' } })
    // An admin replacing the key gets settings back without it.
    const replaced = await admin.call('settings:set-api-key', { apiKey: OTHER_KEY })
    expect(replaced).toMatchObject({ ok: true, result: { apiKeyHint: '••••' } })
    expect(await admin.call('sync:run', { address })).toMatchObject({ ok: true })

    received.push(...sockets.flatMap((ws) => ws.frames))
    expect(received.length).toBeGreaterThan(40)
    const everything = received.join('\n')
    expect(everything).toContain(address) // the scan sees real data
    for (const secret of [KEY, OTHER_KEY, tail(KEY), tail(OTHER_KEY)])
      expect(everything).not.toContain(secret)
  }, 60_000)
})
