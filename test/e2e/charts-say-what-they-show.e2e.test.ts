import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelInput, Channel } from '../../src-shared/ipc/contract'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startReviewApp, type ReviewApp } from '../helpers/review-app-fixture'

// Charts say what they show (issue 14), in Chromium on demo data: the Overview charts a
// token's amount from balance changes (a step line, the token picked by the person) and
// says in words that value over time waits for snapshots a day apart; the Watchlist charts
// the same across all wallets; once the snapshots span more than a day, value is drawn.

describe('e2e: charts say what they show', () => {
  let app: ReviewApp
  let browser: Browser
  let page: Page

  const base = () => app.shell.url.split('#')[0]

  const call = <C extends Channel>(channel: C, input: ChannelInput<C>) => app.call(channel, input)

  /** The data table of the chart with this accessible name: its row count. */
  const chartRows = (name: string | RegExp) =>
    page.getByRole('table', { name }).locator('tbody tr').count()

  beforeAll(async () => {
    app = await startReviewApp()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale: 'en-US' })
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  it('the demo wallets sync on their own', async () => {
    await page.goto(app.shell.url)
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Main' }).getByText('Up to date').count(), {
        timeout: 60_000,
      })
      .toBeGreaterThanOrEqual(4)
  }, 90_000)

  it('Overview: the amount of SOL from balance changes, another token on request, and value not yet', async () => {
    const casual = app.profileAddress('casual')
    const series = await call('wallet:amount-series', { address: casual })
    expect(series.symbol).toBe('SOL')
    await page.goto(`${base()}#/wallet/${casual}/overview`)
    const amount = page.getByTestId('amount-over-time')
    await expect
      .poll(() => amount.getByRole('heading').textContent())
      .toMatch(/Wallet amount of SOL\s*· from balance changes — exact/)
    await expect
      .poll(() => chartRows('Wallet amount of SOL over time, from balance changes: data'))
      .toBe(series.points.length)
    const value = page.getByTestId('value-over-time')
    await expect
      .poll(() => value.getByTestId('value-not-yet').textContent())
      .toMatch(/Value over time appears once snapshots span more than a day — first snapshot \S+/)
    expect(await value.getByRole('heading').textContent()).toMatch(/from balances snapshots/)
    await amount.scrollIntoViewIfNeeded()
    await screenshot(page, 'charts-01-overview-sol')

    // The person picks another token: the chart follows, with that token's own changes.
    const other = series.choices.find((c) => c.mint !== series.mint && c.symbol)!
    const otherSeries = await call('wallet:amount-series', { address: casual, mint: other.mint })
    await amount.getByRole('combobox', { name: 'Token to chart' }).selectOption(other.mint)
    await expect
      .poll(() => amount.getByRole('heading').textContent())
      .toMatch(new RegExp(`Wallet amount of ${other.symbol}`))
    if (otherSeries.points.length >= 2)
      await expect
        .poll(() =>
          chartRows(`Wallet amount of ${other.symbol} over time, from balance changes: data`),
        )
        .toBe(otherSeries.points.length)
    await screenshot(page, 'charts-02-overview-other-token')
  })

  it('Watchlist: the combined amount across wallets, and value not yet', async () => {
    const series = await call('watchlist:amount-series', {})
    expect(series.wallets).toBeGreaterThanOrEqual(4)
    await page.goto(`${base()}#/watchlist`)
    await expect
      .poll(() => chartRows('Watchlist amount of SOL over time, from balance changes: data'))
      .toBe(series.points.length)
    await expect
      .poll(() => page.getByTestId('value-not-yet').textContent())
      .toMatch(/appears once snapshots span more than a day/)
    await page.getByTestId('amount-over-time').scrollIntoViewIfNeeded()
    await screenshot(page, 'charts-03-watchlist')
  })

  it('once snapshots span more than a day, value over time is drawn from them', async () => {
    app.advanceClock(2 * 86_400)
    await call('sync:start', {})
    await expect
      .poll(async () => (await call('watchlist:value-series', undefined)).isDrawn, {
        timeout: 60_000,
      })
      .toBe(true)
    // Every wallet has its second snapshot before the charts are read.
    await expect
      .poll(
        async () => {
          const summaries = await call('watchlist:summaries', undefined)
          const drawn = await Promise.all(
            summaries.map(
              async (w) => (await call('wallet:value-series', { address: w.address })).isDrawn,
            ),
          )
          return drawn.every(Boolean)
        },
        { timeout: 60_000 },
      )
      .toBe(true)
    const total = await call('watchlist:value-series', undefined)
    await page.goto(`${base()}#/watchlist`)
    await expect
      .poll(() => chartRows('Watchlist value in USD at each balances snapshot: data'))
      .toBe(total.points.length)
    await page.getByTestId('value-over-time').scrollIntoViewIfNeeded()
    await screenshot(page, 'charts-04-watchlist-value')

    const holder = app.profileAddress('compressed-holder')
    const value = await call('wallet:value-series', { address: holder })
    await page.goto(`${base()}#/wallet/${holder}/overview`)
    await expect
      .poll(() => chartRows('Wallet value in USD at each balances snapshot: data'))
      .toBe(value.points.length)
    // The newest point is the wallet's value now, compressed holdings included.
    const whole = await call('wallet:whole', { address: holder })
    expect(value.points.at(-1)?.valueUsd).toBeCloseTo(whole.valueUsd, 6)
    await screenshot(page, 'charts-05-overview-value')
  }, 150_000)
})
