import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, reloadAt, screenshot } from '../helpers/chromium'
import { generateHistoryMirror, type GeneratedMirror } from '../helpers/history-mirror'
import { startTestWebShell } from '../helpers/web-shell-fixture'
import { testAddress } from '../helpers/wallets'

// Given a wallet of 1,500 transactions (several keyset pages), when the person opens
// History and uses the keyboard, the date filters and the details panel, then the keys work
// at once, End and Home reach both ends of the filtered view, a backwards date range is
// named as such with a way out, and nothing in the details panel or the filter bar is cut.

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

const LARGE = { width: 1400, height: 900 }
const SMALL = { width: 1000, height: 700 }

describe('e2e: History from the keyboard, its date filters and details', () => {
  let fx: Fixture
  let browser: Browser
  let page: Page
  let mirror: GeneratedMirror
  let newestFirst: GeneratedMirror['transactions'] = []

  beforeAll(async () => {
    fx = await startTestWebShell({
      ownMirror: (own) => {
        mirror = generateHistoryMirror(own.database.sqlite, {
          address: testAddress(15),
          label: 'Keys wallet',
          count: 1_500,
          keepTruth: true,
        })
      },
    })
    // History's keyset order: time, slot, signature, newest first.
    newestFirst = [...mirror.transactions].sort(
      (a, b) =>
        (b.blockTimeSec ?? 0) - (a.blockTimeSec ?? 0) ||
        b.slot - a.slot ||
        (a.signature < b.signature ? 1 : -1),
    )
    browser = await launchChromium()
    page = await browser.newPage({ viewport: LARGE })
    // Within the test's own 30 s, so that a step that hangs is named by its error.
    page.setDefaultTimeout(10_000)
    await page.goto(fx.shell.url)
    // The first page has started (its socket answers) before a test reloads it.
    await page.getByText('Keys wallet').first().waitFor()
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  const grid = () => page.getByRole('grid', { name: 'Transaction history' })
  const selectedKey = () =>
    grid()
      .locator('[role=row][aria-selected=true]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')))
  const isBusy = () => grid().evaluate((el) => el.getAttribute('aria-busy') === 'true')

  async function openHistory(): Promise<void> {
    await reloadAt(page, `#/wallet/${mirror.address}/overview`)
    await page.getByRole('tab', { name: 'History' }).click()
    await expect.poll(() => grid().getByRole('row').count()).toBeGreaterThan(5)
  }

  it('arrow keys move through History as soon as the tab is shown, not only once clicked', async () => {
    await openHistory()
    // The focus is still on the tab the person clicked.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tab')
    await page.keyboard.press('ArrowDown')
    await expect.poll(selectedKey).toEqual([newestFirst[0]!.signature])
    await page.keyboard.press('ArrowDown')
    await expect.poll(selectedKey).toEqual([newestFirst[1]!.signature])
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('grid')

    // Opened from its address with nothing focused, too.
    await reloadAt(page, `#/wallet/${mirror.address}/history`)
    await expect.poll(() => grid().getByRole('row').count()).toBeGreaterThan(5)
    await page.keyboard.press('ArrowDown')
    await expect.poll(selectedKey).toEqual([newestFirst[0]!.signature])

    // Typing in the search field keeps its keys.
    await page.getByRole('searchbox').focus()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('End')
    expect(await selectedKey()).toEqual([newestFirst[0]!.signature])
  })

  it('End goes to the oldest transaction of the filtered view, Home back to the newest', async () => {
    await openHistory()
    await grid().focus()
    await page.keyboard.press('End')
    await expect.poll(selectedKey).toEqual([newestFirst.at(-1)!.signature])
    await expect.poll(isBusy).toBe(false)
    await screenshot(page, 'history-keys-end')
    await page.keyboard.press('ArrowUp')
    await expect.poll(selectedKey).toEqual([newestFirst.at(-2)!.signature])
    await page.keyboard.press('Home')
    await expect.poll(selectedKey).toEqual([newestFirst[0]!.signature])

    // Filtered to one mint: the ends are the oldest and newest rows that hold it.
    const usdc = mirror.mints[1]!
    const withUsdc = newestFirst.filter((t) => t.changes.some((c) => c.mint === usdc))
    expect(withUsdc.length).toBeGreaterThan(200)
    await page.getByLabel('Mint').selectOption({ label: 'USDC' })
    await expect
      .poll(() => grid().locator('[role=row]').first().getAttribute('data-key'))
      .toBe(withUsdc[0]!.signature)
    await grid().focus()
    await page.keyboard.press('End')
    await expect.poll(selectedKey).toEqual([withUsdc.at(-1)!.signature])
    await page.keyboard.press('Home')
    await expect.poll(selectedKey).toEqual([withUsdc[0]!.signature])
    // Oldest first, End is the newest.
    await page.getByRole('search', { name: 'Filter' }).getByLabel('Order').selectOption('oldest')
    await expect
      .poll(() => grid().locator('[role=row]').first().getAttribute('data-key'))
      .toBe(withUsdc.at(-1)!.signature)
    await grid().focus()
    await page.keyboard.press('End')
    await expect.poll(selectedKey).toEqual([withUsdc[0]!.signature])
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await page.getByRole('search', { name: 'Filter' }).getByLabel('Order').selectOption('newest')
  })

  for (const size of [LARGE, SMALL]) {
    it(`the details panel shows the whole fee payer at ${size.width}×${size.height}`, async () => {
      await page.setViewportSize(size)
      await openHistory()
      await grid().locator('[role=row]').first().dblclick()
      const details = page.getByRole('complementary', { name: 'Transaction details' })
      await expect.poll(() => details.count()).toBe(1)
      // The generated wallet pays its own fees.
      const payer = mirror.address
      const shown = await details.evaluate((panel, address) => {
        const box = panel.getBoundingClientRect()
        const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT)
        let node: Node | null
        while ((node = walker.nextNode())) {
          if (!node.textContent?.includes(address)) continue
          const range = document.createRange()
          range.selectNodeContents(node)
          const lines = [...range.getClientRects()]
          // Inside its own field, not spilling over the panel's margin or its edge.
          const field = (node.parentElement?.closest('dd') ?? panel).getBoundingClientRect()
          const right = Math.min(field.right, box.right)
          return {
            isInside: lines.every((r) => r.left >= field.left - 0.5 && r.right <= right + 0.5),
            isScrollingSideways: panel.scrollWidth > panel.clientWidth,
          }
        }
        return null
      }, payer)
      expect(shown).toEqual({ isInside: true, isScrollingSideways: false })
      expect(await details.getByRole('button', { name: 'Copy fee payer' }).count()).toBe(1)
      await screenshot(page, `history-details-${size.width}`)
      await page.keyboard.press('Escape')
    })
  }

  it('a backwards date range says that "From" is after "To" and offers to swap the dates', async () => {
    await page.setViewportSize(LARGE)
    await openHistory()
    const day = (sec: number) => {
      const d = new Date(sec * 1000)
      const pad = (n: number) => String(n).padStart(2, '0')
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
    }
    const newestDay = day(mirror.newestSec)
    const dayAfter = day(mirror.newestSec + 86_400)
    await page.getByLabel('From', { exact: true }).fill(dayAfter)
    await page.getByLabel('To', { exact: true }).fill(newestDay)
    await expect.poll(() => grid().textContent()).toMatch(/No transaction matches/)
    const text = await grid().textContent()
    expect(text).not.toMatch(/wider date range/)
    expect(text).toMatch(/“From” is after “To”/)
    const alert = page.getByRole('alert').filter({ hasText: 'backwards' })
    expect(await alert.textContent()).toMatch(/“From” \(.+\) is after “To” \(.+\)/)
    await screenshot(page, 'history-dates-backwards')

    await alert.getByRole('button', { name: 'Swap dates' }).click()
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(newestDay)
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(dayAfter)
    await expect
      .poll(() => grid().locator('[role=row]').first().getAttribute('data-key'))
      .toBe(newestFirst[0]!.signature)
    expect(await alert.count()).toBe(0)
    await page.getByRole('button', { name: 'Clear filters' }).click()
  })

  it('"Clear filters" stays on one line, beside the other filters, at 1400 px', async () => {
    await page.setViewportSize(LARGE)
    await openHistory()
    const layout = await page.getByRole('search', { name: 'Filter' }).evaluate((bar) => {
      const bottoms = [...bar.children].map((c) => Math.round(c.getBoundingClientRect().bottom))
      const button = [...bar.querySelectorAll('button')].find((b) =>
        b.textContent?.includes('Clear filters'),
      ) as HTMLButtonElement
      const range = document.createRange()
      range.selectNodeContents(button)
      const textLines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size
      // Aligned at their bottoms: one line of filters has one bottom edge.
      return { bottomSpread: Math.max(...bottoms) - Math.min(...bottoms), textLines }
    })
    await screenshot(page, 'history-filters-1400')
    expect(layout.textLines).toBe(1)
    expect(layout.bottomSpread).toBeLessThan(8)
  })
})
