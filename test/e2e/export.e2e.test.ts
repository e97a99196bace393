import { readFileSync } from 'node:fs'
import { parse } from 'csv-parse/sync'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HistoryPage } from '@shared/ipc/review-schemas'
import { launchChromium, screenshot, downloadedFile } from '../helpers/chromium'
import { startReviewApp, type ReviewApp } from '../helpers/review-app-fixture'

// Given a synced demo wallet, when the person filters History by a mint and exports it,
// then the browser downloads a CSV whose transactions are exactly the filtered view's.

describe('e2e: export from the History view', () => {
  let app: ReviewApp
  let browser: Browser
  let page: Page
  let address = ''

  beforeAll(async () => {
    app = await startReviewApp()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1360, height: 860 }, acceptDownloads: true })
    address = app.profileAddress('casual')
  })
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  /** The view's rows for a filter, read through the same channel the page uses. */
  async function viewSignatures(filters: Record<string, unknown>): Promise<string[]> {
    const signatures: string[] = []
    let cursor: unknown = null
    do {
      const reply = await app.core.dispatch('history:page', {
        address,
        filters,
        cursor,
        limit: 200,
      })
      if (!reply.ok) throw new Error(reply.error.message)
      const result = reply.result as HistoryPage
      signatures.push(...result.rows.filter((r) => r.changes.length > 0).map((r) => r.signature))
      cursor = result.nextCursor
    } while (cursor !== null)
    return signatures
  }

  it('downloads the filtered rows as a CSV, with progress to done', async () => {
    await page.goto(app.shell.url)
    await expect
      .poll(
        async () =>
          (
            (await app.core.dispatch('sync:status', undefined)) as {
              ok: boolean
              result?: { address: string; state: string }[]
            }
          ).result?.find((s) => s.address === address)?.state,
        { timeout: 30_000 },
      )
      .toBe('up-to-date')
    await page.goto(`${app.shell.url.split('?')[0]}#/wallet/${address}/history`)
    const grid = page.getByRole('grid', { name: 'Transaction history' })
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 10_000 }).toBeGreaterThan(3)
    await page.getByLabel('Mint').selectOption({ label: 'USDC' })
    const mintValue = await page.getByLabel('Mint').inputValue()

    await page.getByRole('button', { name: 'Export CSV…' }).click()
    await screenshot(page, 'export-01-dialog')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export', exact: true }).click(),
    ])
    const path = await downloadedFile(download)
    expect(download.suggestedFilename()).toMatch(
      /^heliograph-Demo-casual-balance-changes-full-to-\d{4}-\d{2}-\d{2}\.csv$/,
    )
    const records = parse(readFileSync(path), { columns: true }) as Record<string, string>[]
    expect(records.length).toBeGreaterThan(0)

    const expected = await viewSignatures({ mint: mintValue })
    expect(expected.length).toBeGreaterThan(0)
    expect(new Set(records.map((r) => r.Signature))).toEqual(new Set(expected))
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: /Exported [\d,]+ balance changes of USDC/ })
          .count(),
      )
      .toBe(1)
    await screenshot(page, 'export-02-done')
  }, 60_000)

  it('exports two wallets in the Koinly layout from the Export page', async () => {
    await page.getByRole('link', { name: 'Export', exact: true }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Export' }).isVisible()).toBe(true)
    await page.getByRole('checkbox', { name: 'Demo: casual' }).check()
    await page.getByRole('checkbox', { name: 'Demo: nft-collector' }).check()
    await page.getByRole('button', { name: 'Export CSV…' }).click()
    await page
      .getByRole('dialog', { name: 'Export to CSV' })
      .getByRole('combobox', { name: 'Layout' })
      .selectOption('koinly')
    await screenshot(page, 'export-03-page')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export', exact: true }).click(),
    ])
    const text = readFileSync(await downloadedFile(download), 'utf8')
    expect(text.split('\r\n')[0]).toBe(
      'Date (UTC),Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
    )
    const hashes = new Set(
      (parse(text, { columns: true }) as Record<string, string>[]).map((r) => r.TxHash ?? ''),
    )
    const casual = new Set(await viewSignatures({}))
    // Both wallets' transactions are there, and only theirs.
    expect([...casual].some((s) => hashes.has(s))).toBe(true)
    expect([...hashes].some((h) => !casual.has(h))).toBe(true)
  })

  it('the wallet page shows what the next sync may cost and takes a depth limit', async () => {
    // The depth and cost section is the first sync's (issue 48): a wallet whose first sync
    // waits for a yes shows it. A monthly budget of the person's own with 2,000 credits left:
    // the trader's first sync (newest 1,000 transactions) is more than a tenth of that.
    const dispatch = async <T>(channel: string, input: unknown): Promise<T> => {
      const reply = await app.core.dispatch(channel, input)
      if (!reply.ok) throw new Error(`${channel}: ${reply.error.message}`)
      return reply.result as T
    }
    const spent = (await dispatch<{ totalCredits: number }>('credits:overview', undefined))
      .totalCredits
    await dispatch('settings:update', {
      monthlyBudget: spent + 2_000,
      monthlyBudgetFollowsPlan: false,
    })
    address = await app.watchProfile('active-trader', 'Trader')
    await expect
      .poll(
        async () =>
          (
            await dispatch<{ address: string; askedFirst?: { kind: string } | null }[]>(
              'sync:status',
              undefined,
            )
          ).find((s) => s.address === address)?.askedFirst?.kind,
        { timeout: 30_000 },
      )
      .toBe('first-sync')
    await page.goto(`${app.shell.url.split('?')[0]}#/wallet/${address}/overview`)
    await page.getByText('Backfill depth and cost').click()
    // What the next sync may cost, before it spends: the estimate the core makes for it.
    const estimate = await dispatch<{ summary: string }>('sync:estimate', { address })
    expect(estimate.summary).toMatch(
      /^First sync ≈ [\d,]+ credits \(newest 1,000 transactions, holdings, names\); older history on request$/,
    )
    await expect.poll(() => page.locator('.estimate').textContent()).toBe(estimate.summary)
    await page.getByLabel('Newest transactions only').fill('5000')
    await page.getByRole('button', { name: 'Set limit' }).click()
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Depth limit saved' }).count())
      .toBe(1)
    const status = await app.core.dispatch('sync:status', undefined)
    const streams = (
      status.ok
        ? (status.result as {
            address: string
            streams: { stream: string; depthLimitCount: number | null }[]
          }[])
        : []
    ).find((s) => s.address === address)?.streams
    expect(streams?.find((s) => s.stream === 'history')?.depthLimitCount).toBe(5000)
    await screenshot(page, 'export-04-depth')
  }, 60_000)
})
