import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startReviewApp, type ReviewApp } from '../helpers/review-app-fixture'

// The Feed page (issue 30) in Chromium against the web shell on demo data: every demo
// wallet's transactions newest first, reached from the sidebar and from the watchlist's
// Latest activity card; a tag given on the watchlist filters it, as does the type; "Show
// more" pages on by keyset; transactions that land after a visit are counted and marked
// new on the next one, and failed ones are marked.

describe('e2e: the feed', () => {
  let app: ReviewApp
  let browser: Browser
  let page: Page

  const rows = () =>
    page.getByRole('list', { name: /Transactions of every watched wallet/ }).getByRole('listitem')
  const unreadLine = () => page.getByTestId('feed-unread')
  const filter = (name: string) =>
    page.getByRole('form', { name: 'Feed filters' }).getByLabel(name, { exact: true })

  beforeAll(async () => {
    app = await startReviewApp()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale: 'en-US' })
  })
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  it('the demo wallets sync, and Latest activity links to the feed', async () => {
    await page.goto(app.shell.url)
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Main' }).getByText('Up to date').count(), {
        timeout: 60_000,
      })
      .toBeGreaterThanOrEqual(4)
    const link = page.getByRole('link', { name: 'See all in the feed →' })
    await expect.poll(() => link.count()).toBe(1)
    await link.click()
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/feed')
  })

  it('lists every wallet’s transactions newest first, with type, summary, amounts and failed marked', async () => {
    await expect.poll(() => rows().count(), { timeout: 20_000 }).toBe(50)
    await expect
      .poll(() => unreadLine().textContent())
      .toContain('Nothing new since you last looked.')
    const wallets = await rows().locator('.wallet').allTextContents()
    expect(new Set(wallets).size).toBeGreaterThan(1)
    const times = await rows()
      .locator('time')
      .evaluateAll((els) => els.map((e) => Date.parse(e.getAttribute('datetime') ?? '')))
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeLessThanOrEqual(times[i - 1]! + 0)
    const summaries = await rows().locator('.summary').allTextContents()
    expect(summaries.some((s) => /^(Received|Sent|Swapped|Bought|Sold) /.test(s))).toBe(true)
    await screenshot(page, 'feed-01-every-wallet')
    // The failed-transactions demo wallet's rows carry the mark.
    await filter('Wallet').selectOption({ label: 'Demo: failed-transactions' })
    await expect
      .poll(() => rows().locator('.failed-badge').count(), { timeout: 10_000 })
      .toBeGreaterThan(0)
    await rows().locator('.failed-badge').first().scrollIntoViewIfNeeded()
    await screenshot(page, 'feed-02-failed-marked')
    await page.getByRole('button', { name: 'Clear' }).click()
  })

  it('filters by type, and Show more pages on without repeats', async () => {
    await filter('Type').selectOption('SWAP')
    await expect
      .poll(async () => new Set(await rows().locator('.kind').allTextContents()))
      .toEqual(new Set(['SWAP']))
    await filter('Type').selectOption('')
    await expect.poll(() => rows().count()).toBe(50)
    await page.getByRole('button', { name: 'Show more' }).click()
    await expect.poll(() => rows().count()).toBe(100)
    const keys = await rows().evaluateAll((els) =>
      els.map(
        (e) =>
          `${e.getAttribute('data-signature')} ${e.querySelector('.wallet')?.getAttribute('title')}`,
      ),
    )
    expect(new Set(keys).size).toBe(100)
  })

  it('a tag given on the watchlist filters the feed', async () => {
    const collector = app.profileAddress('nft-collector')
    await page.goto(`${app.shell.url}#/watchlist`)
    const row = page.locator(`tr[data-address="${collector}"]`)
    await row.getByRole('button', { name: '+ tag' }).click()
    await row.getByLabel('New tags').fill('Collectors')
    await row.getByRole('button', { name: 'Add', exact: true }).click()
    await expect.poll(() => row.locator('[data-tag="collectors"]').count()).toBe(1)
    await screenshot(page, 'feed-03-watchlist-tag-chips')
    await page.getByRole('link', { name: 'Feed', exact: true }).click()
    await filter('Tag').selectOption('collectors')
    await expect
      .poll(
        async () =>
          new Set(
            await rows()
              .locator('.wallet')
              .evaluateAll((els) => els.map((e) => e.getAttribute('title'))),
          ),
      )
      .toEqual(new Set([collector]))
    await screenshot(page, 'feed-04-tag-filter')
    await page.getByRole('button', { name: 'Clear' }).click()
  })

  it('transactions that land after a visit are counted and marked new on the next one', async () => {
    await page.getByRole('link', { name: 'Watchlist', exact: true }).click()
    app.addActivity('casual', 2)
    await app.call('sync:run', { address: app.profileAddress('casual') })
    await page.getByRole('link', { name: 'Feed', exact: true }).click()
    await expect
      .poll(() => unreadLine().textContent(), { timeout: 10_000 })
      .toContain('2 new transactions since you last looked.')
    expect(await rows().and(page.locator('[data-unread="true"]')).count()).toBe(2)
    expect(await rows().first().getAttribute('data-unread')).toBe('true')
    await screenshot(page, 'feed-05-new-since-last-visit')
    // Seen now: the next visit has nothing new.
    await page.getByRole('link', { name: 'Watchlist', exact: true }).click()
    await page.getByRole('link', { name: 'Feed', exact: true }).click()
    await expect
      .poll(() => unreadLine().textContent())
      .toContain('Nothing new since you last looked.')
  })
})
