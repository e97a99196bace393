import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src-main/simulator/simulator-server'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestTeamServer, type TeamFixture } from '../helpers/team-server-fixture'

// Issue 50, item 5: banners by role. The service rejects the team server's API key; the
// banner told a viewer to "Replace it in Settings" and offered a link their role cannot
// use. Now a viewer and an editor (the key is an admin's) are told to ask an admin, with
// nothing in the banner to press; the admin is told what to do, with the way to Settings.

describe('e2e: the key-rejected banner says what each role can do', () => {
  let sim: RunningSimulator
  let fx: TeamFixture
  let browser: Browser
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
    const wallet = sim.chain.walletByProfile('casual').address
    fx = await startTestTeamServer({
      apiKey: 'demo',
      serviceUrl: sim.url,
      users: [
        { name: 'vera', role: 'viewer' },
        { name: 'ed', role: 'editor' },
        { name: 'ada', role: 'admin' },
      ],
      ownMirror: async (mirror) => {
        await mirror.watchlist.add({ address: wallet, label: 'Team wallet' }, 1_700_000_000)
      },
    })
    // The service starts rejecting the key: the next sync raises the condition.
    await fetch(`${sim.url}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'error', status: 401, message: 'Invalid API key' }),
    })
    const synced = await fx.core.dispatch('sync:run', { address: wallet })
    if (!synced.ok) throw new Error(synced.error.message)
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await fx?.stop()
    await sim?.close()
  })

  async function signedInPage(name: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
    contexts.push(context)
    const page = await context.newPage()
    await page.goto(`${fx.origin}/`)
    await page.getByLabel('Name').fill(name)
    await page.getByLabel('Password').fill(fx.password(name))
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => new URL(page.url()).pathname).toBe('/')
    return page
  }

  const bannerOf = (page: Page) => page.getByRole('alert', { name: 'Syncing health' })
  const HEADLINE = /Syncing stopped: the service rejected the API key .*\(since \d\d:\d\d UTC\)\./

  it.each(['vera', 'ed'])(
    '%s (no admin) is told to ask an admin, with nothing to press',
    async (name) => {
      const page = await signedInPage(name)
      const banner = bannerOf(page)
      await expect.poll(() => banner.textContent()).toMatch(HEADLINE)
      const text = (await banner.textContent()) ?? ''
      expect(text).toContain('Ask an admin to replace it; syncing resumes once a call succeeds.')
      expect(text).not.toContain('Replace it in Settings')
      expect(await banner.locator('a, button').count()).toBe(0)
      await screenshot(page, `banner-key-rejected-${name}`)
    },
  )

  it('the admin is told to replace it in Settings, and offered the way there', async () => {
    const page = await signedInPage('ada')
    const banner = bannerOf(page)
    await expect.poll(() => banner.textContent()).toMatch(HEADLINE)
    expect(await banner.textContent()).toContain('Replace it in Settings')
    await banner.getByRole('link', { name: 'Open Settings' }).click()
    await expect.poll(() => new URL(page.url()).hash).toBe('#/settings')
    await screenshot(page, 'banner-key-rejected-admin')
  })
})
