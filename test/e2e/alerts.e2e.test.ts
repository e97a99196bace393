import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertTrial } from '../../src-shared/ipc/alert-schemas'
import { startSimulator, type RunningSimulator } from '../../src-main/simulator/simulator-server'
import { launchChromium, screenshot } from '../helpers/chromium'
import { readWalletTruth } from '../helpers/sim-truth'
import { startTestWebShell } from '../helpers/web-shell-fixture'

// The Alerts page and the bell (issue 30), in Chromium against the web shell over the
// simulator: a `failed` rule on one synced wallet is written in the editor and tried on the
// past before it is saved (the count equals the core's trial and the simulator's truth);
// once saved, a new failed transaction synced from the simulator lights the bell, lists
// the alert with its text, and opening the page marks it read.

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>
const KEY = 'demo'
const TRY_DAYS = 365

describe('e2e: the Alerts page, the rule editor and the bell', () => {
  let sim: RunningSimulator
  let fx: Fixture
  let browser: Browser
  let page: Page
  let casual: string
  let failing: string

  const bell = () => page.getByRole('button', { name: /^Alerts, / })
  const editor = () => page.getByRole('form', { name: 'New alert rule' })

  /** Syncs a wallet to the end; its new rows are evaluated by the rules before it answers. */
  async function sync(address: string): Promise<void> {
    const outcome = await fx.core.dispatch('sync:run', { address })
    if (!outcome.ok) throw new Error(outcome.error.message)
  }

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5 })
    casual = sim.chain.walletByProfile('casual').address
    failing = sim.chain.walletByProfile('failed-transactions').address
    fx = await startTestWebShell({
      apiKey: KEY,
      serviceUrl: sim.url,
      ownMirror: async (own) => {
        await own.watchlist.add({ address: casual, label: 'Casual' }, 1)
        await own.watchlist.add({ address: failing, label: 'Failing' }, 2)
      },
    })
    for (const address of [casual, failing]) await sync(address)
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
    await sim?.close()
  })

  it('opens from the sidebar with an empty state that says what alerts are', async () => {
    await page.goto(fx.shell.url)
    await page.getByRole('navigation').getByRole('link', { name: 'Alerts' }).click()
    await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor()
    await expect.poll(() => page.getByText('No alerts yet.').isVisible()).toBe(true)
    expect(await page.getByText('No rules yet').count()).toBe(1)
    expect(await bell().getAttribute('aria-label')).toBe('Alerts, none unread')
    expect(await page.getByTestId('bell-count').count()).toBe(0)
    await screenshot(page, 'alerts-empty')
  })

  it('the editor shows only the trigger’s fields and says in words what a rule lacks', async () => {
    await page.getByRole('button', { name: 'New rule' }).first().click()
    await editor().getByLabel('Watch for').selectOption('wakes')
    await expect.poll(() => editor().textContent()).toContain('“wakes” needs Idle days')
    expect(await editor().getByLabel('Idle days').count()).toBe(1)
    expect(await editor().getByLabel('Min USD').count()).toBe(0)
    expect(await editor().getByRole('button', { name: 'Save rule' }).isDisabled()).toBe(true)
    await editor().getByLabel('Idle days').fill('ninety')
    await expect.poll(() => editor().textContent()).toMatch(/Idle days: “ninety” is not a number/)
    await editor().getByLabel('Idle days').fill('90')
    await expect
      .poll(() => editor().getByRole('button', { name: 'Save rule' }).isDisabled())
      .toBe(false)
    expect(await editor().getByLabel('Name').getAttribute('placeholder')).toBe(
      'wakes after 90 idle days',
    )
  })

  it('tries a failed rule on one wallet’s past: the count the core and the simulator’s truth give, no credits', async () => {
    await editor().getByLabel('Watch for').selectOption('failed')
    await expect.poll(() => editor().textContent()).toContain('A transaction of the wallet failed.')
    await editor().getByLabel('Chosen wallets').check()
    expect(await editor().getByRole('button', { name: 'Save rule' }).isDisabled()).toBe(true)
    await expect
      .poll(() => editor().textContent())
      .toContain('Choose at least one wallet, or every wallet.')
    await editor().getByRole('group', { name: 'Chosen wallets' }).getByLabel('Failing').check()
    await editor().getByLabel('Days').fill(String(TRY_DAYS))
    const spentBefore = sim.credits.forKey(KEY).total
    await editor()
      .getByRole('button', { name: `Try on the last ${TRY_DAYS} days` })
      .click()

    const core = await fx.core.dispatch('alerts:try', {
      rule: { trigger: 'failed', scope: { wallets: [failing], tags: [] } },
      days: TRY_DAYS,
    })
    if (!core.ok) throw new Error(core.error.message)
    const trial = core.result as AlertTrial
    const truth = await readWalletTruth(sim.url, failing)
    const failedInTruth = truth.history.filter((h) => h.error !== null).length
    expect(failedInTruth).toBeGreaterThan(0)
    expect(trial.fired).toBe(failedInTruth)
    await expect
      .poll(() => editor().getByTestId('trial-summary').textContent())
      .toBe(
        `Would have fired ${trial.fired} alerts (${trial.matches} matches in ${trial.transactionsExamined} transactions) — no credits`,
      )
    const listed = editor().getByRole('status').locator('li')
    expect(await listed.count()).toBe(Math.min(5, trial.fired))
    expect(await listed.first().textContent()).toContain('Failing')
    expect(sim.credits.forKey(KEY).total).toBe(spentBefore)

    // The preview follows the rule: on every wallet it counts the other one's too.
    await editor().getByLabel('Every wallet').check()
    const everyWallet = await fx.core.dispatch('alerts:try', {
      rule: { trigger: 'failed' },
      days: TRY_DAYS,
    })
    if (!everyWallet.ok) throw new Error(everyWallet.error.message)
    const wider = everyWallet.result as AlertTrial
    await expect
      .poll(() => editor().getByTestId('trial-summary').textContent())
      .toContain(`in ${wider.transactionsExamined} transactions`)
    await editor().getByLabel('Chosen wallets').check()
    await expect
      .poll(() => editor().getByTestId('trial-summary').textContent())
      .toContain(`in ${trial.transactionsExamined} transactions`)
    await editor().getByLabel('Name').fill('Failing fails')
    await screenshot(page, 'alerts-rule-editor-preview')
    await page.setViewportSize({ width: 1000, height: 700 })
    await screenshot(page, 'alerts-rule-editor-preview-1000x700')
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('saves the rule, which the list then shows', async () => {
    await editor().getByRole('button', { name: 'Save rule' }).click()
    const row = page.getByRole('table', { name: 'Alert rules' }).locator('tbody tr')
    await expect.poll(() => row.count()).toBe(1)
    const text = await row.first().textContent()
    expect(text).toContain('Failing fails')
    expect(text).toContain('A failed transaction')
    expect(text).toContain('Failing')
    expect(text).toContain('app, desktop')
    expect(await editor().count()).toBe(0)
    const stored = await fx.core.dispatch('alerts:rules', undefined)
    expect(stored.ok && stored.result).toEqual([
      expect.objectContaining({
        name: 'Failing fails',
        trigger: 'failed',
        scope: { wallets: [failing], tags: [] },
      }),
    ])
  })

  it('a new failed transaction synced from the simulator lights the bell; the page lists it and marks it read', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Watchlist' }).click()
    await page.getByRole('heading', { name: 'Watchlist', level: 1 }).waitFor()
    const injected = sim.inject(sim.chain.walletByProfile('failed-transactions'), {
      kind: 'silent',
      variant: 'failed',
    })
    await sync(failing)
    await expect.poll(() => bell().getAttribute('aria-label')).toBe('Alerts, 1 unread')
    expect(await page.getByTestId('bell-count').textContent()).toBe('1')
    await screenshot(page, 'alerts-bell-with-count')

    await bell().click()
    const alert = page.getByRole('list', { name: 'Fired alerts' }).getByRole('listitem').first()
    await expect.poll(() => alert.textContent()).toContain('Failing fails')
    const history = await fx.core.dispatch('alerts:history', { limit: 10 })
    if (!history.ok) throw new Error(history.error.message)
    const [fired] = (history.result as { alerts: { text: string; signature: string }[] }).alerts
    expect(fired?.signature).toBe(injected.signature)
    const shown = await alert.textContent()
    expect(shown).toContain(fired?.text)
    expect(shown).toContain('desktop')
    expect(await alert.getByRole('link', { name: 'Failing' }).getAttribute('href')).toBe(
      `#/wallet/${failing}/overview`,
    )
    // Opening the page read it: the bell is gone, here and in the core.
    await expect.poll(() => bell().getAttribute('aria-label')).toBe('Alerts, none unread')
    expect(await page.getByTestId('bell-count').count()).toBe(0)
    const after = await fx.core.dispatch('alerts:history', { limit: 1 })
    expect(after.ok && (after.result as { unread: number }).unread).toBe(0)
    await screenshot(page, 'alerts-page-with-alert')
    await page.setViewportSize({ width: 1000, height: 700 })
    await screenshot(page, 'alerts-page-with-alert-1000x700')
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('mutes, unmutes and removes a rule after a confirm', async () => {
    const row = page.getByRole('table', { name: 'Alert rules' }).locator('tbody tr').first()
    await row.getByRole('button', { name: 'Mute' }).click()
    await expect.poll(() => row.textContent()).toContain('Muted')
    await row.getByRole('button', { name: 'Unmute' }).click()
    await expect.poll(() => row.textContent()).not.toContain('Muted')
    await row.getByRole('button', { name: 'Remove…' }).click()
    await page
      .getByRole('alertdialog', { name: 'Remove rule Failing fails' })
      .getByRole('button', { name: 'Remove rule' })
      .click()
    await expect.poll(() => page.getByText('No rules yet').count()).toBe(1)
    // Its alert stays, with the rule's name.
    expect(
      await page
        .getByRole('list', { name: 'Fired alerts' })
        .getByRole('listitem')
        .first()
        .textContent(),
    ).toContain('Failing fails')
  })
})
