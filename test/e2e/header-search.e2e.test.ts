import BetterSqlite3 from 'better-sqlite3'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startReviewApp, type ReviewApp } from '../helpers/review-app-fixture'

// The header search (issue 29) in Chromium against the web shell on demo data: typing a
// label or a token symbol lists what the mirror knows under the field, the keyboard moves
// through the list, and choosing a hit opens it — the wallet's page or the look-up desk.

describe('e2e: the header search finds what the mirror knows', () => {
  let app: ReviewApp
  let browser: Browser
  let page: Page

  const search = () => page.getByRole('combobox', { name: /Search the mirror/ })
  const results = () => page.getByRole('listbox', { name: 'Search results' })
  const options = () => results().getByRole('option')

  /** A token symbol the demo mirror holds once its wallets synced (not SOL's). */
  function storedSymbol(): { mint: string; symbol: string } {
    const db = new BetterSqlite3(app.demoDatabasePath, { readonly: true })
    try {
      return db
        .prepare(
          `select mint, symbol from mints where symbol is not null and symbol <> 'SOL'
           order by length(symbol) desc, symbol limit 1`,
        )
        .get() as { mint: string; symbol: string }
    } finally {
      db.close()
    }
  }

  beforeAll(async () => {
    app = await startReviewApp()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale: 'en-US' })
  })
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  it('the demo wallets sync on their own, so the mirror knows their tokens', async () => {
    await page.goto(app.shell.url)
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Main' }).getByText('Up to date').count(), {
        timeout: 60_000,
      })
      .toBeGreaterThanOrEqual(4)
  })

  it('typing part of a label lists the watched wallet; arrows and Enter open its page', async () => {
    const collector = app.profileAddress('nft-collector')
    await search().click()
    await search().pressSequentially('collector')
    await expect.poll(() => options().count()).toBeGreaterThan(0)
    const first = options().first()
    expect(await first.textContent()).toContain('Watched wallet')
    expect(await first.textContent()).toContain('Demo: nft-collector')
    expect(await search().getAttribute('aria-expanded')).toBe('true')
    await screenshot(page, 'header-search-01-label')

    // Escape closes the list; an arrow opens it again on the first hit.
    await search().press('Escape')
    await expect.poll(() => results().count()).toBe(0)
    await search().press('ArrowDown')
    await expect.poll(() => first.getAttribute('aria-selected')).toBe('true')
    expect(await search().getAttribute('aria-activedescendant')).toBe(
      await first.getAttribute('id'),
    )
    await search().press('Enter')
    await expect
      .poll(() => page.evaluate(() => location.hash))
      .toBe(`#/wallet/${collector}/overview`)
    expect(await search().inputValue()).toBe('')
    await expect.poll(() => results().count()).toBe(0)
  })

  it('a .sol name the service gave a watched wallet finds it, saying what matched', async () => {
    await search().click()
    await search().pressSequentially('pixelhoard')
    const first = options().first()
    await expect.poll(() => first.textContent()).toContain('Demo: nft-collector')
    expect(await first.textContent()).toMatch(/(name|domain): pixelhoard\.sol/)
    await screenshot(page, 'header-search-03-sol-name')
    await search().press('Escape')
    await search().fill('')
  })

  it('typing a token symbol lists the token; choosing it opens its look-up, for free', async () => {
    const { mint, symbol } = storedSymbol()
    await search().click()
    await search().pressSequentially(symbol.toLowerCase())
    const hit = options().filter({ hasText: 'Token' }).filter({ hasText: symbol }).first()
    await expect.poll(() => hit.count()).toBe(1)
    // Exact matches rank first.
    expect(await options().first().textContent()).toContain(symbol)
    await screenshot(page, 'header-search-02-token')
    await hit.click()
    await expect
      .poll(() => page.evaluate(() => decodeURIComponent(location.hash)))
      .toBe(`#/lookup/${JSON.stringify({ view: 'asset', ids: [mint] })}`)
    await expect
      .poll(() => page.getByRole('button', { name: /^Look up — / }).isVisible())
      .toBe(true)
  })
})
