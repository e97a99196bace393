import BetterSqlite3 from 'better-sqlite3'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatAmount, formatAmountExact } from '../../src-shared/domain/display-text'
import { shortAddress } from '../../src-shared/domain/wallet-address'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startReviewApp, type ReviewApp } from '../helpers/review-app-fixture'

// Every number and every button tells the truth (issue 13), in Chromium against the web
// shell on demo data: one rule for amounts, a sidebar whose counts agree with its states,
// one name for an unlabelled wallet, buttons that say what they did.

/** Chromium's locale in these runs; the rule formats with the page's locale. */
const LOCALE = 'en-US'

describe('e2e: every number and every button tells the truth', () => {
  let app: ReviewApp
  let browser: Browser
  let page: Page
  let idle = ''

  const sidebar = () => page.getByRole('navigation', { name: 'Main' })
  const walletItem = (name: string) => sidebar().locator('li.item', { hasText: name })

  function storedCount(sql: string, ...params: unknown[]): number {
    const db = new BetterSqlite3(app.demoDatabasePath, { readonly: true })
    try {
      return (db.prepare(sql).get(...params) as { n: number }).n
    } finally {
      db.close()
    }
  }
  const transactionsOf = (address: string) =>
    storedCount(
      'select count(*) as n from transactions t join wallets w on w.id = t.wallet_id where w.address = ?',
      address,
    )

  /** Screenshots at the usual size and at the smallest window the app supports. */
  async function screenshotBothSizes(name: string): Promise<void> {
    await screenshot(page, name)
    await page.setViewportSize({ width: 1000, height: 700 })
    await screenshot(page, `${name}-1000x700`)
    await page.setViewportSize({ width: 1400, height: 900 })
  }

  beforeAll(async () => {
    app = await startReviewApp()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale: LOCALE })
  })
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  it('the sidebar "+" opens the form with the address field focused', async () => {
    await page.goto(app.shell.url)
    await expect
      .poll(() => sidebar().getByText('Up to date').count(), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(4)
    await page.getByRole('link', { name: 'Activity' }).click()
    await sidebar().getByRole('link', { name: 'Add a wallet' }).click()
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')))
      .toBe('address')
  })

  it('an unlabelled wallet has one name: sidebar, watchlist and add message', async () => {
    idle = app.profileAddress('idle')
    const name = shortAddress(idle)
    await page.keyboard.type(idle)
    await page.keyboard.press('Enter')
    // Issue 48: Enter opens the first sync's dialog; the wallet is added from it.
    await page
      .getByRole('dialog', { name: 'First sync' })
      .getByRole('button', { name: /^Start watching — first sync ≈/ })
      .click()
    await expect.poll(() => page.locator('#add-wallet-message').textContent()).toContain(name)
    const row = page.locator(`tr[data-address="${idle}"]`)
    await expect.poll(() => row.locator('td').first().textContent()).toContain(name)
    await expect.poll(() => walletItem(name).locator('.name').textContent()).toContain(name)
    await expect
      .poll(() => walletItem(name).getByText('Up to date').isVisible(), { timeout: 30_000 })
      .toBe(true)
  })

  it('sidebar during the first sync: once up to date, the badge counts every stored transaction and says what it counts', async () => {
    // The wallet was added after the page loaded, so its count was taken before it synced.
    const badge = walletItem(shortAddress(idle)).getByRole('img', { name: /new transaction/ })
    const stored = transactionsOf(idle)
    expect(stored).toBeGreaterThan(0)
    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe(String(stored))
    const meaning = `${stored} new transactions since you last opened ${shortAddress(idle)}`
    expect(await badge.getAttribute('aria-label')).toBe(meaning)
    expect(await badge.getAttribute('title')).toBe(meaning)
    // Every demo wallet that is up to date shows the count of what is stored (or 999+).
    for (const profile of ['casual', 'failed-transactions'] as const) {
      const address = app.profileAddress(profile)
      const count = transactionsOf(address)
      await expect
        .poll(() => walletItem(`Demo: ${profile}`).locator('.badge').textContent())
        .toBe(count > 999 ? '999+' : String(count))
    }
    await screenshotBothSizes('truth-01-sidebar-badges')
  })

  it('an unlabelled wallet has the same name as its page title', async () => {
    // Opening the wallet marks its transactions seen, so this comes after the badge.
    const name = shortAddress(idle)
    await page.locator(`tr[data-address="${idle}"]`).getByRole('button', { name }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain(name)
    await expect.poll(() => walletItem(name).locator('.badge').count()).toBe(0)
  })

  it('an up-to-date wallet with no transactions says so plainly', async () => {
    const empty = await app.watchProfile('empty', 'Never used')
    const item = walletItem('Never used')
    await expect
      .poll(() => item.locator('.sync').textContent(), { timeout: 30_000 })
      .toMatch(/Up to date\s*· no transactions/)
    await page.goto(`${app.shell.url.split('#')[0]}#/wallet/${empty}/history`)
    await expect
      .poll(() => page.getByText('Up to date: this wallet has no transactions.').isVisible())
      .toBe(true)
    await screenshot(page, 'truth-02-empty-wallet-history')
    await page.getByRole('tab', { name: 'Overview' }).click()
    await expect
      .poll(() => page.getByText('none: up to date, this wallet has no transactions').isVisible())
      .toBe(true)
  })

  it('one amount shown one way: the table uses the short rule, the tooltip and details the exact value', async () => {
    const address = app.profileAddress('failed-transactions')
    await page.goto(`${app.shell.url.split('#')[0]}#/wallet/${address}/history`)
    const grid = page.getByRole('grid', { name: 'Transaction history' })
    await expect
      .poll(() => grid.locator('.amount').count(), { timeout: 10_000 })
      .toBeGreaterThan(10)
    const shown = await grid.locator('.amount').evaluateAll((els) =>
      els.map((e) => ({
        exact: e.getAttribute('data-exact') ?? '',
        text: (e.firstChild?.textContent ?? '').trim(),
        title: e.getAttribute('title') ?? '',
      })),
    )
    for (const a of shown) {
      const signed = a.text.startsWith('+') || a.exact.startsWith('-')
      expect(a.text).toBe(formatAmount(a.exact, { locale: LOCALE, isSigned: signed }))
      expect(
        a.title.startsWith(formatAmountExact(a.exact, { locale: LOCALE, isSigned: signed })),
      ).toBe(true)
    }
    // A failed transaction's only change is its fee: the two read the same (−0.000058 beside
    // a fee of 0.0000575 before).
    // By its status cell: a named fee payer ("Demo: failed-transactions") also reads "failed".
    const failedRow = grid
      .getByRole('row')
      .filter({ has: page.locator('.failed') })
      .first()
    const [change, fee] = await failedRow
      .locator('.amount')
      .evaluateAll((els) => els.map((e) => (e.firstChild?.textContent ?? '').trim()))
    expect(change).toBe(`−${fee}`)
    await screenshot(page, 'truth-03-history-amounts')

    await failedRow.click()
    await page.keyboard.press('Enter')
    const details = page.getByRole('complementary', { name: 'Transaction details' })
    await expect.poll(() => details.isVisible()).toBe(true)
    const exactShown = await details.locator('.amount').evaluateAll((els) =>
      els.map((e) => ({
        exact: e.getAttribute('data-exact') ?? '',
        text: (e.firstChild?.textContent ?? '').trim(),
      })),
    )
    expect(exactShown.length).toBeGreaterThanOrEqual(2)
    for (const a of exactShown) {
      const signed = a.text.startsWith('+') || a.exact.startsWith('-')
      expect(a.text).toBe(formatAmountExact(a.exact, { locale: LOCALE, isSigned: signed }))
    }
    await screenshotBothSizes('truth-04-history-details')
    await page.keyboard.press('Escape')
  })

  it('"Sync now" shows it is queued or syncing, then that it finished', async () => {
    await page.goto(`${app.shell.url.split('#')[0]}#/wallet/${idle}/overview`)
    const status = page.locator('.sync-box .request')
    await page.getByRole('button', { name: 'Sync now' }).click()
    await expect
      .poll(() => status.textContent())
      .toMatch(/Sync queued|Syncing now|Sync finished at/)
    await expect
      .poll(() => status.textContent(), { timeout: 30_000 })
      .toMatch(/Sync finished at .+: up to date\./)
    await screenshotBothSizes('truth-05-sync-now-finished')
  })

  it('a notification names both legs of a swap, in the one amount rule, without naming the wallet twice', async () => {
    app.addActivity('casual', 1)
    const casual = app.profileAddress('casual')
    await page.goto(`${app.shell.url.split('#')[0]}#/wallet/${casual}/overview`)
    await page.getByRole('button', { name: 'Sync now' }).click()
    // The casual wallet's next transaction on the demo chain is a swap (the chain is seeded).
    const toast = page.getByRole('log', { name: 'Notifications' }).locator('.toast span')
    await expect
      .poll(() => toast.first().textContent(), { timeout: 30_000 })
      .toMatch(/^Swapped \d[\d,]*(\.\d+)? \S+ for \d[\d,]*(\.\d+)? \S+ on Demo: casual$/)
    await screenshot(page, 'truth-06-notification')
  })

  it('Remove on the wallet page says what happens to the stored history', async () => {
    const empty = app.profileAddress('empty')
    await page.goto(`${app.shell.url.split('#')[0]}#/wallet/${empty}/overview`)
    await page.getByRole('button', { name: 'Remove…' }).click()
    const dialog = page.getByRole('alertdialog', { name: 'Remove wallet' })
    await expect
      .poll(() => dialog.textContent())
      .toContain(
        'Stop watching Never used and delete its stored history from this computer: 0 transactions, its transfers, balances and sync progress. Credits already spent stay in the credit history.',
      )
    await screenshotBothSizes('truth-07a-wallet-page-remove-confirm')
    await dialog.getByRole('button', { name: 'Keep' }).click()
    await expect.poll(() => dialog.count()).toBe(0)
  })

  it('Remove says what happens to the stored history, and deletes it', async () => {
    const id = storedCount('select id as n from wallets where address = ?', idle)
    const stored = transactionsOf(idle)
    await page.getByRole('link', { name: 'Watchlist' }).click()
    await page
      .locator(`tr[data-address="${idle}"]`)
      .getByRole('button', { name: 'Remove…' })
      .click()
    const dialog = page.getByRole('alertdialog', { name: `Remove ${shortAddress(idle)}` })
    await expect
      .poll(() => dialog.textContent())
      .toContain(
        `Stop watching ${shortAddress(idle)} and delete its stored history from this computer: ${stored} transactions`,
      )
    await screenshotBothSizes('truth-07-remove-confirm')
    await dialog.getByRole('button', { name: 'Remove and delete its data' }).click()
    await expect.poll(() => page.locator(`tr[data-address="${idle}"]`).count()).toBe(0)
    expect(storedCount('select count(*) as n from transactions where wallet_id = ?', id)).toBe(0)
    expect(storedCount('select count(*) as n from sync_streams where wallet_id = ?', id)).toBe(0)
    expect(storedCount('select count(*) as n from balance_changes where wallet_id = ?', id)).toBe(0)
  })

  it('"Add demo wallets" adds the active trader it promises and says what it added, then goes', async () => {
    const result = page.locator('.demo .demo-result')
    await page.getByRole('button', { name: 'Add demo wallets' }).click()
    await expect
      .poll(() => result.textContent())
      .toMatch(/^Added 1 demo wallet: Demo: active-trader \(4 already there\)/)
    await expect.poll(() => walletItem('Demo: active-trader').count()).toBe(1)
    // While it syncs, the sidebar counts transactions, the badge's unit: never more than
    // the mirror holds (items of every stream would be).
    const trader = walletItem('Demo: active-trader')
    const counted = trader.locator('.items')
    await expect
      .poll(() => counted.textContent(), { timeout: 20_000 })
      .toMatch(/^[1-9][\d,]* transactions$/)
    const shown = Number((await counted.textContent())?.replace(/\D/g, ''))
    expect(shown).toBeLessThanOrEqual(transactionsOf(app.profileAddress('active-trader')))
    await screenshot(page, 'truth-08-demo-wallets-added')
    // Every demo wallet is watched: the button is gone, and after a reload the whole card.
    await expect.poll(() => page.getByRole('button', { name: 'Add demo wallets' }).count()).toBe(0)
    await page.reload()
    await expect
      .poll(() => page.getByRole('table', { name: 'Watched wallets' }).isVisible())
      .toBe(true)
    const traderAddress = app.profileAddress('active-trader')
    await expect.poll(() => page.locator(`tr[data-address="${traderAddress}"]`).count()).toBe(1)
    expect(await page.locator('section.demo').count()).toBe(0)
  })
})
