import type { Browser, Page } from 'playwright-core'
import type { AppSettings } from '@shared/ipc/settings-schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src-main/simulator/simulator-server'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestWebShell } from '../helpers/web-shell-fixture'

// Issue 29, finding 5: a budget of 0 was saved without a word (it stops all syncing); the
// Custom plan had no fields; setting up one's own service took the key twice. In Settings a
// budget of 0 is explained and confirmed before it is sent, the Custom plan takes its rates
// and credits and shows them after a reload, and the key is typed once beside the URLs.

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

const OWN_KEY = 'own5' // the simulator's keys can be this short

describe('e2e: Settings a person can use', () => {
  let fx: Fixture
  let own: RunningSimulator
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    own = await startSimulator({ seed: 29, clock: { mode: 'manual' }, keys: [OWN_KEY] })
    fx = await startTestWebShell()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale: 'en-US' })
    await page.goto(fx.shell.url)
    await page.getByRole('heading', { name: 'Watchlist', level: 1 }).waitFor()
    await openSettings()
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
    await own?.close()
  })

  const openSettings = async (): Promise<void> => {
    await page.goto(`${new URL(fx.shell.url).origin}/#/settings`)
    await page.reload()
    await daily().waitFor()
  }
  const saved = async (): Promise<AppSettings> => {
    const answer = await fx.core.dispatch('settings:get', undefined)
    if (!answer.ok) throw new Error('settings:get failed')
    return answer.result as AppSettings
  }
  const limitsForm = () => page.getByRole('form', { name: 'Service, plan and budgets' })
  const daily = () => page.getByLabel('Daily credit budget (empty: no limit)')
  const saveSettings = () => page.getByRole('button', { name: 'Save settings' })
  const confirmZero = () => page.getByRole('group', { name: 'Confirm a budget of 0' })
  const limitsStatus = async () =>
    (await limitsForm().getByRole('status').allTextContents()).join(' ')

  it('explains a daily budget of 0 and sends it only once confirmed', async () => {
    await daily().fill('0')
    await saveSettings().click()
    await expect
      .poll(() => confirmZero().textContent())
      .toContain(
        'A daily budget of 0 stops all syncing: no credits may be spent, so no wallet syncs and watching stops until you raise it.',
      )
    await screenshot(page, 'settings-budget-zero-confirm')

    // Cancel: nothing is sent, and the page says nothing was saved.
    await confirmZero().getByRole('button', { name: 'Cancel' }).click()
    expect(await confirmZero().count()).toBe(0)
    expect(await limitsStatus()).toBe('')
    expect((await saved()).dailyBudget).toBeNull()

    // Confirm: now it is saved.
    await saveSettings().click()
    await confirmZero().getByRole('button', { name: 'Save and stop syncing' }).click()
    await expect.poll(() => limitsStatus()).toContain('daily budget 0 credits')
    expect((await saved()).dailyBudget).toBe(0)
  })

  it('gives the Custom plan its rates and credits, shown filled after a reload', async () => {
    await page.getByLabel('Plan (requests per second)').selectOption('custom')
    const rate = (name: string) => page.getByLabel(`${name} requests per second (Custom plan)`)
    await rate('RPC').fill('25')
    await rate('DAS and enhanced').fill('0')
    await expect
      .poll(() =>
        page
          .getByText('DAS and enhanced requests per second: enter a number from 0.1 to 10,000.')
          .isVisible(),
      )
      .toBe(true)
    expect(await saveSettings().isDisabled()).toBe(true)
    await rate('DAS and enhanced').fill('5')
    await rate('Photon').fill('6')
    await rate('Validity proof').fill('1.5')
    await page
      .getByLabel('Monthly credits of the plan (Custom plan; empty: not known)')
      .fill('3,000,000')
    await saveSettings().click()
    await expect.poll(() => limitsStatus()).toContain('Custom plan: 25 RPC')
    expect(await saved()).toMatchObject({
      plan: 'custom',
      customRates: { rpc: 25, 'das-enhanced': 5, photon: 6, 'validity-proof': 1.5 },
      customMonthlyCredits: 3_000_000,
    })

    await openSettings()
    expect(await page.getByLabel('Plan (requests per second)').inputValue()).toBe('custom')
    expect(await rate('RPC').inputValue()).toBe('25')
    expect(await rate('Validity proof').inputValue()).toBe('1.5')
    expect(
      await page
        .getByLabel('Monthly credits of the plan (Custom plan; empty: not known)')
        .inputValue(),
    ).toBe('3000000')
    await rate('RPC').scrollIntoViewIfNeeded()
    await screenshot(page, 'settings-custom-plan')
  })

  it('takes the key once, beside the URLs of the person’s own service', async () => {
    // The budget of 0 from the first test would stop every sync: lifted (raising needs no confirmation).
    await daily().fill('')
    const keyField = page.getByLabel('API key for these URLs')
    expect(await keyField.count()).toBe(0)
    for (const name of ['Wallet REST base URL', 'v0 REST base URL', 'JSON-RPC URL'])
      await page.getByLabel(name, { exact: true }).fill(own.url)
    await keyField.fill(OWN_KEY)
    await keyField.scrollIntoViewIfNeeded()
    await screenshot(page, 'settings-key-with-urls')
    await saveSettings().click()
    await expect.poll(async () => (await saved()).dataSource).toBe('service')
    expect(await saved()).toMatchObject({
      walletRestBaseUrl: own.url,
      jsonRpcUrl: own.url,
      apiKeyHint: '…own5',
      keyNotice: null,
      dailyBudget: null,
    })
    // The key was typed once: nothing asks for it again (the page reloads on its own data).
    await expect.poll(() => page.getByText('Key set, ends with').isVisible()).toBe(true)
    expect(await page.getByLabel('API key for these URLs').count()).toBe(0)
    await screenshot(page, 'settings-own-service-set')
  })
})
