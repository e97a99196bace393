import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../helpers/chromium'
import { generateHistoryMirror, type GeneratedMirror } from '../helpers/history-mirror'
import { startTestWebShell } from '../helpers/web-shell-fixture'
import { testAddress } from '../helpers/wallets'

// Given a wallet of 40,000 transactions, when the person scrolls History far down and back
// up, then the page holds a bounded window of rows (the DOM and the loaded rows do not grow
// with the distance scrolled) and scrolling back brings the newest rows again, in order.

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

describe('e2e: History keeps a bounded window of rows', () => {
  let fx: Fixture
  let browser: Browser
  let page: Page
  let mirror: GeneratedMirror

  beforeAll(async () => {
    fx = await startTestWebShell({
      ownMirror: (own) => {
        mirror = generateHistoryMirror(own.database.sqlite, {
          address: testAddress(8),
          label: 'Big wallet',
          count: 40_000,
          keepTruth: true,
        })
      },
    })
    // Newest first in keyset order (time, slot, signature), as History shows it.
    mirror.transactions.sort(
      (a, b) =>
        (b.blockTimeSec ?? 0) - (a.blockTimeSec ?? 0) ||
        b.slot - a.slot ||
        (a.signature < b.signature ? 1 : -1),
    )
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  const grid = () => page.getByRole('grid', { name: 'Transaction history' })
  const state = () =>
    grid().evaluate((el) => ({
      domRows: el.querySelectorAll('[role=row]').length,
      spacerPx: (el.querySelector('.spacer') as HTMLElement | null)?.offsetHeight ?? 0,
      busy: el.getAttribute('aria-busy') === 'true',
      firstKey: el.querySelector('[role=row]')?.getAttribute('data-key') ?? null,
    }))

  async function scrollTo(edge: 'bottom' | 'top'): Promise<void> {
    await grid().evaluate((el, e) => {
      el.scrollTop = e === 'bottom' ? el.scrollHeight : 0
    }, edge)
    await expect.poll(async () => (await state()).busy, { timeout: 10_000 }).toBe(false)
  }

  it('scrolls 8,000 rows down with a flat window, then back up to the newest row', async () => {
    await page.goto(fx.shell.url)
    await page.goto(`${fx.shell.url.split('?')[0]}#/wallet/${mirror.address}/history`)
    await expect.poll(async () => (await state()).domRows, { timeout: 10_000 }).toBeGreaterThan(5)
    const newest = mirror.transactions[0]!.signature
    expect((await state()).firstKey).toBe(newest)

    let maxSpacer = 0
    let maxDom = 0
    const deepestIndex = async (): Promise<number> => {
      const keys = await grid().evaluate((el) =>
        [...el.querySelectorAll('[role=row]')].map((r) => r.getAttribute('data-key')),
      )
      return mirror.transactions.findIndex((t) => t.signature === keys.at(-1))
    }
    // Scroll to the bottom again and again until 7,000+ rows went by (a loaded machine
    // may need more scrolls than a quiet one); the window must stay bounded throughout.
    let index = -1
    for (let i = 0; i < 150 && index <= 7_000; i++) {
      await scrollTo('bottom')
      const s = await state()
      maxSpacer = Math.max(maxSpacer, s.spacerPx)
      maxDom = Math.max(maxDom, s.domRows)
      index = await deepestIndex()
    }
    expect(index).toBeGreaterThan(7_000)
    expect(maxSpacer).toBeLessThanOrEqual(1_200 * 48)
    expect(maxDom).toBeLessThan(80)

    for (let i = 0; i < 60 && (await state()).firstKey !== newest; i++) await scrollTo('top')
    expect((await state()).firstKey).toBe(newest)
    // Rows in the window after the round trip are in keyset order, without gaps.
    const keys = await grid().evaluate((el) =>
      [...el.querySelectorAll('[role=row]')].map((r) => r.getAttribute('data-key')),
    )
    expect(keys).toEqual(mirror.transactions.slice(0, keys.length).map((t) => t.signature))
    // Forty or more page loads, each awaited: a walk that takes half a minute beside other
    // files on two cores.
  }, 90_000)
})
