import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src-main/simulator/simulator-server'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestWebShell } from '../helpers/web-shell-fixture'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'
import {
  addActivityAndDeliver,
  ledgerWebhookCredits,
  simulatorManagementCredits,
} from '../helpers/webhook-truth'

// The Webhooks page (issue 15): a webhook created from the watchlist, disabled and enabled
// with the cost asked first (nothing is charged before the yes), an auto-disabled one
// shown as such and re-enabled; the page reopens from the mirror without a call; the
// ledger's credits equal the simulator's counter.

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>
const KEY = 'demo'

describe('e2e: the Webhooks page', () => {
  let sim: RunningSimulator
  let fx: Fixture
  let browser: Browser
  let page: Page
  let receiver: WebhookReceiver
  let failing: WebhookReceiver
  let watched: string[]

  const spent = (): number => sim.credits.forKey(KEY).total
  const card = (url: string) => page.getByRole('article').filter({ hasText: url })
  const confirm = () => page.getByRole('alertdialog', { name: 'Confirm a paid call' })

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
    receiver = await startWebhookReceiver()
    failing = await startWebhookReceiver(500)
    watched = [
      sim.chain.walletByProfile('casual').address,
      sim.chain.walletByProfile('active-trader').address,
    ]
    fx = await startTestWebShell({
      apiKey: KEY,
      serviceUrl: sim.url,
      ownMirror: async (own) => {
        for (const [i, address] of watched.entries())
          await own.watchlist.add({ address, label: `Wallet ${i + 1}` }, 1)
      },
    })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
    await sim?.close()
    await receiver?.close()
    await failing?.close()
  })

  it('opens from the sidebar, never fetched yet, with the refresh’s cost on its button', async () => {
    await page.goto(fx.shell.url)
    await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click()
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor()
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toMatch(/Not fetched yet/)
    expect(await page.getByRole('button', { name: 'Refresh — 100 credits' }).count()).toBe(1)
    expect(spent()).toBe(0)
  })

  it('creates one webhook on every watched wallet with the chosen types, after a yes', async () => {
    await page.getByRole('button', { name: 'New webhook from the watchlist…' }).click()
    const form = page.getByRole('form', { name: 'Create a webhook' })
    await form.getByLabel(/Webhook URL/).fill(receiver.url)
    await form.getByLabel('All types (ANY)').uncheck()
    await form.getByLabel('Transaction types').selectOption(['TRANSFER', 'SWAP'])
    await form.getByLabel(/Auth header/).fill('Bearer e2e-s3cret')
    expect(await form.getByText('Every watched wallet (2)').count()).toBe(1)
    await form.getByRole('button', { name: 'Create — 100 credits' }).click()
    await expect.poll(() => confirm().textContent()).toMatch(/on all 2 watched wallets/)
    // The cost is said before anything is sent.
    expect(spent()).toBe(0)
    await screenshot(page, 'webhooks-create-confirm')
    await confirm().getByRole('button', { name: 'Confirm: Create — 100 credits' }).click()
    await card(receiver.url).waitFor()
    const [created] = sim.webhooks.list(KEY)
    expect(created?.accountAddresses.sort()).toEqual([...watched].sort())
    expect(created?.transactionTypes?.sort()).toEqual(['SWAP', 'TRANSFER'])
    expect(created?.authHeader).toBe('Bearer e2e-s3cret')
    const text = await card(receiver.url).textContent()
    expect(text).toContain('Active')
    expect(text).toMatch(/Auth header\s*set/)
    expect(text).toContain('2 addresses')
    expect(text).not.toContain('e2e-s3cret')
    expect(spent()).toBe(100)
  })

  it('disable and enable: the cost confirmed first, the simulator follows', async () => {
    const id = sim.webhooks.list(KEY)[0]?.webhookID as string
    await card(receiver.url).getByRole('button', { name: 'Disable — 100 credits' }).click()
    await expect.poll(() => confirm().textContent()).toMatch(/Deliveries stop/)
    expect(spent()).toBe(100)
    await screenshot(page, 'webhooks-disable-confirm')
    await confirm().getByRole('button', { name: 'Confirm: Disable — 100 credits' }).click()
    await expect.poll(() => card(receiver.url).locator('.state').textContent()).toBe('Disabled')
    expect(sim.webhooks.get(KEY, id).active).toBe(false)
    // Cancel sends nothing.
    await card(receiver.url).getByRole('button', { name: 'Enable — 100 credits' }).click()
    await confirm().getByRole('button', { name: 'Cancel' }).click()
    expect(await confirm().count()).toBe(0)
    expect(spent()).toBe(200)
    await card(receiver.url).getByRole('button', { name: 'Enable — 100 credits' }).click()
    await confirm().getByRole('button', { name: 'Confirm: Enable — 100 credits' }).click()
    await expect.poll(() => card(receiver.url).locator('.state').textContent()).toBe('Active')
    expect(sim.webhooks.get(KEY, id).active).toBe(true)
    expect(spent()).toBe(300)
  })

  it('a webhook the service auto-disabled is shown as such, with Re-enable and the grace note', async () => {
    const hook = sim.webhooks.create(KEY, {
      webhookURL: failing.url,
      webhookType: 'raw',
      transactionTypes: ['ANY'],
      accountAddresses: [watched[0] as string],
    })
    for (let i = 0; i < 12 && sim.webhooks.get(KEY, hook.webhookID).active; i++) {
      await addActivityAndDeliver(sim.url, watched[0] as string)
    }
    expect(sim.webhooks.get(KEY, hook.webhookID).active).toBe(false)
    await page.getByRole('button', { name: 'Refresh — 100 credits' }).click()
    await confirm().getByRole('button', { name: 'Confirm: Refresh — 100 credits' }).click()
    await card(failing.url).waitFor()
    await expect.poll(() => card(failing.url).locator('.state').textContent()).toBe('Auto-disabled')
    expect(await card(failing.url).getByRole('note').textContent()).toMatch(/24 hours/)
    // The other one, disabled and enabled here, is not mistaken for it.
    expect(await card(receiver.url).locator('.state').textContent()).toBe('Active')
    await card(failing.url).locator('details summary').click()
    await screenshot(page, 'webhooks-auto-disabled')
    await card(failing.url).getByRole('button', { name: 'Re-enable — 100 credits' }).click()
    await confirm().getByRole('button', { name: 'Confirm: Re-enable — 100 credits' }).click()
    await expect.poll(() => card(failing.url).locator('.state').textContent()).toBe('Active')
    expect(await card(failing.url).textContent()).toMatch(/24-hour grace period until/)
    expect(sim.webhooks.get(KEY, hook.webhookID).active).toBe(true)
    await screenshot(page, 'webhooks-re-enabled')
  })

  it('edit replaces the address list, after a yes', async () => {
    const id = sim.webhooks.list(KEY)[0]?.webhookID as string
    await card(receiver.url).getByRole('button', { name: 'Edit…' }).click()
    const form = card(receiver.url).getByRole('form', { name: 'Edit webhook' })
    await form.getByLabel('Addresses, one a line').fill(watched[1] as string)
    await form.getByRole('button', { name: 'Save changes — 100 credits' }).click()
    await confirm().getByRole('button', { name: 'Confirm: Save changes — 100 credits' }).click()
    await expect.poll(() => card(receiver.url).textContent()).toContain('1 address')
    expect(sim.webhooks.get(KEY, id).accountAddresses).toEqual([watched[1]])
    // The auth header was left empty: the one set is kept.
    expect(sim.webhooks.get(KEY, id).authHeader).toBe('Bearer e2e-s3cret')
  })

  it('reopens from the mirror without a call; the ledger equals the simulator’s counter', async () => {
    const before = spent()
    await page.reload()
    await card(failing.url).waitFor()
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toMatch(/2 webhooks as fetched/)
    expect(spent()).toBe(before)
    // Delivered events cost 1 credit each on the account; the ledger holds management calls.
    const ledger = await ledgerWebhookCredits({ dataDir: fx.dataDir })
    expect(ledger.credits).toBe(simulatorManagementCredits(sim, KEY).credits)
    // create, disable, enable, refresh, re-enable, update
    expect(ledger).toEqual({ calls: 6, credits: 600 })
  })

  it('the Fetched time moves on while the page stays open', async () => {
    // The page's clock is Playwright's from here: time is moved on, not waited for.
    await page.clock.install()
    await page.reload()
    const fetched = page.getByTestId('webhook-fetched').first()
    await expect.poll(() => fetched.textContent()).toMatch(/now|seconds? ago|minutes? ago/)
    const before = await fetched.textContent()
    await page.clock.fastForward('02:00:00')
    await expect.poll(() => fetched.textContent()).toMatch(/2 hours ago/)
    expect(await fetched.textContent()).not.toBe(before)
  })
})
