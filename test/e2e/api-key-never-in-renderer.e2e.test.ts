import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startReviewApp, type ReviewApp } from '../helpers/review-app-fixture'

// The API key stays in the main process: with a recognisable key configured (and, where
// the Settings page offers it, typed in there), no message the page receives over the
// WebSocket and nothing in its DOM ever holds the key.

const KEY = 'hgTESTkey-7Qz9-never-show-me-4f2a'
const PAGES = ['#/watchlist', '#/activity', '#/settings']

describe('e2e: the API key never reaches the renderer', () => {
  let app: ReviewApp
  let browser: Browser
  let page: Page
  const received: string[] = []

  beforeAll(async () => {
    app = await startReviewApp({ apiKey: KEY })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    page.on('websocket', (ws) => {
      ws.on('framereceived', (frame) => received.push(String(frame.payload)))
    })
  })
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  async function domText(): Promise<string> {
    return page.evaluate(() => {
      const values = [...document.querySelectorAll('input, textarea')].map(
        (e) => (e as HTMLInputElement).value,
      )
      return `${document.documentElement.outerHTML}\n${values.join('\n')}\n${document.title}`
    })
  }

  it('visits every page and every wallet tab without the key in any frame or the DOM', async () => {
    await page.goto(app.shell.url)
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/Connected/)

    // Typed into Settings where the core takes keys from the page.
    await page.goto(`${app.shell.url.split('?')[0]}#/settings`)
    const keyInput = page.getByLabel('API key', { exact: true })
    await expect
      .poll(async () => (await keyInput.count()) > 0 || (await page.getByRole('alert').count()) > 0)
      .toBe(true)
    if ((await keyInput.count()) > 0) {
      await keyInput.fill(KEY)
      await page.getByRole('button', { name: 'Save key' }).click()
      await expect.poll(() => page.getByText(/Key set, ends with/).textContent()).toContain('4f2a')
      expect(await keyInput.count()).toBe(0)
    }

    const wallets = await app.core.dispatch('watchlist:list', undefined)
    const addresses = wallets.ok
      ? (wallets.result as { address: string }[]).map((w) => w.address)
      : []
    const routes = [
      ...PAGES,
      ...addresses.flatMap((a) =>
        ['overview', 'history', 'transfers', 'compressed'].map((t) => `#/wallet/${a}/${t}`),
      ),
    ]
    for (const route of routes) {
      await page.goto(`${app.shell.url.split('?')[0]}${route}`)
      await page.waitForLoadState('networkidle')
      expect(await domText(), route).not.toContain(KEY)
    }
    await screenshot(page, 'review-16-key-check')
    expect(received.length).toBeGreaterThan(10)
    const leaking = received.filter((f) => f.includes(KEY) || f.includes(KEY.slice(0, 20)))
    expect(leaking).toEqual([])
  })

  it('the check can fail: the key planted in a frame and in the DOM is found', async () => {
    const planted = [...received, JSON.stringify({ type: 'event', payload: { note: KEY } })]
    expect(planted.some((f) => f.includes(KEY))).toBe(true)
    await page.evaluate((k) => document.body.setAttribute('data-x', k), KEY)
    expect(await domText()).toContain(KEY)
  })
})
