import { readFileSync } from 'node:fs'
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

// Given a wallet whose mirror holds what the service said of two transactions — a swap it
// ran through Jupiter, and an NFT bought on Magic Eden with the sale event of Helius's
// published NFT_SALE payload (the buyer made this wallet) — History shows each one's type
// and source, its details the service's sentence and the sale from the wallet's side, and
// the feed says where the trade ran and what the sale was.

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

const PUBLISHED = JSON.parse(
  readFileSync('test/fixtures/service/webhook.enhanced/docs-nft-sale-magic-eden.json', 'utf8'),
) as { description: string; events: { nft: Record<string, unknown> } }[]

describe('e2e: History and the feed show what the service said', () => {
  let fx: Fixture
  let browser: Browser
  let page: Page
  let mirror: GeneratedMirror
  let sale: string
  let swap: string
  const seller = testAddress(71)

  beforeAll(async () => {
    fx = await startTestWebShell({
      ownMirror: (own) => {
        const db = own.database.sqlite
        mirror = generateHistoryMirror(db, {
          address: testAddress(14),
          label: 'Collector',
          count: 40,
        })
        const [newest, second] = db
          .prepare(
            'select signature from transactions where wallet_id = ? order by slot desc limit 2',
          )
          .all(mirror.walletId) as { signature: string }[]
        sale = newest?.signature ?? ''
        swap = second?.signature ?? ''
        const event = PUBLISHED[0]?.events.nft ?? {}
        const describe = db.prepare(
          'update transactions set kind = ?, source = ?, description = ?, nft_event_json = ? where wallet_id = ? and signature = ?',
        )
        describe.run(
          'NFT_SALE',
          'MAGIC_EDEN',
          `${seller} sold Fox #7637 to ${mirror.address} for 72 SOL on MAGIC_EDEN.`,
          JSON.stringify({ ...event, buyer: mirror.address, seller }),
          mirror.walletId,
          sale,
        )
        describe.run(
          'SWAP',
          'JUPITER',
          `${mirror.address} swapped 1.5 SOL for 210.3 USDC.`,
          null,
          mirror.walletId,
          swap,
        )
        // Two priced tokens and one the service does not price.
        addBalanceSnapshots(db, mirror, [
          {
            atSec: mirror.newestSec,
            tokens: [
              { mintIndex: 0, balance: 2, priceUsd: 150 },
              { mintIndex: 1, balance: 100, priceUsd: 1 },
              { mintIndex: 2, balance: 5_000, priceUsd: null },
            ],
          },
        ])
      },
    })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.goto(fx.shell.url)
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  const base = () => fx.shell.url.split('?')[0]
  const rowOf = (signature: string) =>
    page
      .getByRole('grid', { name: 'Transaction history' })
      .getByRole('row')
      .filter({
        has: page.locator(`[title="${signature}"]`),
      })

  it('History shows the type and source, and the details the sentence and the sale', async () => {
    await page.goto(`${base()}#/wallet/${mirror.address}/history`)
    await expect
      .poll(() => rowOf(sale).locator('.type').textContent())
      .toBe('NFT sale · Magic Eden')
    expect(await rowOf(swap).locator('.type').textContent()).toBe('Swap · Jupiter')
    await rowOf(sale).click()
    await page.keyboard.press('Enter')
    const details = page.getByRole('complementary', { name: 'Transaction details' })
    await expect.poll(() => details.isVisible()).toBe(true)
    const text = (await details.textContent()) ?? ''
    expect(text).toContain('NFT sale on Magic Eden')
    expect(text).toContain(`sold Fox #7637 to ${mirror.address} for 72 SOL on MAGIC_EDEN.`)
    expect(text).toContain(
      `Bought for 72 SOL on Magic Eden from ${seller.slice(0, 4)}…${seller.slice(-4)}`,
    )
    expect(text).toContain(`Seller ${seller}`)
    await screenshot(page, 'service-said-history')
  })

  it('the feed says where the trade ran and what the sale was', async () => {
    await page.goto(`${base()}#/feed`)
    const row = (signature: string) => page.locator(`li.row[data-signature="${signature}"]`)
    await expect.poll(() => row(sale).count()).toBe(1)
    expect(await row(sale).locator('.said').textContent()).toMatch(
      /^Bought for 72 SOL on Magic Eden from /,
    )
    expect(await row(swap).locator('.said').textContent()).toBe(
      `${mirror.address} swapped 1.5 SOL for 210.3 USDC.`,
    )
    await screenshot(page, 'service-said-feed')
  })

  it('a token the service does not price shows "—", never $0, and the total says it leaves it out', async () => {
    await page.goto(`${base()}#/wallet/${mirror.address}/overview`)
    const table = page.getByRole('table', { name: 'Token balances' })
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3)
    const unpriced = table.locator('tbody tr').last()
    const cells = await unpriced.locator('td.num').allTextContents()
    // Amount, Price, Value, Share: no price, no value, no share of the total.
    expect(cells.slice(1, 3).map((c) => c.trim())).toEqual(['—', '—'])
    expect(await page.getByTestId('wallet-value').textContent()).toContain('$400.00')
    expect(await page.getByTestId('unpriced-count').textContent()).toContain(
      '1 token without a price not counted',
    )
    await screenshot(page, 'service-said-unpriced')
  })
})
