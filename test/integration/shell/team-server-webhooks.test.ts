import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callCore } from '../../../src-main/cli/cli-core'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { DELIVERY_PATH } from '../../../src-main/webhooks/delivery-route'
import { WEBHOOK_SECRET_FILE, type WebhookMode } from '../../../src-main/webhooks/webhook-mode'
import { rawRequest } from '../../helpers/raw-http'
import { startTestTeamServer, type TeamFixture } from '../../helpers/team-server-fixture'
import { addActivityAndDeliver } from '../../helpers/webhook-truth'

// Webhook mode as `heliograph server --public-url` runs it: the delivery route mounted on
// the team server ahead of its sign-in, authenticated by the webhook's own secret only.

const KEY = 'demo'

describe('team server with a public URL: webhook deliveries', () => {
  let sim: RunningSimulator
  let fx: TeamFixture
  let mode: WebhookMode
  let wallet: string

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
    fx = await startTestTeamServer({
      apiKey: KEY,
      serviceUrl: sim.url,
      dataSource: 'service',
      users: [{ name: 'vera', role: 'viewer' }],
      server: {
        // The route is the mode's; the mode needs the server's URL first.
        routes: [
          {
            path: DELIVERY_PATH,
            handle: (request, response) => mode.route.handle(request, response),
          },
        ],
      },
    })
    wallet = sim.chain.walletByProfile('casual').address
    await callCore(fx.core, 'watchlist:add', { address: wallet, label: 'Casual' })
    await callCore(fx.core, 'sync:run', { address: wallet })
    mode = await fx.core.startWebhookMode({ publicUrl: fx.origin })
  }, 60_000)
  afterAll(async () => {
    await mode?.stop()
    await fx?.stop()
    await sim?.close()
  })

  it('registers one webhook at the server’s delivery path, and a delivery reaches the mirror within 5 s', async () => {
    const [hook] = sim.webhooks.list(KEY)
    expect(hook?.webhookURL).toBe(new URL(DELIVERY_PATH, fx.origin).href)
    const t0 = Date.now()
    const [signature] = await addActivityAndDeliver(sim.url, wallet)
    await mode.idle()
    const page = await callCore(fx.core, 'history:page', { address: wallet, limit: 5 })
    expect(page.rows.map((r) => r.signature)).toContain(signature)
    expect(Date.now() - t0).toBeLessThan(5_000)
  })

  it('refuses a delivery with a wrong secret (401), even from a signed-in session, and syncs nothing', async () => {
    const secret = readFileSync(join(fx.dataDir, WEBHOOK_SECRET_FILE), 'utf8').trim()
    const before = await callCore(fx.core, 'credits:overview', undefined)
    const body = JSON.stringify([{ signature: 'x'.repeat(88), accountData: [] }])
    const client = await fx.signIn('vera')
    for (const authorization of [`${secret}x`, '', secret.slice(0, -1)]) {
      const answer = await rawRequest(fx.port, DELIVERY_PATH, {
        method: 'POST',
        headers: { authorization, cookie: client.cookie, 'content-type': 'application/json' },
        body,
      })
      expect(answer.status, `authorization “${authorization.slice(0, 4)}…”`).toBe(401)
    }
    await mode.idle()
    const after = await callCore(fx.core, 'credits:overview', undefined)
    expect(after.totalCredits).toBe(before.totalCredits)
  })

  it('the secret appears in no page or answer the server sends', async () => {
    const secret = readFileSync(join(fx.dataDir, WEBHOOK_SECRET_FILE), 'utf8').trim()
    const client = await fx.signIn('vera')
    const socket = await fx.connect({ cookie: client.cookie })
    if (typeof socket === 'number') throw new Error(`socket refused: ${socket}`)
    const answers = JSON.stringify([
      await socket.call('webhooks:mode'),
      await socket.call('webhooks:cached'),
      await socket.call('settings:get'),
      (await rawRequest(fx.port, '/auth/session', { headers: { cookie: client.cookie } })).body,
    ])
    socket.close()
    expect(answers).not.toContain(secret)
  })
})
