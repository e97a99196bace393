import { readFileSync } from 'node:fs'
import { parse } from 'csv-parse/sync'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreditsOverview } from '@shared/ipc/sync-schemas'
import type { BalanceAtPlan, BalanceAtResult } from '@shared/ipc/wallet-schemas'
import { launchChromium, screenshot, downloadedFile } from '../helpers/chromium'
import { startReviewApp, type ReviewApp } from '../helpers/review-app-fixture'

// Given synced demo wallets, when the person picks "Balances on a date" on the Export page,
// then the preview says what the file holds and what it costs before it runs, and the
// downloaded CSV holds each wallet's balance-at answer; asked of the service, it costs
// what the button said.

describe('e2e: the Export page exports balances on a date', () => {
  let app: ReviewApp
  let browser: Browser
  let page: Page
  let casual = ''
  let collector = ''
  const date = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10)

  beforeAll(async () => {
    app = await startReviewApp()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1360, height: 860 }, acceptDownloads: true })
    casual = app.profileAddress('casual')
    collector = app.profileAddress('nft-collector')
  })
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  async function call<T>(channel: string, input: unknown): Promise<T> {
    const reply = await app.core.dispatch(channel as never, input as never)
    if (!reply.ok) throw new Error(reply.error.message)
    return reply.result as T
  }

  const previewText = () =>
    page.getByRole('status', { name: 'What the export will hold' }).textContent()

  it('from the mirror: the preview says free, and the file holds every wallet’s balance-at answer', async () => {
    await page.goto(app.shell.url)
    for (const address of [casual, collector])
      await expect
        .poll(
          async () =>
            (await call<{ address: string; state: string }[]>('sync:status', undefined)).find(
              (s) => s.address === address,
            )?.state,
          { timeout: 60_000 },
        )
        .toBe('up-to-date')
    await page.getByRole('link', { name: 'Export', exact: true }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Export' }).isVisible()).toBe(true)
    await page.getByRole('checkbox', { name: 'Demo: casual' }).check()
    await page.getByRole('checkbox', { name: 'Demo: nft-collector' }).check()
    await page
      .getByRole('combobox', { name: 'What', exact: true })
      .selectOption({ label: 'Balances on a date' })
    await page.getByLabel('Balances on', { exact: true }).fill(date)
    await page.getByRole('button', { name: 'Export CSV…' }).click()
    await expect
      .poll(previewText)
      .toMatch(
        /^[\d,]+ balances, wallets Demo: casual, Demo: nft-collector, as of .*rebuilt from the mirror \(free\)/,
      )
    await screenshot(page, 'export-balances-at-01-mirror')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export', exact: true }).click(),
    ])
    expect(download.suggestedFilename()).toBe(
      `heliograph-2-wallets-balances-at-full-as-of-${date}.csv`,
    )
    const rows = parse(readFileSync(await downloadedFile(download)), { columns: true }) as Record<
      string,
      string
    >[]
    for (const address of [casual, collector]) {
      const answer = await call<BalanceAtResult>('balances:at', {
        address,
        date,
        source: 'local',
      })
      expect(answer.balances.length).toBeGreaterThan(0)
      expect(
        rows
          .filter((r) => r.Wallet === address)
          .map((r) => ({ mint: r.Mint, symbol: r.Symbol || null, amount: r.Amount })),
      ).toEqual(answer.balances)
    }
    expect(new Set(rows.map((r) => r['Date (UTC)']))).toEqual(new Set([date]))
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: `Exported ${rows.length} balances` })
          .count(),
      )
      .toBe(1)
  }, 150_000)

  it('from the service: the cost shows before the run, NFTs only when ticked, and the run costs it', async () => {
    await page.getByRole('combobox', { name: 'Answered by' }).selectOption('service')
    await page.getByRole('button', { name: 'Export CSV…' }).click()
    await expect.poll(previewText).toMatch(/from the service, \d+ mint\(s\) × balance-at/)
    const fungible =
      /= ([\d,]+) credits; ([\d,]+) NFT mints not asked \(asking them too: \+([\d,]+) credits\)/.exec(
        (await previewText()) ?? '',
      )
    expect(fungible, (await previewText()) ?? '').not.toBeNull()
    const credits = Number(fungible![1]!.replace(/,/g, ''))
    expect(Number(fungible![2]!.replace(/,/g, ''))).toBeGreaterThanOrEqual(173)
    const exportButton = page.getByRole('button', {
      name: `Export · ${credits.toLocaleString('en-US')} credits`,
    })
    await expect.poll(() => exportButton.isVisible()).toBe(true)
    await screenshot(page, 'export-balances-at-02-service-cost')

    // Ticking the NFTs shows what they add before anything is asked.
    await page.getByRole('checkbox', { name: 'Ask about NFTs too (a call each)' }).check()
    await expect.poll(previewText).toMatch(/NFT mints included/)
    const withNfts = /= ([\d,]+) credits/.exec((await previewText()) ?? '')
    expect(Number(withNfts![1]!.replace(/,/g, ''))).toBe(
      credits + Number(fungible![3]!.replace(/,/g, '')),
    )
    await page.getByRole('checkbox', { name: 'Ask about NFTs too (a call each)' }).uncheck()
    await expect.poll(() => exportButton.isVisible()).toBe(true)

    // The ledger names the wallet of each call: the two wallets' credits, whatever else syncs.
    const walletCredits = async (): Promise<number> =>
      (await call<CreditsOverview>('credits:overview', undefined)).byWallet
        .filter((w) => w.address === casual || w.address === collector)
        .reduce((n, w) => n + w.credits, 0)
    const before = await walletCredits()
    const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()])
    const rows = parse(readFileSync(await downloadedFile(download)), { columns: true }) as Record<
      string,
      string
    >[]
    expect((await walletCredits()) - before).toBe(credits)
    // A day the mirror covers: the service's answers (NFTs from the mirror) are the mirror's.
    for (const address of [casual, collector]) {
      const local = await call<BalanceAtResult>('balances:at', { address, date, source: 'local' })
      expect(
        rows
          .filter((r) => r.Wallet === address)
          .map((r) => ({ mint: r.Mint, symbol: r.Symbol || null, amount: r.Amount })),
      ).toEqual(local.balances)
    }
    await screenshot(page, 'export-balances-at-03-service-done')
  }, 120_000)

  it('Overview: a day the mirror cannot rebuild offers the NFTs as an opt-in, with their cost', async () => {
    // A history partial by its depth: watched again, the collector's first sync holds all
    // but its oldest transaction, so 2020 is before what it holds. (A depth set after a
    // backfill that reached the start leaves the history whole: nothing older exists.)
    const held = (
      await call<{ address: string; streams: { stream: string; itemsStored: number }[] }[]>(
        'sync:status',
        undefined,
      )
    )
      .find((s) => s.address === collector)
      ?.streams.find((s) => s.stream === 'history')?.itemsStored
    expect(held).toBeGreaterThan(1)
    await call('watchlist:remove', { address: collector })
    await call('watchlist:add', {
      address: collector,
      label: 'Collector',
      depth: { maxTransactions: held! - 1, sinceSec: null },
    })
    await expect
      .poll(
        async () =>
          (await call<{ address: string; state: string }[]>('sync:status', undefined)).find(
            (s) => s.address === collector,
          )?.state,
        { timeout: 60_000 },
      )
      .toBe('up-to-date')
    const day = '2020-01-01'
    const plan = await call<BalanceAtPlan>('balances:at-plan', { address: collector, date: day })
    const withNfts = await call<BalanceAtPlan>('balances:at-plan', {
      address: collector,
      date: day,
      includeNfts: true,
    })
    expect(plan.coveredLocally).toBe(false)
    expect(plan.nftMints).toBeGreaterThanOrEqual(173)
    expect(withNfts.serviceCredits).toBe(plan.serviceCredits + plan.nftCredits)
    await page.goto(`${app.shell.url.split('?')[0]}#/wallet/${collector}/overview`)
    await page.getByLabel('Balances on date').fill(day)
    const ask = (credits: number) =>
      page.getByRole('button', {
        name: `Ask the service: ${credits.toLocaleString('en-US')} credits`,
      })
    await expect.poll(() => ask(plan.serviceCredits).isVisible()).toBe(true)
    const optIn = page.getByRole('checkbox', {
      name: `Also ask about ${plan.nftMints} NFT mints (+${plan.nftCredits.toLocaleString('en-US')} credits)`,
    })
    await expect.poll(() => optIn.isVisible()).toBe(true)
    await page.getByRole('heading', { name: `Balances on ${day}` }).scrollIntoViewIfNeeded()
    await screenshot(page, 'export-balances-at-04-overview-nft-opt-in')
    await optIn.check()
    await expect.poll(() => ask(withNfts.serviceCredits).isVisible()).toBe(true)
  }, 90_000)
})
