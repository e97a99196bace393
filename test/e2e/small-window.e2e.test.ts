import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import {
  addBalanceSnapshots,
  generateHistoryMirror,
  type GeneratedMirror,
} from '../helpers/history-mirror'
import { startTestWebShell } from '../helpers/web-shell-fixture'
import { testAddress } from '../helpers/wallets'

// Given a wallet with a long history, every token of the mirror and a collection of
// numbered NFTs, when the window is 1000×700 (and 1400×900), then every page fits: nothing
// spills sideways, every column of History and Transfers sits inside the window, symbols
// are whole, and the sidebar narrows to leave the tables their room.

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

const SMALL = { width: 1000, height: 700 }
const LARGE = { width: 1400, height: 900 }
// The fixture puts even entries in "Moon Gates" and odd ones in "Sun Dials".
const NFT_NAMES = [
  'Solar Flare Genesis Collection #6672',
  'Solar Flare Genesis Collection #1204',
  'Solar Flare Genesis Collection #698',
  'Solar Flare Genesis Collection #70',
  'Solar Flare Genesis Collection #9',
]

/** What does not fit in the window: sideways page scroll, columns or symbols cut off. */
async function fitProblems(page: Page, gridName?: string): Promise<string[]> {
  return page.evaluate((name) => {
    const problems: string[] = []
    const doc = document.scrollingElement as HTMLElement
    if (doc.scrollWidth > doc.clientWidth) {
      problems.push(`page scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`)
    }
    const main = document.querySelector('main') as HTMLElement
    if (main.scrollWidth > main.clientWidth) {
      problems.push(`main scrolls sideways: ${main.scrollWidth} > ${main.clientWidth}`)
    }
    if (name === null) return problems
    const grid = document.querySelector(`[role=grid][aria-label="${name}"]`)
    const table = grid?.closest('.keyset-table')
    if (!grid || !table) return [...problems, `no grid ${name}`]
    const right = Math.min(window.innerWidth, table.getBoundingClientRect().right)
    for (const header of table.querySelectorAll('[role=columnheader]')) {
      const box = header.getBoundingClientRect()
      if (box.right > right + 0.5 || box.width < 8) {
        problems.push(
          `column ${header.textContent?.trim()} is cut: ${box.left}–${box.right} > ${right}`,
        )
      }
    }
    for (const cell of grid.querySelectorAll('[role=gridcell]')) {
      const box = cell.getBoundingClientRect()
      for (const part of cell.querySelectorAll('.symbol, .mono, a, time')) {
        const inner = part.getBoundingClientRect()
        if (inner.right > box.right + 0.5 || inner.right > right + 0.5) {
          problems.push(`"${part.textContent?.trim()}" is cut in its cell`)
        }
      }
    }
    return [...new Set(problems)]
  }, gridName ?? null)
}

describe('e2e: every page fits a small window', () => {
  let fx: Fixture
  let browser: Browser
  let page: Page
  let mirror: GeneratedMirror

  beforeAll(async () => {
    fx = await startTestWebShell({
      ownMirror: (own) => {
        mirror = generateHistoryMirror(own.database.sqlite, {
          address: testAddress(13),
          label: 'Treasury wallet',
          count: 1_500,
          keepTruth: true,
        })
        const tokens = (scale: number) =>
          mirror.mints.map((_, i) => ({
            mintIndex: i,
            balance: 12_345.678901 * (i + 1) * scale,
            priceUsd: 1.5 * (i + 1),
          }))
        addBalanceSnapshots(own.database.sqlite, mirror, [
          { atSec: mirror.newestSec - 86_400, tokens: tokens(0.8) },
          {
            atSec: mirror.newestSec,
            tokens: tokens(1),
            nftNames: NFT_NAMES,
          },
        ])
      },
    })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: SMALL })
    await page.goto(fx.shell.url)
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  const base = () => fx.shell.url.split('?')[0]
  const grid = (name: string) => page.getByRole('grid', { name })

  async function openTab(tab: string): Promise<void> {
    await page.goto(`${base()}#/wallet/${mirror.address}/${tab}`)
  }

  for (const size of [SMALL, LARGE]) {
    const at = `${size.width}×${size.height}`

    it(`Overview wraps instead of spilling sideways at ${at}, also after a resize`, async () => {
      // Drawn at the other size first: the chart must follow the window both ways.
      await page.setViewportSize(size === SMALL ? LARGE : SMALL)
      await openTab('overview')
      await expect.poll(() => page.locator('.u-wrap').count()).toBe(1)
      await page.setViewportSize(size)
      await expect
        .poll(() => page.getByRole('table', { name: 'Token balances' }).locator('tbody tr').count())
        .toBe(mirror.mints.length)
      await expect
        .poll(() =>
          page.getByRole('region', { name: 'NFTs', exact: true }).getByRole('listitem').count(),
        )
        .toBe(NFT_NAMES.length)
      await expect.poll(() => fitProblems(page)).toEqual([])
      await screenshot(page, `small-window-overview-${size.width}`)
    })

    it(`History keeps Fee, Fee payer and Status in the window at ${at}`, async () => {
      await page.setViewportSize(size)
      await openTab('history')
      await expect
        .poll(() => grid('Transaction history').getByRole('row').count())
        .toBeGreaterThan(5)
      await screenshot(page, `small-window-history-${size.width}`)
      expect(await fitProblems(page, 'Transaction history')).toEqual([])
    })

    it(`Transfers shows whole symbols and the Signature at ${at}`, async () => {
      await page.setViewportSize(size)
      await openTab('transfers')
      await expect.poll(() => grid('Transfers').getByRole('row').count()).toBeGreaterThan(5)
      await screenshot(page, `small-window-transfers-${size.width}`)
      expect(await fitProblems(page, 'Transfers')).toEqual([])
    })

    it(`Compressed fits at ${at}`, async () => {
      await page.setViewportSize(size)
      await openTab('compressed')
      await expect
        .poll(() => grid('Compressed signatures').getByRole('row').count())
        .toBeGreaterThan(5)
      await screenshot(page, `small-window-compressed-${size.width}`)
      expect(await fitProblems(page, 'Compressed signatures')).toEqual([])
    })
  }

  it('NFT names sort by their number (#698 before #6672) and keep it in view when cut', async () => {
    await page.setViewportSize(SMALL)
    await openTab('overview')
    const cards = page.getByRole('region', { name: 'NFTs', exact: true }).getByRole('listitem')
    await expect.poll(() => cards.count()).toBe(NFT_NAMES.length)
    await cards.first().scrollIntoViewIfNeeded()
    await screenshot(page, 'small-window-nfts-1000')
    const shown = await cards.evaluateAll((items) =>
      items.map((item) => {
        const name = item.querySelector('.name') as HTMLElement
        const box = name.getBoundingClientRect()
        // Which characters are painted inside the card: the cut part ends in an ellipsis.
        const parts = name.children.length > 0 ? [...name.children] : [name]
        const visible = parts.map((part) => {
          const inner = part.getBoundingClientRect()
          const isWhole = part.scrollWidth <= part.clientWidth && inner.right <= box.right + 0.5
          return isWhole ? (part.textContent ?? '') : '…'
        })
        return { title: name.title, visible: visible.join('') }
      }),
    )
    expect(shown.map((s) => s.title.slice(s.title.lastIndexOf(' ') + 1))).toEqual([
      ...['#9', '#698', '#6672'], // Moon Gates
      ...['#70', '#1204'], // Sun Dials
    ])
    // The names are too long for a card: each is cut, and each still shows its number.
    for (const { title, visible } of shown) {
      expect(visible).toMatch(/…/)
      expect(visible.endsWith(title.slice(title.lastIndexOf(' ')))).toBe(true)
    }
  })

  it('the sidebar narrows in a small window', async () => {
    const widthAt = async (size: { width: number; height: number }) => {
      await page.setViewportSize(size)
      return page
        .getByRole('navigation', { name: 'Main' })
        .evaluate((el) => el.getBoundingClientRect().width)
    }
    const large = await widthAt(LARGE)
    const small = await widthAt(SMALL)
    expect(small).toBeLessThan(large)
    expect(small).toBeLessThanOrEqual(0.22 * SMALL.width)
    // Narrow, its own content still fits: nothing scrolls sideways or sits on its neighbour.
    const crowded = await page.getByRole('navigation', { name: 'Main' }).evaluate((nav) => {
      const cramped = [nav, ...nav.querySelectorAll('*')].filter(
        (el) =>
          el.scrollWidth > el.clientWidth + 1 &&
          getComputedStyle(el).overflow !== 'visible' &&
          !el.matches('.name, .sr-only'),
      )
      const row = [...(nav.querySelector('.heading-row')?.children ?? [])].map((c) =>
        c.getBoundingClientRect(),
      )
      const touching = row.slice(1).filter((box, i) => box.left - (row[i]?.right ?? 0) < 4)
      return [
        ...cramped.map((el) => el.className),
        ...touching.map(() => 'heading row items touch'),
      ]
    })
    expect(crowded).toEqual([])
    await screenshot(page, 'small-window-sidebar-1000')
  })
})
