import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestWebShell } from '../helpers/web-shell-fixture'
import { testAddress } from '../helpers/wallets'

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

// `serve` on one's own data refused to start without a key, though the key is entered in
// the app it serves (issue 29, finding 2). It starts now, and the app opens where the key
// goes, with the cursor in the field; a watchlist can be made meanwhile.

describe('e2e: own data before there is a key', () => {
  let fx: Fixture
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    fx = await startTestWebShell({ dataSource: 'service' })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  it('opens on Settings with the key field focused, and the banner says why', async () => {
    await page.goto(fx.shell.url)
    await expect.poll(() => new URL(page.url()).hash).toBe('#/settings')
    const keyField = page.getByRole('textbox', { name: 'API key' })
    await expect.poll(() => keyField.evaluate((el) => el === document.activeElement)).toBe(true)
    await expect
      .poll(() => page.getByRole('alert', { name: 'API key' }).textContent())
      .toContain('nothing syncs until you enter your API key')
    expect(await page.getByRole('note', { name: 'Demo data' }).count()).toBe(0)
    await screenshot(page, 'own-data-before-key')
  })

  it('a wallet can be watched before the key: it is kept in the own mirror', async () => {
    await page.goto(`${fx.shell.url}#/watchlist`)
    await page.getByLabel('Wallet address').fill(testAddress(51))
    await page.getByLabel('Label (optional)').fill('Before the key')
    await page.getByRole('button', { name: 'Watch wallet' }).click()
    // Issue 48: the wallet is added from the first sync's dialog.
    await page
      .getByRole('dialog', { name: 'First sync' })
      .getByRole('button', { name: /^Start watching — first sync ≈/ })
      .click()
    await expect.poll(() => page.getByRole('navigation').textContent()).toContain('Before the key')
    // Day one: the empty cards say when their data will come, not just that there is none.
    await expect
      .poll(() => page.getByRole('main').textContent())
      .toContain('no snapshot yet: the first sync takes one, and the line starts a day after it.')
    expect(await page.getByRole('main').textContent()).toContain(
      "No token amounts yet: once a sync stores the watched wallets' history",
    )
    await screenshot(page, 'own-data-before-key-day-one')
    const listed = await fx.core.dispatch('watchlist:list', undefined)
    expect(listed.ok && (listed.result as { address: string }[]).map((w) => w.address)).toEqual([
      testAddress(51),
    ])
  })
})
