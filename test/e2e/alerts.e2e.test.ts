import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertTrial } from '../../src-shared/ipc/alert-schemas'
import { startSimulator, type RunningSimulator } from '../../src-main/simulator/simulator-server'
import { databasePath } from '../../src-main/app/data-dir'
import { openSqliteMirror } from '../../src-main/db/sqlite/mirror'
import { launchChromium, screenshot } from '../helpers/chromium'
import { readWalletTruth } from '../helpers/sim-truth'
import { startTestWebShell } from '../helpers/web-shell-fixture'
import { startAlertReceiver, type AlertReceiver } from '../helpers/alert-receiver'

// The Alerts page and the bell (issue 30), in Chromium against the web shell over the
// simulator: a `failed` rule on one synced wallet is written in the editor and tried on the
// past before it is saved (the count equals the core's trial and the simulator's truth),
// with an outbound channel ticked; once saved, a new failed transaction synced from the
// simulator lights the bell, lists the alert with its text and its deliveries, and opening
// the page marks it read.

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
  let receiver: AlertReceiver

  const bell = () => page.getByRole('button', { name: /^Alerts, / })
  const editor = () => page.getByRole('form', { name: 'New alert rule' })

  /** Resolves once the watch scheduler has synced both wallets to the end. */
  async function untilSynced(): Promise<void> {
    const deadline = Date.now() + 90_000
    for (;;) {
      const status = await fx.core.dispatch('sync:status', undefined)
      const wallets = status.ok ? (status.result as { state: string }[]) : []
      if (wallets.length === 2 && wallets.every((w) => w.state === 'up-to-date')) return
      if (Date.now() > deadline) throw new Error(`not synced: ${JSON.stringify(wallets)}`)
      await new Promise((done) => setTimeout(done, 250))
    }
  }

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5 })
    receiver = await startAlertReceiver()
    casual = sim.chain.walletByProfile('casual').address
    failing = sim.chain.walletByProfile('failed-transactions').address
    fx = await startTestWebShell({
      isWatching: true,
      apiKey: KEY,
      serviceUrl: sim.url,
      ownMirror: async (own) => {
        await own.watchlist.add({ address: casual, label: 'Casual' }, 1)
        await own.watchlist.add({ address: failing, label: 'Failing' }, 2)
      },
    })
    await untilSynced()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
    await sim?.close()
    await receiver?.close()
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
    // No outbound channel yet: the rule goes to the app and the desktop, and Settings adds more.
    expect(await editor().getByText('Alerts show here and on the desktop.').count()).toBe(1)
    expect(await editor().getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe(
      '#/settings',
    )
    expect(await editor().getByRole('group', { name: 'Also send to' }).count()).toBe(0)

    // A new-token rule says how soon it can fire, at the saved cadence (the defaults here).
    await editor().getByLabel('Watch for').selectOption('new-token')
    await expect
      .poll(() => editor().textContent())
      .toContain(
        'How soon: a token the wallet buys is seen within 1 min; a new token account someone else opens for it, within 1 h while polling at these settings; seconds with webhooks.',
      )
    expect(await editor().getByLabel('Watch for').getAttribute('aria-describedby')).toMatch(
      /-how-soon$/,
    )
    await screenshot(page, 'alerts-editor-new-token')
  })

  it('refuses in the command line’s words, with field names: the core’s checks too', async () => {
    // A duration without its unit: seconds or minutes?
    await editor().getByLabel('Cool-down').fill('10')
    await expect
      .poll(() => editor().textContent())
      .toContain('Cool-down: “10” needs a unit: 10s, 10m, 10h or 10d.')
    await editor().getByLabel('Cool-down').fill('10m')
    // A token the mirror never saw: the core says so as the person types.
    await editor().getByLabel('Watch for').selectOption('outgoing')
    await editor()
      .getByLabel(/^Token/)
      .fill('NOPE')
    await expect
      .poll(() => editor().textContent())
      .toContain('Token “NOPE”: no token the mirror has seen is called that')
    expect(await editor().getByRole('button', { name: 'Save rule' }).isDisabled()).toBe(true)
    await editor()
      .getByLabel(/^Token/)
      .fill('SOL')
    await expect
      .poll(() => editor().getByRole('button', { name: 'Save rule' }).isDisabled())
      .toBe(false)
    // The value change: its own fields, and what it lacks in words.
    await editor().getByLabel('Watch for').selectOption('value-change')
    await expect
      .poll(() => editor().textContent())
      .toContain('“value-change” needs Change % and Window (e.g. 24h).')
    await editor()
      .getByLabel(/^Change %/)
      .fill('10')
    await editor().getByLabel('Window').fill('24h')
    await expect
      .poll(() => editor().getByRole('button', { name: 'Save rule' }).isDisabled())
      .toBe(false)
    await screenshot(page, 'alerts-rule-editor-value-change')
    await editor().getByLabel('Cool-down').fill('')
    await editor().getByLabel('Watch for').selectOption('wakes')
  })

  it('tries a failed rule on one wallet’s past: the count the core and the simulator’s truth give, no credits', async () => {
    const added = await fx.core.dispatch('notify:add', {
      name: 'ops',
      format: 'json',
      url: receiver.url,
    })
    if (!added.ok) throw new Error(added.error.message)
    // The editor lists the channels there are when it opens.
    await editor().getByRole('button', { name: 'Cancel' }).click()
    await page.getByRole('button', { name: 'New rule' }).first().click()
    await editor().getByRole('group', { name: 'Also send to' }).getByLabel('ops').check()
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
    expect(text).toContain('app, desktop, ops')
    expect(await editor().count()).toBe(0)
    const stored = await fx.core.dispatch('alerts:rules', undefined)
    expect(stored.ok && stored.result).toEqual([
      expect.objectContaining({
        name: 'Failing fails',
        trigger: 'failed',
        scope: { wallets: [failing], tags: [] },
        channels: ['ops'],
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
    // Sync now, as the wallet's button does; the bell hears of the alert it fires.
    const started = await fx.core.dispatch('sync:start', { address: failing })
    if (!started.ok) throw new Error(started.error.message)
    await expect
      .poll(() => bell().getAttribute('aria-label'), { timeout: 30_000 })
      .toBe('Alerts, 1 unread')
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
    // The outbound channel delivers after the alert is announced; the page follows.
    await expect
      .poll(() => alert.getByRole('list', { name: 'Deliveries' }).textContent(), {
        timeout: 20_000,
      })
      .toContain('ops: delivered ✓')
    expect(receiver.received).toHaveLength(1)
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

  it('titles a health alert by its condition in words, not its code', async () => {
    const own = await openSqliteMirror(databasePath(fx.dataDir))
    try {
      const nowSec = Math.floor(Date.now() / 1000)
      await own.alerts.insert({
        kind: 'health',
        ruleId: null,
        ruleName: null,
        healthKind: 'key-rejected-resolved',
        walletAddress: null,
        signature: null,
        firedAtSec: nowSec,
        text: 'Syncing resumed: the service accepts the API key again (rejected from 12:03 to 12:20 UTC).',
        detail: { signatures: [], amounts: [], transactionKind: null },
        deliverAfterSec: nowSec,
        dedupeKey: `health:key-rejected-resolved:${nowSec}`,
        channels: [],
      })
    } finally {
      await own.close()
    }
    await page.reload()
    const first = page.getByRole('list', { name: 'Fired alerts' }).getByRole('listitem').first()
    await expect.poll(() => first.textContent()).toContain('Resolved: API key rejected')
    expect(await first.textContent()).not.toContain('key-rejected')
    await screenshot(page, 'alerts-page-health-in-words')
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
        .filter({ hasText: 'Failing fails' })
        .count(),
    ).toBe(1)
  })
})
