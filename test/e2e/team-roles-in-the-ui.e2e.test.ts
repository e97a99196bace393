import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src-main/simulator/simulator-server'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestTeamServer, type TeamFixture } from '../helpers/team-server-fixture'

// Roles in the UI (issue 29, finding 11): on the team server a control the signed-in role
// may not use is disabled, with the reason on hover, instead of failing once pressed; an
// editor's same controls are enabled. An account with a one-time password sees only the
// "Choose your password" form until it has chosen one.

const KEY = 'demo'
const VIEWER_REFUSAL = /^Your role \(viewer\) cannot .+ — ask an admin\.$/

describe('e2e: what a team role may not do is disabled, with the reason on hover', () => {
  let sim: RunningSimulator
  let fx: TeamFixture
  let browser: Browser
  let wallet: string
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
    wallet = sim.chain.walletByProfile('casual').address
    fx = await startTestTeamServer({
      apiKey: KEY,
      serviceUrl: sim.url,
      users: [
        { name: 'vera', role: 'viewer' },
        { name: 'ed', role: 'editor' },
        { name: 'nia', role: 'viewer', isPasswordOneTime: true },
      ],
      ownMirror: async (mirror) => {
        await mirror.watchlist.add({ address: wallet, label: 'Team wallet' }, 1_700_000_000)
      },
    })
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await fx?.stop()
    await sim?.close()
  })

  /** A browser of its own (its own cookies), signed in through the sign-in form. */
  async function signedInPage(name: string, password = fx.password(name)): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
    contexts.push(context)
    const page = await context.newPage()
    await page.goto(`${fx.origin}/`)
    await page.getByLabel('Name').fill(name)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => new URL(page.url()).pathname).toBe('/')
    return page
  }

  const button = (page: Page, name: string | RegExp): Locator =>
    page.getByRole('button', { name, exact: typeof name === 'string' }).first()

  /** The page's controls: each must be disabled with a role's reason, or enabled. */
  async function expectControls(
    page: Page,
    names: (string | RegExp)[],
    expected: 'refused' | 'enabled',
  ): Promise<void> {
    for (const name of names) {
      const control = button(page, name)
      await expect.poll(() => control.isVisible(), { message: String(name) }).toBe(true)
      if (expected === 'refused') {
        expect(await control.isDisabled(), String(name)).toBe(true)
        expect(await control.getAttribute('title'), String(name)).toMatch(VIEWER_REFUSAL)
      } else {
        expect(await control.isEnabled(), String(name)).toBe(true)
        expect((await control.getAttribute('title')) ?? '', String(name)).not.toMatch(/Your role/)
      }
    }
  }

  /** The main pages and the action buttons on each that need more than a viewer. */
  const PAGES: { hash: () => string; buttons: (string | RegExp)[]; unfold?: string }[] = [
    { hash: () => '#/watchlist', buttons: ['Rename', 'Remove…'] },
    {
      hash: () => `#/wallet/${wallet}/overview`,
      // Sync now once the first sync (started by watching) is done.
      buttons: ['Sync now', 'Set limit', 'Rename', 'Remove…'],
      unfold: 'Backfill depth and cost',
    },
    { hash: () => '#/activity', buttons: ['Sync all now', 'Pause'] },
    { hash: () => '#/settings', buttons: ['Save settings', 'Save watching'] },
    { hash: () => '#/webhooks', buttons: [/^Refresh/, 'New webhook from the watchlist…'] },
    {
      hash: () =>
        `#/lookup/${encodeURIComponent(JSON.stringify({ view: 'priority-fee', accounts: [wallet] }))}`,
      buttons: [/^Look up — /],
    },
  ]

  it('a viewer sees every paid or changing control disabled, saying why on hover', async () => {
    const page = await signedInPage('vera')
    for (const { hash, buttons, unfold } of PAGES) {
      await page.goto(`${fx.origin}/${hash()}`)
      if (unfold) await page.getByText(unfold).click()
      await expectControls(page, buttons, 'refused')
    }
    await page.goto(`${fx.origin}/#/wallet/${wallet}/overview`)
    await button(page, 'Sync now').hover()
    await screenshot(page, 'team-roles-viewer-wallet')
    await page.goto(`${fx.origin}/#/activity`)
    await screenshot(page, 'team-roles-viewer-activity')
    // Deleting all data is an admin's: refused for the viewer, with its own words.
    await page.goto(`${fx.origin}/#/settings`)
    expect(await button(page, 'Delete all local data').getAttribute('title')).toBe(
      'Your role (viewer) cannot delete the data — ask an admin.',
    )
  })

  it('an editor sees the same controls enabled; only the admin’s stay disabled', async () => {
    const page = await signedInPage('ed')
    for (const { hash, buttons, unfold } of PAGES) {
      await page.goto(`${fx.origin}/${hash()}`)
      if (unfold) await page.getByText(unfold).click()
      await expectControls(page, buttons, 'enabled')
    }
    await page.goto(`${fx.origin}/#/settings`)
    const deleteAll = button(page, 'Delete all local data')
    expect(await deleteAll.getAttribute('title')).toBe(
      'Your role (editor) cannot delete the data — ask an admin.',
    )
    await screenshot(page, 'team-roles-editor-settings')
  })

  it('a one-time password opens only the "Choose your password" form, with its rules', async () => {
    const oneTime = fx.password('nia')
    const page = await signedInPage('nia', oneTime)
    const form = page.getByRole('form', { name: 'Choose your password' })
    await expect.poll(() => form.isVisible()).toBe(true)
    expect(await page.getByRole('heading', { name: 'Watchlist' }).count()).toBe(0)
    expect(await form.textContent()).toContain('At least 12 characters')

    await form.getByLabel('One-time password').fill(oneTime)
    await form.getByLabel('New password', { exact: true }).fill('too short')
    await form.getByLabel('New password again').fill('too short')
    await form.getByRole('button', { name: 'Save my password' }).click()
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toBe('The password is too short (9 of at least 12 characters).')
    await screenshot(page, 'team-roles-choose-password')

    const chosen = 'nia picked a long one'
    await form.getByLabel('New password', { exact: true }).fill(chosen)
    await form.getByLabel('New password again').fill(chosen)
    await form.getByRole('button', { name: 'Save my password' }).click()
    await expect
      .poll(() => page.getByRole('heading', { name: 'Watchlist', level: 1 }).isVisible())
      .toBe(true)
    await expect
      .poll(() => page.getByLabel('Signed in').textContent())
      .toMatch(/Signed in as\s+nia\s+viewer/)
    // The one-time password no longer signs in; the chosen one does.
    expect((await fx.postLogin('nia', oneTime)).status).toBe(401)
    expect((await fx.postLogin('nia', chosen)).status).toBe(303)
  })
})
