import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestWebShell } from '../helpers/web-shell-fixture'
import { testAddress } from '../helpers/wallets'

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

const OWN_WALLET = testAddress(41)
const ADDED_WALLET = testAddress(42)

describe('e2e: demo data and the own mirror, one at a time; what the person adds is theirs', () => {
  let fx: Fixture
  let browser: Browser
  let page: Page
  const banner = () => page.getByRole('note', { name: 'Demo data' })
  const sidebar = () => page.getByRole('navigation').textContent()

  beforeAll(async () => {
    fx = await startTestWebShell({
      apiKey: 'test-key-0000-1234',
      dataSource: 'demo',
      ownMirror: async (own) => {
        await own.watchlist.add({ address: OWN_WALLET, label: 'My treasury' }, 1)
      },
    })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  it('on demo data, the banner says so and the own wallets are not listed', async () => {
    await page.goto(fx.shell.url)
    await expect.poll(() => banner().textContent()).toMatch(/not yours/)
    // The app icon is the page's favicon, served by the shell.
    const href = await page.locator('link[rel="icon"]').getAttribute('href')
    const icon = await page.request.get(new URL(href as string, page.url()).toString())
    expect(icon.status()).toBe(200)
    expect(icon.headers()['content-type']).toBe('image/png')
    expect(await sidebar()).not.toContain('My treasury')
  })

  it('a wallet added on demo data goes into the own mirror, which is shown from then on, saying what the demo keeps', async () => {
    // A rule made while the demo is shown is the demo's (README, "Where data lives").
    const rule = await fx.core.dispatch('alerts:add-rule', {
      trigger: 'failed',
      options: {},
      scope: { wallets: [], tags: [] },
      channels: [],
      cooldownSec: 0,
    })
    expect(rule.ok).toBe(true)
    await page.getByLabel('Wallet address').fill(ADDED_WALLET)
    await page.getByLabel('Label (optional)').fill('Cold wallet')
    await page.getByRole('button', { name: 'Watch wallet' }).click()
    // Issue 48: the wallet is added from the first sync's dialog.
    await page
      .getByRole('dialog', { name: 'First sync' })
      .getByRole('button', { name: /^Start watching — first sync ≈/ })
      .click()
    // The switch to the own mirror reloads the page: the list is read whole once it is back.
    const listed = async () => {
      const text = (await sidebar()) ?? ''
      return ['Cold wallet', 'My treasury'].filter((label) => text.includes(label))
    }
    await expect.poll(listed).toEqual(['Cold wallet', 'My treasury'])
    await expect.poll(() => banner().count()).toBe(0)
    const note = page.getByRole('status', { name: 'Your own data' })
    await expect
      .poll(() => note.textContent())
      .toContain(
        'Your own data is shown from now on. What was made on the demo (1 alert rule) stays with it (Settings → Data source shows it)',
      )
    await screenshot(page, 'data-source-added-own')
    await note.getByRole('button', { name: 'Dismiss' }).click()
    await expect.poll(() => note.count()).toBe(0)
  })

  it('Show demo data lists none of the own wallets; the demo never took the added one', async () => {
    await page.goto(`${fx.shell.url}#/settings`)
    await page.getByRole('button', { name: 'Show demo data' }).click()
    await expect.poll(() => banner().count()).toBe(1)
    expect(await sidebar()).not.toContain('Cold wallet')
    expect(await sidebar()).not.toContain('My treasury')
    await screenshot(page, 'data-source-demo')
  })

  it('Settings switches back to the own mirror: the page reloads without the banner', async () => {
    await page.goto(`${fx.shell.url}#/settings`)
    await page.getByRole('button', { name: 'Show my own data' }).click()
    await expect.poll(sidebar).toContain('My treasury')
    expect(await sidebar()).toContain('Cold wallet')
    expect(await banner().count()).toBe(0)
    await screenshot(page, 'data-source-own')
  })
})
