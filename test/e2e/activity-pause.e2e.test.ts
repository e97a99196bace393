import type { Browser, Page } from 'playwright-core'
import type { WalletSyncStatus } from '@shared/ipc/sync-schemas'
import type { DemoWalletsAdded, WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestWebShell } from '../helpers/web-shell-fixture'

// Issue 13: "Pause" on Activity did nothing: isPaused stayed false and the row kept its
// Pause button. Pause goes through the contract, the row shows the wallet paused with a
// Resume button, and Resume syncs it again. (Pausing during a sync:
// test/integration/app/pause-stops-a-syncing-wallet.test.ts.)

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

describe('e2e: Pause and Resume on Activity', () => {
  let fx: Fixture
  let browser: Browser
  let page: Page
  let casual: WatchedWallet

  const call = async <T>(channel: string, input: unknown): Promise<T> => {
    const answer = await fx.core.dispatch(channel, input)
    if (!answer.ok) throw new Error(`${channel}: ${JSON.stringify(answer.error)}`)
    return answer.result as T
  }
  const status = async (): Promise<WalletSyncStatus> =>
    (await call<WalletSyncStatus[]>('sync:status', undefined)).find(
      (s) => s.address === casual.address,
    ) as WalletSyncStatus

  beforeAll(async () => {
    fx = await startTestWebShell()
    const demo = await call<DemoWalletsAdded>('demo:add-wallets', undefined)
    const wallets = [...demo.alreadyWatched, ...demo.added]
    casual = wallets.find((w) => w.label === 'Demo: casual') as WatchedWallet
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale: 'en-US' })
    await page.goto(fx.shell.url)
    await page.getByRole('heading', { name: 'Watchlist', level: 1 }).waitFor()
    await page.goto(`${new URL(fx.shell.url).origin}/#/activity`)
    await page.getByRole('table', { name: 'Sync state of each wallet' }).waitFor()
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  const row = () =>
    page
      .getByRole('table', { name: 'Sync state of each wallet' })
      .locator('tbody tr', { hasText: 'Demo: casual' })

  it('Pause marks the wallet paused, in the contract and on the page', async () => {
    await row().getByRole('button', { name: 'Pause' }).click()
    // Pause lets the calls already queued for the wallet finish and be written (they are
    // paid for): with the demo wallets' first syncs under way that can take seconds.
    await expect
      .poll(() => row().getByRole('button', { name: 'Resume' }).count(), { timeout: 30_000 })
      .toBe(1)
    expect(await row().textContent()).toContain('Paused')
    const paused = await status()
    expect(paused.isPaused).toBe(true)
    expect(paused.state).toBe('paused')
    await screenshot(page, 'activity-paused')
  })

  it('Resume clears the pause and syncs the wallet', async () => {
    await row().getByRole('button', { name: 'Resume' }).click()
    await expect.poll(() => row().getByRole('button', { name: 'Pause' }).count()).toBe(1)
    expect((await status()).isPaused).toBe(false)
    await expect
      .poll(async () => (await status()).streams.every((s) => s.isBackfillComplete), {
        timeout: 60_000,
      })
      .toBe(true)
    await expect.poll(() => row().textContent(), { timeout: 10_000 }).toContain('Up to date')
  })
})
