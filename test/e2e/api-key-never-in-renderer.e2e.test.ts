import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startReviewApp, type ReviewApp } from '../helpers/review-app-fixture'

// The API key stays in the main process: once a recognisable key is typed into Settings,
// no message the page receives over the WebSocket and nothing in its DOM holds it; the
// page shows only its last four characters.

const KEY = 'hgTESTkey-7Qz9-never-show-me-4f2a'
const PAGES = ['#/watchlist', '#/activity', '#/settings']

describe('e2e: the API key never reaches the renderer', () => {
  let app: ReviewApp
  let browser: Browser
  let page: Page
  const received: string[] = []

  beforeAll(async () => {
    app = await startReviewApp()
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

    await page.goto(`${app.shell.url.split('?')[0]}#/settings`)
    const form = page.getByRole('form', { name: 'Set API key' })
    await form.getByLabel('API key').fill(KEY)
    await form.getByRole('button', { name: 'Save key' }).click()
    await expect
      .poll(() => page.getByText(/Key set, ends with/).textContent(), { timeout: 10_000 })
      .toContain('4f2a')
    expect(await form.count()).toBe(0)
    expect(await domText()).not.toContain(KEY)

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
