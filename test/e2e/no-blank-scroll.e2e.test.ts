import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startReviewApp, type ReviewApp } from '../helpers/review-app-fixture'

// Given the demo with its wallets synced and their charts drawn, when each page is opened
// at 1400×900 and 1000×700, then nothing that scrolls goes more than 200 px past the last
// thing a person can see: what is there for screen readers alone takes no room.

const SIZES = [
  { width: 1400, height: 900 },
  { width: 1000, height: 700 },
]
const MOST_BLANK_PX = 200

/** Each scroll container (and the page) whose scroll runs past its visible content. */
async function blankScroll(page: Page): Promise<string[]> {
  return page.evaluate((most) => {
    const scrollers = [
      document.scrollingElement as HTMLElement,
      ...[...document.querySelectorAll<HTMLElement>('body *')].filter((el) => {
        const { overflowY } = getComputedStyle(el)
        return (overflowY === 'auto' || overflowY === 'scroll') && el.scrollHeight > el.clientHeight
      }),
    ]
    /** Drawn for people: not clipped away (the screen-reader-only way) and with a size. */
    const isSeen = (el: Element): boolean => {
      const box = el.getBoundingClientRect()
      if (box.width < 2 || box.height < 2) return false
      for (let at: Element | null = el; at; at = at.parentElement) {
        const style = getComputedStyle(at)
        if (style.clipPath !== 'none' || style.visibility === 'hidden') return false
      }
      return true
    }
    const problems: string[] = []
    for (const scroller of scrollers) {
      const top = scroller.getBoundingClientRect().top - scroller.scrollTop
      let contentBottom = 0
      for (const el of scroller.querySelectorAll('*')) {
        if (el.children.length > 0 || !isSeen(el)) continue
        contentBottom = Math.max(contentBottom, el.getBoundingClientRect().bottom - top)
      }
      const blank = scroller.scrollHeight - Math.max(contentBottom, scroller.clientHeight)
      if (blank > most) {
        const name = scroller === document.scrollingElement ? 'the page' : scroller.tagName
        problems.push(`${name} scrolls ${Math.round(blank)} px past its content`)
      }
    }
    return problems
  }, MOST_BLANK_PX)
}

describe('e2e: no page scrolls into blank space', () => {
  let fx: ReviewApp
  let browser: Browser
  let page: Page
  let wallet: string

  beforeAll(async () => {
    fx = await startReviewApp()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: SIZES[0] })
    // The demo's wallets sync on their own; their charts need the history.
    const deadline = Date.now() + 90_000
    for (;;) {
      const status = await fx.core.dispatch('sync:status', undefined)
      const wallets = status.ok ? (status.result as { address: string; state: string }[]) : []
      wallet = wallets[0]?.address ?? ''
      if (wallets.length > 0 && wallets.every((w) => w.state === 'up-to-date')) break
      if (Date.now() > deadline)
        throw new Error(`demo wallets not synced: ${JSON.stringify(wallets)}`)
      await new Promise((done) => setTimeout(done, 500))
    }
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  const pages = () => [
    { name: 'start', hash: '#/watchlist', ready: 'figure.chart' },
    { name: 'wallet', hash: `#/wallet/${wallet}/overview`, ready: 'figure.chart' },
    { name: 'activity', hash: '#/activity', ready: 'main h1' },
    { name: 'lookup', hash: '#/lookup', ready: 'main h1' },
    { name: 'alerts', hash: '#/alerts', ready: 'main h1' },
    { name: 'settings', hash: '#/settings', ready: 'main h1' },
  ]

  for (const size of SIZES) {
    it(`at ${size.width}×${size.height}, every page ends where its content ends`, async () => {
      await page.setViewportSize(size)
      const problems: string[] = []
      for (const { name, hash, ready } of pages()) {
        await page.goto(`${fx.shell.url.split('#')[0]}${hash}`)
        await page.locator(ready).first().waitFor()
        // Charts draw after their data arrives; give the layout its final size.
        await page.waitForLoadState('networkidle')
        problems.push(...(await blankScroll(page)).map((p) => `${name}: ${p}`))
        const main = page.locator('main.main')
        await main.evaluate((el) => el.scrollTo(0, el.scrollHeight))
        await screenshot(page, `no-blank-scroll-${name}-${size.width}x${size.height}`)
      }
      expect(problems).toEqual([])
    }, 120_000)
  }
})
