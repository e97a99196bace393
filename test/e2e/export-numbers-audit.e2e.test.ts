import { readFileSync } from 'node:fs'
import { parse } from 'csv-parse/sync'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HistoryPage } from '@shared/ipc/review-schemas'
import { launchChromium, screenshot, downloadedFile } from '../helpers/chromium'
import { startReviewApp, type ReviewApp } from '../helpers/review-app-fixture'
import { mintsByCurrency, type TxMint } from '../helpers/tax-currencies'

// Numbers audit, export half. Given the demo wallets synced, when the person filters the
// History or Transfers table and exports it, then the file holds exactly the rows the
// table shows (and the count above it says how many); and in a Koinly file every currency
// stands for one mint.

const SIZES = [
  { width: 1400, height: 900 },
  { width: 1000, height: 700 },
] as const

/** Every row the virtual table shows, scrolled through from the top: key → signature. */
async function tableRows(grid: Locator): Promise<Map<string, string>> {
  const seen = new Map<string, string>()
  await grid.evaluate((el) => (el.scrollTop = 0))
  for (let step = 0; step < 1_000; step++) {
    await expect.poll(() => grid.getAttribute('aria-busy')).toBe('false')
    const before = seen.size
    const rows = await grid
      .locator('[role="row"]')
      .evaluateAll((els) =>
        els.map((el) => [
          el.getAttribute('data-key') ?? '',
          el.querySelector('.sig [title]')?.getAttribute('title') ?? '',
        ]),
      )
    for (const [key, signature] of rows) seen.set(key as string, signature as string)
    const isAtEnd = await grid.evaluate(
      (el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 1,
    )
    if (isAtEnd && seen.size === before) break
    await grid.evaluate((el) => (el.scrollTop += el.clientHeight))
  }
  return seen
}

function csvRecords(path: string): Record<string, string>[] {
  return parse(readFileSync(path), { columns: true }) as Record<string, string>[]
}

describe('e2e: numbers audit of exports', () => {
  let app: ReviewApp
  let browser: Browser
  let page: Page
  let casual = ''

  beforeAll(async () => {
    app = await startReviewApp()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: SIZES[0], acceptDownloads: true })
    casual = app.profileAddress('casual')
    // The first visit carries the launch token; later ones navigate within the app.
    await page.goto(app.shell.url)
  })
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  /** The demo wallets as the table will show them: every sync finished. */
  async function untilSynced(): Promise<void> {
    await expect
      .poll(
        async () => {
          const reply = await app.core.dispatch('sync:status', undefined)
          const statuses = (reply.ok ? reply.result : []) as { state: string }[]
          return statuses.length > 0 && statuses.every((s) => s.state === 'up-to-date')
        },
        { timeout: 60_000 },
      )
      .toBe(true)
  }

  const base = (): string => app.shell.url.split('?')[0] as string

  async function download(name: RegExp): Promise<Record<string, string>[]> {
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export', exact: true }).click(),
    ])
    expect(file.suggestedFilename()).toMatch(name)
    return csvRecords(await downloadedFile(file))
  }

  it('History filtered by mint and direction: the export holds exactly the rows the table shows, and says so first', async () => {
    await untilSynced()
    await page.goto(`${base()}#/wallet/${casual}/history`)
    const grid = page.getByRole('grid', { name: 'Transaction history' })
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 10_000 }).toBeGreaterThan(3)
    await page.getByLabel('Mint').selectOption({ label: 'USDC' })
    await page.getByLabel('Direction').selectOption('in')
    const countText = page.locator('.summary-row [aria-live]')
    await expect.poll(() => countText.textContent()).toMatch(/^\s*\d+ transactions?\s*$/)
    const shownCount = Number(/\d+/.exec((await countText.textContent()) ?? '')?.[0])
    const shown = await tableRows(grid)
    expect(shown.size).toBe(shownCount)

    await page.getByRole('button', { name: 'Export CSV…' }).click()
    const preview = page.getByRole('status', { name: 'What the export will hold' })
    await expect
      .poll(() => preview.textContent())
      .toContain(`${shownCount} balance changes of USDC, incoming, wallet Demo: casual, all dates`)
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await screenshot(page, `audit-history-export-preview-${size.width}`)
    }
    await page.setViewportSize(SIZES[0])
    const records = await download(
      /^heliograph-Demo-casual-balance-changes-full-to-\d{4}-\d{2}-\d{2}\.csv$/,
    )
    // One row per selected change: USDC inflows only, one per transaction the table shows.
    expect(records).toHaveLength(shownCount)
    expect(new Set(records.map((r) => r.Mint))).toEqual(
      new Set([await page.getByLabel('Mint').inputValue()]),
    )
    expect(new Set(records.map((r) => r.Direction))).toEqual(new Set(['in']))
    expect(new Set(records.map((r) => r.Signature))).toEqual(new Set(shown.values()))
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: `Exported ${shownCount} balance changes of USDC, incoming` })
          .count(),
      )
      .toBe(1)
  }, 90_000)

  it('Transfers shows its row count and exports exactly the transfers it shows', async () => {
    await untilSynced()
    await page.goto(`${base()}#/wallet/${casual}/transfers`)
    const grid = page.getByRole('grid', { name: 'Transfers' })
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 10_000 }).toBeGreaterThan(3)
    await page.getByLabel('Direction').selectOption('out')
    const countText = page.locator('.summary-row [aria-live]')
    await expect.poll(() => countText.textContent()).toMatch(/^\s*\d+ transfers?\s*$/)
    const shownCount = Number(/\d+/.exec((await countText.textContent()) ?? '')?.[0])
    const shown = await tableRows(grid)
    expect(shown.size).toBe(shownCount)

    await page.getByRole('button', { name: 'Export CSV…' }).click()
    await expect
      .poll(() => page.getByRole('status', { name: 'What the export will hold' }).textContent())
      .toContain(`${shownCount} transfers, outgoing, wallet Demo: casual, all dates`)
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await screenshot(page, `audit-transfers-export-preview-${size.width}`)
    }
    await page.setViewportSize(SIZES[0])
    const records = await download(
      /^heliograph-Demo-casual-transfers-full-to-\d{4}-\d{2}-\d{2}\.csv$/,
    )
    expect(records).toHaveLength(shownCount)
    expect(new Set(records.map((r) => r.Direction))).toEqual(new Set(['out']))
    const count = (list: readonly string[]) =>
      list.reduce((m, s) => m.set(s, (m.get(s) ?? 0) + 1), new Map<string, number>())
    expect(count(records.map((r) => r.Signature ?? ''))).toEqual(count([...shown.values()]))
  }, 90_000)

  it('a Koinly file from the Export page gives each currency exactly one mint', async () => {
    const collector = app.profileAddress('nft-collector')
    await untilSynced()
    await page.goto(`${base()}#/export`)
    await page.getByRole('checkbox', { name: 'Demo: casual' }).check()
    await page.getByRole('checkbox', { name: 'Demo: nft-collector' }).check()
    await page.getByRole('button', { name: 'Export CSV…' }).click()
    await page
      .getByRole('dialog', { name: 'Export to CSV' })
      .getByRole('combobox', { name: 'Layout' })
      .selectOption('koinly')
    await expect
      .poll(() => page.getByRole('status', { name: 'What the export will hold' }).textContent())
      .toMatch(/\d+ balance changes, wallets Demo: casual, Demo: nft-collector, all dates/)
    await screenshot(page, 'audit-koinly-export-page')
    const records = await download(/^heliograph-2-wallets-balance-changes-koinly-to-/)
    expect(records.length).toBeGreaterThan(0)

    const txMints = new Map<string, TxMint[]>()
    for (const address of [casual, collector]) {
      let cursor: unknown = null
      do {
        const reply = await app.core.dispatch('history:page', { address, cursor, limit: 200 })
        if (!reply.ok) throw new Error(reply.error.message)
        const result = reply.result as HistoryPage
        for (const row of result.rows) txMints.set(row.signature, row.changes)
        cursor = result.nextCursor
      } while (cursor !== null)
    }
    const byCurrency = mintsByCurrency(
      records.map((r) => ({
        txHash: r.TxHash ?? '',
        currencies: [
          r['Sent Currency'] ?? '',
          r['Received Currency'] ?? '',
          r['Fee Currency'] ?? '',
        ],
      })),
      (hash) => txMints.get(hash) ?? [],
    )
    expect(byCurrency.size).toBeGreaterThan(1)
    // The demo NFTs share their collection's symbol with a token: they are told apart.
    expect([...byCurrency.keys()].some((c) => c.startsWith('MOSS-'))).toBe(true)
    expect([...byCurrency].filter(([, mints]) => mints.size !== 1)).toEqual([])
  }, 90_000)
})
