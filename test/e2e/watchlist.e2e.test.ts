import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestWebShell } from '../helpers/web-shell-fixture'
import { testAddress } from '../helpers/wallets'

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

describe('e2e: the watchlist in Chromium against the web shell', () => {
  let fx: Fixture
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    fx = await startTestWebShell()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  it('opens from the printed URL, shows the empty watchlist and hides the token', async () => {
    await page.goto(fx.shell.url)
    await expect
      .poll(() => page.getByRole('heading', { name: 'Watchlist', level: 1 }).isVisible())
      .toBe(true)
    await expect
      .poll(() => page.getByText('No wallets on the watchlist yet').isVisible())
      .toBe(true)
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/Connected.*Demo data/)
    expect(page.url()).not.toContain('token=')
    await screenshot(page, 'watchlist-empty')
  })

  it('adds a wallet with a label and lists it in the table and the sidebar', async () => {
    const address = testAddress(31)
    await page.getByLabel('Wallet address').fill(address)
    await page.getByLabel('Label (optional)').fill('Trading wallet')
    await page.getByRole('button', { name: 'Watch wallet' }).click()
    // Issue 48: the first sync's depth and cost are chosen in a dialog before it is added.
    await page
      .getByRole('dialog', { name: 'First sync' })
      .getByRole('button', { name: /^Start watching — first sync ≈/ })
      .click()
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0)
    const row = page.locator(`tr[data-address="${address}"]`)
    await expect.poll(() => row.textContent()).toContain('Trading wallet')
    await expect.poll(() => page.getByRole('navigation').textContent()).toContain('Trading wallet')
    await screenshot(page, 'watchlist-added')
  })

  it('still shows the wallet after a reload (stored in SQLite, the tab keeps the token)', async () => {
    await page.reload()
    await expect.poll(() => page.locator(`tr[data-address="${testAddress(31)}"]`).count()).toBe(1)
    const stored = await fx.core.dispatch('watchlist:list', undefined)
    expect(stored.ok && stored.result).toEqual([
      expect.objectContaining({ address: testAddress(31) }),
    ])
  })

  it('shows a clear error for an invalid address and adds nothing', async () => {
    await page.getByLabel('Wallet address').fill('0OIl-this-is-not-an-address-at-all-000')
    await page.getByRole('button', { name: 'Watch wallet' }).click()
    // The form's own alert (the page also says, above, that syncing waits for a key).
    const alert = page.getByRole('alert').filter({ hasNotText: 'API key' })
    await expect
      .poll(() => alert.textContent())
      .toMatch(/Address contains '0', 'O', 'I', 'l', '-'.*base58/)
    expect(await page.getByLabel('Wallet address').getAttribute('aria-invalid')).toBe('true')
    await screenshot(page, 'watchlist-invalid-address')
    await expect.poll(() => page.locator('tbody tr[data-address]').count()).toBe(1)
  })

  it('shows the duplicate error from the core', async () => {
    await page.getByLabel('Wallet address').fill(testAddress(31))
    await page.getByRole('button', { name: 'Watch wallet' }).click()
    const dialog = page.getByRole('dialog', { name: 'First sync' })
    await dialog.getByRole('button', { name: /^Start watching — first sync ≈/ }).click()
    await expect
      .poll(() => dialog.getByRole('alert').filter({ hasNotText: 'API key' }).textContent())
      .toMatch(/already on the watchlist as “Trading wallet”/)
    // Refused, nothing more is added; closing the dialog leaves the page usable.
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0)
    await expect.poll(() => page.locator('tbody tr[data-address]').count()).toBe(1)
  })

  it('renames and removes a wallet', async () => {
    const row = page.locator(`tr[data-address="${testAddress(31)}"]`)
    await row.getByRole('button', { name: 'Rename' }).click()
    await row.getByLabel('New label').fill('Cold storage')
    await row.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => row.textContent()).toContain('Cold storage')
    await row.getByRole('button', { name: 'Remove…' }).click()
    await page
      .getByRole('alertdialog', { name: 'Remove Cold storage' })
      .getByRole('button', { name: 'Remove and delete its data' })
      .click()
    await expect
      .poll(() => page.getByText('No wallets on the watchlist yet').isVisible())
      .toBe(true)
  })

  it('a page opened without the token reaches no data: its socket is refused', async () => {
    const stranger = await browser.newPage()
    await stranger.goto(`http://127.0.0.1:${fx.shell.port}/`)
    await expect.poll(() => stranger.getByRole('status').textContent()).toMatch(/Disconnected/)
    expect(await stranger.locator('tbody tr').count()).toBe(0)
    await stranger.close()
  })

  it('keeps the token out of cookies and the address bar after the first load', async () => {
    expect(await page.context().cookies()).toEqual([])
    expect(page.url()).not.toContain('token')
  })
})
