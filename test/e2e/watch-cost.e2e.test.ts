import type { Browser, Page } from 'playwright-core'
import type { AppSettings } from '@shared/ipc/settings-schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestWebShell } from '../helpers/web-shell-fixture'
import { testAddress } from '../helpers/wallets'

// Settings show what watching will cost before saving (issue 11), and Activity shows the
// same projection against what was spent. Two wallets with no token accounts, Free plan
// (1,000,000 credits a month): a look covers both for 1 credit; each wallet's two token
// programs are listed hourly (1 credit each); the daily full check is one
// getSignaturesForAddress a wallet (10 credits).

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

const WALLETS = 2
const perDay = (checkEverySec: number) =>
  (86_400 / checkEverySec) * 1 + 24 * WALLETS * 2 + WALLETS * 10

describe('e2e: the cost of watching in Settings and Activity', () => {
  let fx: Fixture
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    fx = await startTestWebShell()
    for (let i = 0; i < WALLETS; i++) {
      const added = await fx.core.dispatch('watchlist:add', { address: testAddress(51 + i) })
      expect(added.ok).toBe(true)
    }
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await page.goto(fx.shell.url)
    // The wallets are the person's own, and there is no key yet: the app opens on Settings.
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  const savedSettings = async (): Promise<AppSettings> => {
    const answer = await fx.core.dispatch('settings:get', undefined)
    if (!answer.ok) throw new Error('settings:get failed')
    return answer.result as AppSettings
  }
  const projection = () => page.getByLabel('Projected cost of watching')
  const balanceField = () => page.getByLabel('Look at balances every (seconds)')

  it('shows the projection for the watchlist and the saved cadence', async () => {
    await page.goto(`${new URL(fx.shell.url).origin}/#/settings`)
    await expect.poll(() => page.getByRole('heading', { name: 'Watching' }).isVisible()).toBe(true)
    expect(perDay(60)).toBe(1_556)
    await expect
      .poll(() => projection().textContent())
      .toContain('2 wallets every minute ≈ 1,600 credits/day (47,000/month), 4.7% of your plan')
    await expect.poll(() => projection().textContent()).toMatch(/Balance looks: 1,400\/day/)
    // The month in each mode, polling (in use) first: with deliveries the looks run every
    // 10 min, lists every 6 h, and the webhook is looked at every 6 h (400 credits a day).
    await expect
      .poll(() => page.getByLabel('A month in each mode').textContent())
      .toMatch(
        /^A month polling ≈ 47,000 credits \(4\.7% of your plan\); with webhook deliveries ≈ [\d,]+ \([\d.]+%\)$/,
      )
    await page.getByRole('button', { name: 'Save watching' }).scrollIntoViewIfNeeded()
    await screenshot(page, 'watch-cost-settings')
  })

  it('beside each clock, what it costs a day and how soon it sees what only it finds', async () => {
    const listField = () => page.getByLabel('List new token accounts every (minutes)')
    const hintOf = async (label: string) =>
      page
        .locator(`#${await page.getByLabel(label).getAttribute('aria-describedby')}`)
        .textContent()
    // Each wallet's two token programs listed hourly: 96 credits a day.
    await expect
      .poll(() => hintOf('List new token accounts every (minutes)'))
      .toBe('≈ 96 credits/day · a new token account someone else opens for a wallet: within 1 h')
    await expect
      .poll(() => hintOf('Look at balances every (seconds)'))
      .toBe(
        '≈ 1,400 credits/day · what a wallet signs, a token sent into an account the mirror knows: within 1 min',
      )
    await listField().fill('30')
    await expect
      .poll(() => hintOf('List new token accounts every (minutes)'))
      .toBe(
        '≈ 192 credits/day · a new token account someone else opens for a wallet: within 30 min',
      )
    await listField().scrollIntoViewIfNeeded()
    await screenshot(page, 'watch-cost-clock-hints')
    await listField().fill('60')
  })

  it('follows the cadence as it is typed, before saving', async () => {
    await balanceField().fill('15')
    // 5,760 looks + 96 lists + 20 = 5,876 a day, 176,280 a month.
    expect(perDay(15)).toBe(5_876)
    await expect
      .poll(() => projection().textContent())
      .toContain('2 wallets every 15 s ≈ 5,900 credits/day (180,000/month), 17.6% of your plan')
    expect((await savedSettings()).watch.checkEverySec).toBe(60)
  })

  it('names what is wrong with a cadence and does not let it be saved', async () => {
    await balanceField().fill('5')
    await expect
      .poll(() => page.getByText('Enter a number from 15 s to 1 day.').isVisible())
      .toBe(true)
    expect(await balanceField().getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByRole('button', { name: 'Save watching' }).isDisabled()).toBe(true)
    await page.getByRole('button', { name: 'Save watching' }).scrollIntoViewIfNeeded()
    await screenshot(page, 'watch-cost-invalid')
    await page.getByLabel('Full check of each wallet every (hours)').fill('0.5')
    await expect
      .poll(() => page.getByText('Enter a number from 1 hour to 30 days.').isVisible())
      .toBe(true)
    await page.getByLabel('Full check of each wallet every (hours)').fill('24')
  })

  it('saves the cadence, and Activity shows the projection against what was spent', async () => {
    await balanceField().fill('15')
    await page.getByRole('button', { name: 'Save watching' }).click()
    await expect.poll(() => page.getByText('Watching saved.').isVisible()).toBe(true)
    expect((await savedSettings()).watch.checkEverySec).toBe(15)

    await page.goto(`${new URL(fx.shell.url).origin}/#/activity`)
    const section = page.getByRole('region', { name: 'Watching cost' })
    await expect.poll(() => section.textContent()).toMatch(/Projected per day\s*≈ 5,900/)
    await expect.poll(() => section.textContent()).toMatch(/Spent in the last 24 h\s*[\d,]+/)
    await expect
      .poll(() => section.textContent())
      .toContain('2 wallets every 15 s ≈ 5,900 credits/day')
    await screenshot(page, 'watch-cost-activity')
  })
})
