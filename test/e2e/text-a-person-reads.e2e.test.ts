import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startReviewApp, type ReviewApp } from '../helpers/review-app-fixture'

// Text a person reads (issue 29, findings 8 and 10), in Chromium on demo data: the look-up
// desk and the wallet pages write money as $x,xxx.xx, "1 credit", counted nouns and one
// date format (switchable to UTC in Settings); Amount × Price gives Value on every row of
// the Overview balances; a wallet only looked up is not called "removed".

/** The one date format: year first, 24-hour clock; UTC times say so. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?( UTC)?$/
const MONEY = /^−?\$\d{1,3}(,\d{3})*\.\d{2}$/

describe('e2e: text a person reads', () => {
  let app: ReviewApp
  let browser: Browser
  let page: Page
  const base = () => app.shell.url.split('#')[0]!
  const runButton = () => page.getByRole('button', { name: /^Look up — / })
  const lookupHash = (request: object) =>
    `${base()}#/lookup/${encodeURIComponent(JSON.stringify(request))}`
  /** Reads a number as shown: "$1,234.56", "−0.5", "1,234.567". */
  const shownNumber = (text: string) => Number(text.replace(/[$,\s]/g, '').replace('−', '-'))

  async function shot(name: string): Promise<void> {
    const height = await page.locator('main.main').evaluate((el) => el.scrollHeight + 40)
    await page.setViewportSize({ width: 1400, height: Math.min(Math.max(height, 900), 5000) })
    await screenshot(page, name)
    await page.setViewportSize({ width: 1400, height: 900 })
  }

  beforeAll(async () => {
    app = await startReviewApp()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale: 'en-US' })
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  let lookedUp = ''

  it('the demo wallets sync on their own', async () => {
    await page.goto(app.shell.url)
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Main' }).getByText('Up to date').count(), {
        timeout: 60_000,
      })
      .toBeGreaterThanOrEqual(4)
  })

  it('the look-up desk: money to the cent with separators, counted nouns, one date format', async () => {
    const watched = (await app.call('watchlist:list', undefined)).map((w) => w.address)
    lookedUp = (await app.call('demo:wallets', undefined)).find((a) => !watched.includes(a))!
    expect(lookedUp).toBeDefined()
    await page.goto(lookupHash({ view: 'wallet', address: lookedUp }))
    await expect.poll(() => runButton().textContent()).toMatch(/^Look up — [\d,]+ credits$/)
    await runButton().click()
    const fetched = page.getByTestId('fetched')
    await expect.poll(() => fetched.isVisible(), { timeout: 20_000 }).toBe(true)
    expect(await fetched.textContent()).toMatch(
      /Fetched \d{4}-\d{2}-\d{2} \d{2}:\d{2} · cost [\d,]+ credits/,
    )

    const value = page.locator('dt', { hasText: 'Value' }).locator('xpath=following-sibling::dd[1]')
    expect((await value.textContent())!.trim()).toMatch(MONEY)
    const rows = page.getByRole('table', { name: 'Looked-up balances' }).locator('tbody tr')
    for (const row of await rows.all())
      expect((await row.locator('td').nth(5).textContent())!.trim()).toMatch(MONEY)
    const headings = (await page.locator('h2 .small-print').allTextContents()).join(' | ')
    expect(headings).toMatch(/· \d+ tokens?\b/)
    expect(headings).toMatch(/· \d+ assets?\b/)
    expect(headings).toMatch(/first page, \d+ transactions?\b/)
    const times = await page
      .getByRole('table', { name: 'Looked-up history' })
      .locator('time')
      .allTextContents()
    expect(times.length).toBeGreaterThan(0)
    for (const t of times) expect(t.trim()).toMatch(DATE_TIME)
    expect(
      await page.getByRole('columnheader', { name: /Balance changes \(net of fees\)/ }).count(),
    ).toBe(1)
    await shot('text-01-lookup-wallet')
  })

  it('a look-up of one credit says "1 credit"', async () => {
    await page.goto(lookupHash({ view: 'priority-fee', accounts: [lookedUp] }))
    await expect.poll(() => runButton().textContent()).toBe('Look up — 1 credit')
    await runButton().click()
    await expect
      .poll(() => page.getByTestId('fetched').textContent(), { timeout: 20_000 })
      .toMatch(/cost 1 credit$/)
    await shot('text-02-lookup-fee')
  })

  it('Activity: the looked-up wallet is not "(removed)"', async () => {
    await page.goto(`${base()}#/activity`)
    const byWallet = page.getByRole('table', { name: 'Credits by wallet (all time)' })
    await expect.poll(() => byWallet.locator('tbody tr').count()).toBeGreaterThan(1)
    const row = byWallet.locator('tbody tr', { hasText: lookedUp.slice(0, 4) })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.textContent()).toContain('(looked up, not watched)')
    expect(await byWallet.textContent()).not.toContain('(removed)')
    await shot('text-03-activity')
  })

  it('Overview balances: the shown Amount × the shown Price gives the shown Value on every row', async () => {
    const [address] = (await app.call('watchlist:list', undefined))
      .map((w) => w.address)
      .filter((a) => a !== lookedUp)
    await page.goto(`${base()}#/wallet/${address}/overview`)
    const rows = page.getByRole('table', { name: 'Token balances' }).locator('tbody tr')
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThan(1)
    for (const row of await rows.all()) {
      const cells = await row.locator('td').allTextContents()
      const [amount, price, value] = [cells[3]!.trim(), cells[4]!.trim(), cells[5]!.trim()]
      expect(value).toMatch(MONEY)
      // The value is the exact amount × the price, to the cent: the shown amount (6 fraction
      // digits at least) × the shown price (every digit) lands within that cent's rounding.
      const product = shownNumber(amount) * shownNumber(price)
      expect(
        Math.abs(product - shownNumber(value)),
        `${amount} × ${price} = ${product}, shown ${value}`,
      ).toBeLessThan(0.0051 + Math.abs(product) * 1e-12)
    }
    await shot('text-04-overview')
  })

  it('one date format on the wallet pages, and UTC when Settings says so', async () => {
    const [address] = (await app.call('watchlist:list', undefined)).map((w) => w.address)
    await page.goto(`${base()}#/wallet/${address}/history`)
    const times = page.locator('[role="gridcell"] time')
    await expect.poll(() => times.count(), { timeout: 20_000 }).toBeGreaterThan(0)
    for (const t of await times.allTextContents()) {
      expect(t.trim()).toMatch(DATE_TIME)
      expect(t).not.toContain('UTC')
    }

    await page.goto(`${base()}#/settings`)
    await page.getByTestId('time-zone').selectOption('utc')
    await expect.poll(async () => (await app.call('settings:get', undefined)).timeZone).toBe('utc')
    await shot('text-05-settings-utc')
    await page.goto(`${base()}#/wallet/${address}/history`)
    await expect
      .poll(async () => (await times.first().textContent())?.trim(), { timeout: 20_000 })
      .toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/)
    await shot('text-06-history-utc')
    await app.call('settings:update', { timeZone: 'local' })
  })
})
