import type { Browser, Page } from 'playwright-core'
import type { AppSettings } from '@shared/ipc/settings-schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestWebShell } from '../helpers/web-shell-fixture'

// Issue 13: a daily budget typed as "5,000" (or "abc") was silently stored as "no limit"
// while the page said "Settings saved". Every numeric input of Settings reads the grouping
// people type, or refuses with a message naming the field; "saved" is said only of what
// was saved.

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

describe('e2e: numbers typed in Settings are read as typed or refused by name', () => {
  let fx: Fixture
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    fx = await startTestWebShell()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale: 'en-US' })
    await page.goto(fx.shell.url)
    await page.getByRole('heading', { name: 'Watchlist', level: 1 }).waitFor()
    await page.goto(`${new URL(fx.shell.url).origin}/#/settings`)
    await daily().waitFor()
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  const saved = async (): Promise<AppSettings> => {
    const answer = await fx.core.dispatch('settings:get', undefined)
    if (!answer.ok) throw new Error('settings:get failed')
    return answer.result as AppSettings
  }
  const daily = () => page.getByLabel('Daily credit budget (empty: no limit)')
  const monthly = () => page.getByLabel('Monthly credit budget (empty: no limit)')
  const saveSettings = () => page.getByRole('button', { name: 'Save settings' })
  const limitsForm = () => page.getByRole('form', { name: 'Service, plan and budgets' })
  /** What the budgets form says about saving (no waiting: it may rightly say nothing). */
  const limitsStatus = async () =>
    (await limitsForm().getByRole('status').allTextContents()).join(' ')

  it('stores a budget typed as 5,000 as 5000, and says what it saved', async () => {
    await daily().fill('5,000')
    await monthly().fill('150 000')
    await saveSettings().click()
    await expect
      .poll(() => limitsStatus())
      .toBe(
        'Settings saved: daily budget 5,000 credits, monthly budget 150,000 credits, names asked again after 30 days.',
      )
    const settings = await saved()
    expect(settings.dailyBudget).toBe(5_000)
    expect(settings.monthlyBudget).toBe(150_000)
    await screenshot(page, 'settings-budget-saved')

    await monthly().fill('150_000')
    await saveSettings().click()
    await expect.poll(() => limitsStatus()).toContain('monthly budget 150,000 credits')
    expect((await saved()).monthlyBudget).toBe(150_000)
  })

  it('shows the stored budget on Activity, not "no limit"', async () => {
    await page.goto(`${new URL(fx.shell.url).origin}/#/activity`)
    const credits = page.getByRole('region', { name: 'Credits' })
    await expect.poll(() => credits.textContent()).toContain('left today: 5,000')
    await expect.poll(() => credits.textContent()).toContain('left this month: 150,000')
    await page.goto(`${new URL(fx.shell.url).origin}/#/settings`)
    await daily().waitFor()
  })

  it('refuses "abc" naming the field, saves nothing and says nothing was saved', async () => {
    await daily().fill('abc')
    await expect
      .poll(() =>
        page
          .getByText('Daily credit budget: “abc” is not a number. Type digits, e.g. 5,000.')
          .isVisible(),
      )
      .toBe(true)
    expect(await daily().getAttribute('aria-invalid')).toBe('true')
    expect(await saveSettings().isDisabled()).toBe(true)
    await daily().press('Enter')
    expect(await limitsStatus()).toBe('')
    expect((await saved()).dailyBudget).toBe(5_000)
    await screenshot(page, 'settings-budget-refused')

    await daily().fill('12.5')
    await expect
      .poll(() =>
        page
          .getByText('Daily credit budget: enter a whole number, without a fraction.')
          .isVisible(),
      )
      .toBe(true)
    await daily().fill('')
    await saveSettings().click()
    await expect
      .poll(() => limitsStatus())
      .toBe(
        'Settings saved: daily budget no limit, monthly budget 150,000 credits, names asked again after 30 days.',
      )
    expect((await saved()).dailyBudget).toBeNull()
  })

  it('reads grouped watch cadence fields, and refuses others naming the field', async () => {
    const lists = page.getByLabel('List new token accounts every (minutes)')
    await lists.fill('1,440')
    const save = page.getByRole('button', { name: 'Save watching' })
    expect(await save.isDisabled()).toBe(false)
    await save.click()
    await expect.poll(() => page.getByText('Watching saved.').isVisible()).toBe(true)
    expect((await saved()).watch.tokenAccountsEverySec).toBe(86_400)

    const looks = page.getByLabel('Look at balances every (seconds)')
    await looks.fill('1 m')
    await expect
      .poll(() =>
        page
          .getByText(
            'Look at balances every (seconds): “1 m” is not a number. Type digits, e.g. 5,000.',
          )
          .isVisible(),
      )
      .toBe(true)
    expect(await looks.getAttribute('aria-invalid')).toBe('true')
    expect(await save.isDisabled()).toBe(true)
    expect(await page.getByText('Watching saved.').count()).toBe(0)
    expect((await saved()).watch.checkEverySec).toBe(60)
    await save.scrollIntoViewIfNeeded()
    await screenshot(page, 'settings-cadence-refused')
  })
})
