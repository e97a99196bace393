import BetterSqlite3 from 'better-sqlite3'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decimalFromRaw } from '../../src-shared/domain/exact-amount'
import type { ChannelInput, Channel } from '../../src-shared/ipc/contract'
import { resolve } from 'node:path'
import { launchChromium, SCREENSHOT_DIR, screenshot } from '../helpers/chromium'
import { startReviewApp, type ReviewApp } from '../helpers/review-app-fixture'

/** A value as its tooltip writes it: every digit, thousands separated (`$21,902.387…`). */
const exactDollars = (value: number): string =>
  `$${String(value).replace(/^\d+/, (whole) => Number(whole).toLocaleString('en-US'))}`

// The whole wallet (issue 14), in Chromium against the web shell on demo data: every NFT,
// compressed holdings, the service's names and funder, balances on a past day, and the
// watchlist as a dashboard whose numbers are the core's.

describe('e2e: the whole wallet', () => {
  let app: ReviewApp
  let browser: Browser
  let page: Page

  const sidebar = () => page.getByRole('navigation', { name: 'Main' })
  const base = () => app.shell.url.split('#')[0]

  const call = <C extends Channel>(channel: C, input: ChannelInput<C>) => app.call(channel, input)

  function storedRows<T>(sql: string, ...params: unknown[]): T[] {
    const db = new BetterSqlite3(app.demoDatabasePath, { readonly: true })
    try {
      return db.prepare(sql).all(...params) as T[]
    } finally {
      db.close()
    }
  }

  /** Screenshots at the usual size and at the smallest window the app supports. */
  async function screenshotBothSizes(name: string): Promise<void> {
    await page.setViewportSize({ width: 1400, height: 900 })
    await screenshot(page, `${name}-1400x900`)
    await page.setViewportSize({ width: 1000, height: 700 })
    await screenshot(page, `${name}-1000x700`)
    await page.setViewportSize({ width: 1400, height: 900 })
  }

  /** The NFT card at the top of the window, its grid scrolled to the end, at both sizes. */
  async function screenshotNftsBothSizes(name: string): Promise<void> {
    for (const [width, height] of [
      [1400, 900],
      [1000, 700],
    ] as const) {
      await page.setViewportSize({ width, height })
      await page.locator('#nfts-h').evaluate((el) => el.scrollIntoView({ block: 'start' }))
      await page
        .getByRole('region', { name: 'NFTs', exact: true })
        .evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
      await page.screenshot({ path: resolve(SCREENSHOT_DIR, `${name}-${width}x${height}.png`) })
    }
    await page.setViewportSize({ width: 1400, height: 900 })
  }

  async function openOverview(address: string): Promise<void> {
    await page.goto(`${base()}#/wallet/${address}/overview`)
    await expect
      .poll(() => page.getByTestId('funded-by').isVisible(), { timeout: 10_000 })
      .toBe(true)
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

  it('the demo wallets sync on their own', async () => {
    await page.goto(app.shell.url)
    await expect
      .poll(() => sidebar().getByText('Up to date').count(), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(4)
    // Names and funders are asked once the holdings and transfers are stored.
    const unnamed = () =>
      storedRows<{ n: number }>(
        `select count(*) as n from wallets w
         where not exists (select 1 from address_names n where n.address = w.address)
            or not exists (select 1 from wallet_funding f where f.wallet_id = w.id)`,
      )[0]!.n
    await expect.poll(unnamed, { timeout: 30_000 }).toBe(0)
  }, 90_000)

  it('the collector’s Overview shows all 173 NFTs, the last one reachable by scrolling', async () => {
    const collector = app.profileAddress('nft-collector')
    const whole = await call('wallet:whole', { address: collector })
    expect(whole.holdings.nfts).toHaveLength(173)
    await openOverview(collector)
    await expect.poll(() => page.getByTestId('nft-count').textContent()).toBe('· 173')
    const grid = page.getByRole('region', { name: 'NFTs', exact: true })
    const cards = grid.locator('li.nft')
    await expect.poll(() => cards.count()).toBeGreaterThan(0)
    // Virtualised: fewer cards than NFTs are in the page at once.
    expect(await cards.count()).toBeLessThan(173)
    await screenshotBothSizes('whole-01-collector-overview')
    // Scroll the grid to its end: the last NFT in the list is shown.
    const nfts = await call('nfts:list', { address: collector })
    const last = nfts.at(-1)!
    await grid.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
    await expect
      .poll(() => grid.locator('li.nft .name').last().getAttribute('title'))
      .toBe(last.name)
    expect(await grid.locator('li.nft .name').last().isVisible()).toBe(true)
    await screenshotNftsBothSizes('whole-01b-collector-nfts-end')
    // Every NFT is rendered at some point of the scroll, each exactly once.
    const seen = new Set<string>()
    await grid.evaluate((el) => el.scrollTo({ top: 0 }))
    for (let top = 0; ;) {
      for (const title of await grid
        .locator('li.nft .name')
        .evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? '')))
        seen.add(title)
      const next = await grid.evaluate((el) => {
        el.scrollBy({ top: el.clientHeight })
        return el.scrollTop
      })
      if (next === top) break
      top = next
    }
    expect(seen.size).toBe(new Set(nfts.map((n) => n.name)).size)
  })

  it('the compressed holder’s Overview shows its compressed SOL, counted in the value', async () => {
    const holder = app.profileAddress('compressed-holder')
    const whole = await call('wallet:whole', { address: holder })
    expect(whole.holdings.compressed.lamports).not.toBeNull()
    await openOverview(holder)
    const table = page.getByRole('table', { name: 'Compressed holdings' })
    const sol = table.locator('tr[data-mint="compressed-sol"] .amount')
    await expect
      .poll(() => sol.getAttribute('data-exact'))
      .toBe(decimalFromRaw(whole.holdings.compressed.lamports!, 9))
    for (const t of whole.holdings.compressed.tokens) {
      expect(
        await table.locator(`tr[data-mint="${t.mint}"] .amount`).getAttribute('data-exact'),
      ).toBe(t.amount)
    }
    const value = page.getByTestId('wallet-value').locator('span').first()
    // The tooltip is the exact value: the tokens' and the compressed holdings' together.
    expect(await value.getAttribute('title')).toBe(exactDollars(whole.valueUsd))
    const tokensUsd = whole.holdings.tokens.reduce((sum, t) => sum + (t.valueUsd ?? 0), 0)
    expect(whole.valueUsd).toBeGreaterThan(tokensUsd)
    // The sidebar counts the same value.
    const item = sidebar().locator('li.item', { hasText: 'Demo: compressed-holder' })
    await expect
      .poll(() => item.locator('.usd').getAttribute('title'))
      .toBe(exactDollars(whole.valueUsd))
    await screenshotBothSizes('whole-02-compressed-overview')
  })

  it('shows the service’s name for the wallet and who funded it, by name', async () => {
    const named = storedRows<{ address: string; name: string }>(
      `select w.address, n.name from wallets w join address_names n on n.address = w.address
       where n.status = 'named'`,
    )
    expect(named.length).toBeGreaterThan(0)
    const { address, name } = named[0]!
    await openOverview(address)
    await expect.poll(() => page.getByTestId('identity').textContent()).toContain(name)

    const funded = storedRows<{ address: string }>(
      `select w.address from wallets w join wallet_funding f on f.wallet_id = w.id
       where f.status = 'found'`,
    )
    expect(funded.length).toBeGreaterThan(0)
    const whole = await call('wallet:whole', { address: funded[0]!.address })
    const funder = whole.fundedBy!
    await openOverview(funded[0]!.address)
    const shown = page.getByTestId('funded-by')
    if (funder.funderName) await expect.poll(() => shown.textContent()).toContain(funder.funderName)
    expect(await shown.locator('.mono').getAttribute('title')).toBe(funder.funder)
    expect(await shown.getByRole('button', { name: 'Copy funder address' }).isVisible()).toBe(true)
    if (funder.amount)
      expect(await shown.locator('.amount').getAttribute('data-exact')).toBe(funder.amount)
  })

  it('balances on a past day come from the mirror when it covers the day, and say so', async () => {
    const casual = app.profileAddress('casual')
    const [newest] = storedRows<{ sec: number }>(
      `select max(t.block_time_sec) as sec from transactions t join wallets w on w.id = t.wallet_id
       where w.address = ?`,
      casual,
    )
    const date = new Date(newest!.sec * 1000).toISOString().slice(0, 10)
    const plan = await call('balances:at-plan', { address: casual, date })
    expect(plan.coveredLocally).toBe(true)
    const truth = await call('balances:at', { address: casual, date, source: 'local' })
    expect(truth.balances.length).toBeGreaterThan(0)
    await openOverview(casual)
    await page.getByLabel('Balances on date').fill(date)
    const table = page.getByRole('table', { name: `Balances on ${date}` })
    await expect.poll(() => table.locator('tbody tr').count()).toBe(truth.balances.length)
    for (const b of truth.balances) {
      expect(
        await table.locator(`tr[data-mint="${b.mint}"] .amount`).getAttribute('data-exact'),
      ).toBe(b.amount)
    }
    expect(await page.locator('p.source').getAttribute('data-source')).toBe('local')
    expect(await page.locator('p.source').textContent()).toContain('local mirror')
  })

  it('a day the mirror cannot rebuild shows the service’s cost and asks only on confirmation', async () => {
    const wallet = app.profileAddress('failed-transactions')
    const date = '2020-01-01'
    // A history partial by its depth: watched again, its first sync holds only the newest 50
    // transactions, so days before the oldest stored one are unknown. (A depth set after a
    // backfill that reached the start leaves the history whole: nothing older exists.)
    const label = (await call('watchlist:list', undefined)).find((w) => w.address === wallet)?.label
    await call('watchlist:remove', { address: wallet })
    await call('watchlist:add', {
      address: wallet,
      label: label ?? '',
      depth: { maxTransactions: 50, sinceSec: null },
    })
    await expect
      .poll(
        async () => (await call('sync:status', undefined)).find((s) => s.address === wallet)?.state,
        { timeout: 60_000 },
      )
      .toBe('up-to-date')
    const plan = await call('balances:at-plan', { address: wallet, date })
    expect(plan.coveredLocally).toBe(false)
    const spentBefore = (await call('credits:overview', undefined)).totalCredits
    await openOverview(wallet)
    await page.getByLabel('Balances on date').fill(date)
    const ask = page.getByRole('button', {
      name: `Ask the service: ${plan.serviceCredits.toLocaleString('en-US')} credits`,
    })
    await expect.poll(() => ask.isVisible()).toBe(true)
    // Nothing was asked yet.
    expect((await call('credits:overview', undefined)).totalCredits).toBe(spentBefore)
    await screenshot(page, 'whole-03-balance-at-ask')
    await ask.click()
    await expect.poll(() => page.locator('p.source').getAttribute('data-source')).toBe('service')
    expect(await page.locator('p.source').textContent()).toContain('the service')
    expect((await call('credits:overview', undefined)).totalCredits).toBeGreaterThan(spentBefore)
  }, 90_000)

  it('the watchlist shows the total of `watchlist:totals`, its top tokens and all of them on demand', async () => {
    await page.goto(`${base()}#/watchlist`)
    const totals = await call('watchlist:totals', undefined)
    const total = page.getByTestId('watchlist-total')
    await expect.poll(() => total.getAttribute('title')).toBe(exactDollars(totals.valueUsd))
    expect(await total.textContent()).toMatch(/^\s*\$[\d,.]+[KM]?\s*$/)
    const rows = page.getByRole('table', { name: 'Value by token' }).locator('tbody tr')
    const top = totals.tokens.slice(0, 3)
    await expect.poll(() => rows.count()).toBe(top.length)
    for (const [i, t] of top.entries()) {
      expect(await rows.nth(i).getAttribute('data-mint')).toBe(t.mint)
      expect(await rows.nth(i).locator('.amount').first().getAttribute('data-exact')).toBe(t.amount)
    }
    // The demo watchlist holds more tokens than the three shown at first.
    expect(totals.tokens.length).toBeGreaterThan(3)
    await page.getByRole('button', { name: `Show all ${totals.tokens.length} tokens` }).click()
    await expect.poll(() => rows.count()).toBe(totals.tokens.length)
  })

  it('the watchlist shows the latest transfers across wallets, by name, and today’s credits', async () => {
    const latest = await call('activity:latest', { limit: 40 })
    // One entry per transaction: its transfers (a swap's legs) together.
    const transactions = [...new Set(latest.map((t) => `${t.walletAddress} ${t.signature}`))]
    const shown = transactions.slice(0, 8).map((key) => key.split(' ')[1])
    const list = page.getByRole('list', { name: 'Latest transfers across the watchlist' })
    await expect
      .poll(() => list.locator('li').evaluateAll((els) => els.map((e) => e.dataset.signature)))
      .toEqual(shown)
    // Each entry lists every leg of its transaction.
    const firstLegs = latest.filter((t) => t.signature === shown[0])
    expect(
      await list
        .locator('li')
        .first()
        .locator('.amount')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-exact'))),
    ).toEqual(firstLegs.map((t) => (t.direction === 'out' ? `-${t.amountText}` : t.amountText)))
    // Newest first across every wallet: no stored transfer is newer than the first shown.
    const [newest] = storedRows<{ sec: number }>('select max(block_time_sec) as sec from transfers')
    expect(latest[0]!.blockTimeSec).toBe(newest!.sec)
    // Shown as the core counts them (read again at each look: a sync may still be spending).
    await expect
      .poll(async () => {
        const credits = await call('credits:overview', undefined)
        const shown = await page.getByTestId('credits-today').textContent()
        return shown === credits.todayCredits.toLocaleString('en-US')
      })
      .toBe(true)
    await screenshotBothSizes('whole-04-watchlist')
  })

  it('the Add demo wallets card shows while a demo wallet is missing', async () => {
    const demo = await call('demo:wallets', undefined)
    const watched = new Set((await call('watchlist:list', undefined)).map((w) => w.address))
    expect(demo.some((a) => !watched.has(a))).toBe(true)
    await expect
      .poll(() => page.getByRole('button', { name: 'Add demo wallets' }).isVisible())
      .toBe(true)
  })

  it('Transfers and History show the service’s name of a counterparty, the address on hover', async () => {
    // Counterparties are named after the sync stores the transfers: wait for the names.
    const namedTransfers = () =>
      storedRows<{ wallet: string; signature: string; party: string; name: string }>(
        `select w.address as wallet, t.signature, t.counterparty as party, n.name from transfers t
       join wallets w on w.id = t.wallet_id
       join address_names n on n.address = t.counterparty and n.status = 'named'
       where t.counterparty not in (select address from wallets)
       order by t.block_time_sec desc limit 1`,
      )
    await expect.poll(() => namedTransfers().length, { timeout: 30_000 }).toBe(1)
    const named = namedTransfers()
    const transfer = named[0]!
    await page.goto(`${base()}#/wallet/${transfer.wallet}/transfers`)
    await page.getByPlaceholder('Signature or its first characters').fill(transfer.signature)
    const [legs] = storedRows<{ n: number }>(
      `select count(*) as n from transfers t join wallets w on w.id = t.wallet_id
       where w.address = ? and t.signature = ?`,
      transfer.wallet,
      transfer.signature,
    )
    const grid = page.getByRole('grid').first()
    await expect
      .poll(() => grid.locator('[role="row"][data-key]').count(), { timeout: 10_000 })
      .toBe(legs!.n)
    const party = page.locator(`strong.name[data-address="${transfer.party}"]`).first()
    await expect.poll(() => party.textContent(), { timeout: 10_000 }).toBe(transfer.name)
    // Hovering tells the whole name and the address.
    expect(await party.getAttribute('title')).toBe(`${transfer.name} · ${transfer.party}`)
    expect(
      await page.getByRole('button', { name: 'Copy counterparty address' }).first().isVisible(),
    ).toBe(true)
    await screenshot(page, 'whole-05-transfers-named')

    const paid = storedRows<{ wallet: string; signature: string; payer: string; name: string }>(
      `select w.address as wallet, t.signature, t.fee_payer as payer, n.name from transactions t
       join wallets w on w.id = t.wallet_id
       join address_names n on n.address = t.fee_payer and n.status = 'named'
       where t.fee_payer not in (select address from wallets)
       order by t.block_time_sec desc limit 1`,
    )
    expect(paid).toHaveLength(1) // named with the transfers' counterparties, awaited above
    const tx = paid[0]!
    await page.goto(`${base()}#/wallet/${tx.wallet}/history`)
    await page.getByPlaceholder('Signature or its first characters').fill(tx.signature)
    await expect
      .poll(() => page.getByRole('grid').first().locator('[role="row"][data-key]').count(), {
        timeout: 10_000,
      })
      .toBe(1)
    const payer = page.locator(`.payer.name[data-address="${tx.payer}"]`).first()
    await expect.poll(() => payer.textContent(), { timeout: 10_000 }).toBe(tx.name)
    expect(await payer.getAttribute('title')).toBe(`${tx.name} · ${tx.payer}`)
    await screenshot(page, 'whole-06-history-named')
  })
})
