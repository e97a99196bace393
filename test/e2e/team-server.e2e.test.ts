import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestTeamServer, type TeamFixture } from '../helpers/team-server-fixture'
import { testAddress } from '../helpers/wallets'

// A viewer of the team server in Chromium: the app asks for a sign-in, then shows who is
// signed in; adding a wallet is not offered, and the server refuses it anyway.

describe('e2e: a viewer signs in to the team server', () => {
  let fx: TeamFixture
  let browser: Browser
  let page: Page
  const shared = testAddress(41)

  beforeAll(async () => {
    fx = await startTestTeamServer({
      users: [{ name: 'vera', role: 'viewer' }],
      ownMirror: async (mirror) => {
        await mirror.watchlist.add({ address: shared, label: 'Team treasury' }, 1_700_000_000)
      },
    })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  it('sends a browser to the sign-in form, which refuses a wrong password', async () => {
    await page.goto(`${fx.origin}/`)
    expect(new URL(page.url()).pathname).toBe('/login')
    await page.getByLabel('Name').fill('vera')
    await page.getByLabel('Password').fill('not-her-password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong name or password.')
    await screenshot(page, 'team-server-sign-in-refused')
  })

  it('signs in and shows the app with who is signed in', async () => {
    await page.getByLabel('Password').fill(fx.password('vera'))
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect
      .poll(() => page.getByRole('heading', { name: 'Watchlist', level: 1 }).isVisible())
      .toBe(true)
    const account = page.getByLabel('Signed in')
    await expect.poll(() => account.textContent()).toMatch(/Signed in as\s+vera\s+viewer/)
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/Connected/)
    await expect.poll(() => page.locator(`tr[data-address="${shared}"]`).count()).toBe(1)
  })

  it('does not let a viewer add a wallet, and says why', async () => {
    await page.getByLabel('Wallet address').fill(testAddress(42))
    const button = page.getByRole('button', { name: 'Watch wallet' })
    expect(await button.isDisabled()).toBe(true)
    await expect
      .poll(() =>
        page
          .getByText('Your role (viewer) cannot change the watchlist — ask an admin.')
          .isVisible(),
      )
      .toBe(true)
    await screenshot(page, 'team-server-viewer')
    // Even forced from the page, the server refuses: nothing was added.
    const refused = await page.evaluate(async (address) => {
      const ws = new WebSocket(`ws://${location.host}/ipc`, ['heliograph'])
      await new Promise((resolve) => ws.addEventListener('open', resolve))
      const reply = new Promise<string>((resolve) =>
        ws.addEventListener('message', (e) => resolve(String(e.data))),
      )
      ws.send(
        JSON.stringify({ type: 'invoke', id: 1, channel: 'watchlist:add', input: { address } }),
      )
      return reply
    }, testAddress(42))
    expect(JSON.parse(refused)).toMatchObject({
      envelope: { ok: false, error: { name: 'PermissionError' } },
    })
    const listed = await fx.core.dispatch('watchlist:list', undefined)
    expect(listed).toMatchObject({ ok: true, result: [{ address: shared }] })
  })

  it('tells a viewer on Settings that the settings are read-only, without the key hint', async () => {
    await page.goto(`${fx.origin}/#/settings`)
    await expect
      .poll(() => page.getByRole('note', { name: 'Your role' }).textContent())
      .toMatch(/Your role \(viewer\) cannot change the settings — ask an admin\./)
    await screenshot(page, 'team-server-viewer-settings')
  })

  it('signs out back to the form; the app is then closed to the browser', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login')
    await page.goto(`${fx.origin}/`)
    expect(new URL(page.url()).pathname).toBe('/login')
  })
})
