import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callCore } from '../../src-main/cli/cli-core'
import { startSimulator, type RunningSimulator } from '../../src-main/simulator/simulator-server'
import type { WebhookMode } from '../../src-main/webhooks/webhook-mode'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestWebShell } from '../helpers/web-shell-fixture'
import { addActivityAndDeliver } from '../helpers/webhook-truth'

// Webhook mode on the Activity page: the card says deliveries are in use; when the
// simulator disables the failing webhook, it says in plain words that deliveries stopped,
// that polling took over at the watch cadence, and that the webhook was re-enabled; the
// next delivery brings it back.

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>
const KEY = 'demo'

describe('e2e: webhook mode on the Activity page', () => {
  let sim: RunningSimulator
  let fx: Fixture
  let browser: Browser
  let page: Page
  let server: Server
  let mode: WebhookMode
  let wallet: string
  /** While set, the delivery server answers 500 (an outage the service notices). */
  let isFailing = false

  const card = () => page.getByRole('region', { name: 'Webhook deliveries' })
  const addActivity = () => addActivityAndDeliver(sim.url, wallet)

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
    wallet = sim.chain.walletByProfile('casual').address
    fx = await startTestWebShell({
      apiKey: KEY,
      serviceUrl: sim.url,
      ownMirror: async (own) => {
        await own.watchlist.add({ address: wallet, label: 'Casual' }, 1)
      },
    })
    await callCore(fx.core, 'sync:run', { address: wallet })
    server = createServer((req, res) => {
      if (isFailing || req.url !== mode?.route.path) {
        req.resume()
        return void res.writeHead(500).end()
      }
      mode.route.handle(req, res)
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    mode = await fx.core.startWebhookMode({ publicUrl })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
    await new Promise((done) => server?.close(done))
    await sim?.close()
  })

  it('says new transactions arrive by delivery', async () => {
    await page.goto(`${fx.shell.url}#/activity`)
    await card().waitFor()
    expect(await card().getByRole('status').textContent()).toMatch(
      /New transactions arrive by webhook delivery; polling runs slower, as a check\.\s+Last delivery:\s+none yet\./,
    )
    expect(await card().getByRole('listitem').first().textContent()).toMatch(
      /^Webhook mode on at \d\d:\d\d UTC: deliveries for 1 wallet; polling slowed to every 10 min$/,
    )
    await card().scrollIntoViewIfNeeded()
    await screenshot(page, 'webhook-mode-on')
  })

  it('deliveries stopped: says so, polls at the watch cadence, re-enables the webhook', async () => {
    isFailing = true
    for (let i = 0; i < 10 && sim.webhooks.list(KEY)[0]?.active; i++) await addActivity()
    expect(sim.webhooks.list(KEY)[0]?.active).toBe(false)
    isFailing = false
    await mode.checkHealth()
    expect(sim.webhooks.list(KEY)[0]?.active).toBe(true)
    await page.reload()
    await card().waitFor()
    const items = card().getByRole('listitem')
    await expect.poll(() => items.count()).toBe(3)
    expect(await items.nth(0).textContent()).toMatch(
      /^Re-enabled the webhook at \d\d:\d\d UTC; polling until a delivery arrives$/,
    )
    expect(await items.nth(1).textContent()).toMatch(
      /^Webhook deliveries stopped at \d\d:\d\d UTC \(the service disabled the webhook\); polling every 1 min meanwhile$/,
    )
    expect(await card().getByRole('status').textContent()).toMatch(
      /Deliveries are not arriving: watched wallets are polled at the watch cadence meanwhile\./,
    )
    await card().scrollIntoViewIfNeeded()
    await screenshot(page, 'webhook-mode-stopped')
  })

  it('the next delivery brings deliveries back', async () => {
    await addActivity()
    await mode.idle()
    await page.reload()
    await card().waitFor()
    expect(await card().getByRole('listitem').first().textContent()).toMatch(
      /^Webhook deliveries resumed at \d\d:\d\d UTC; polling slowed to every 10 min$/,
    )
    expect(await card().getByRole('status').textContent()).toMatch(
      /arrive by webhook delivery[\s\S]*Last delivery:\s+\S/,
    )
    await card().scrollIntoViewIfNeeded()
    await screenshot(page, 'webhook-mode-resumed')
  })
})
