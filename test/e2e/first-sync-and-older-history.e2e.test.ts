import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WalletSyncStatus } from '@shared/ipc/sync-schemas'
import { createCore, type Core } from '../../src-main/app/core'
import { startWebShell, type RunningWebShell } from '../../src-main/shell/web/web-shell'
import { startSimulator, type RunningSimulator } from '../../src-main/simulator/simulator-server'
import { launchChromium, screenshot } from '../helpers/chromium'
import { simulatorCredits } from '../helpers/sim-truth'
import { makeTempDir } from '../helpers/temp-dir'
import { BUILT_RENDERER_DIR } from '../helpers/web-shell-fixture'

// Issue 48 in the app: the add dialog shows each choice of depth with its estimated
// credits before anything is watched; the wallet page says how much of the history it
// holds ("newest 1,000 of ≈ … transactions"); the end of History offers older history at
// its cost; a first sync that asks first waits for a yes; an export over a period the
// mirror does not hold says so.

describe('e2e: a first sync the person agreed to, and older history on request', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let core: Core
  let shell: RunningWebShell
  let browser: Browser
  let page: Page
  let whale: string

  const call = async <T>(channel: string, input: unknown): Promise<T> => {
    const answer = await core.dispatch(channel, input)
    if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`)
    return answer.result as T
  }
  const statusOf = async (address: string): Promise<WalletSyncStatus | undefined> =>
    (await call<WalletSyncStatus[]>('sync:status', undefined)).find((s) => s.address === address)
  const dialog = () => page.getByRole('dialog')
  /** An element's text as a person reads it: one space between words. */
  const textOf = async (locator: ReturnType<Page['locator']>): Promise<string> =>
    ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim()

  beforeAll(async () => {
    sim = await startSimulator({ seed: 48, clock: { mode: 'manual' } })
    whale = sim.chain.walletByProfile('whale').address
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      serviceUrl: sim.url,
      apiKey: 'demo',
      isWatching: true,
    })
    // Unpaced (the plan's pace is beside the point here), with a Free plan's month of credits
    // as the budget: without a plan there is no month to take a tenth of.
    await call('settings:update', {
      plan: 'off',
      monthlyBudget: 1_000_000,
      monthlyBudgetFollowsPlan: false,
    })
    shell = await startWebShell({ core, rendererDir: BUILT_RENDERER_DIR })
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await shell?.close()
    await core?.close()
    await sim?.close()
    temp.remove()
  })

  it('the add dialog prices each depth before anything is watched, and asks for a large one', async () => {
    await page.goto(shell.url)
    await page.getByLabel('Wallet address').fill(whale)
    await page.getByLabel('Label (optional)').fill('Whale')
    await page.getByRole('button', { name: 'Watch wallet' }).click()
    await expect
      .poll(() => textOf(page.getByTestId('first-sync-summary')), { timeout: 20_000 })
      .toMatch(
        /^First sync ≈ [\d,]+ credits \(newest 1,000 transactions, \d+ holdings, names\); older history on request$/,
      )
    // Each choice says its credits; all of a million transactions is open-ended.
    await expect
      .poll(() => textOf(dialog()))
      .toMatch(/All of it \(≈ [\d,]+\+ transactions\) ≈ [\d,]+\+ credits/)
    await expect.poll(() => textOf(dialog())).toMatch(/This estimate cost 122 credits/)
    // Nothing is watched yet: only the look was spent (its funder, 100, is the first sync's).
    expect(await call<unknown[]>('watchlist:list', undefined)).toEqual([])
    expect(await simulatorCredits(sim.url)).toBe(122)
    await screenshot(page, 'first-sync-dialog')

    await dialog().getByLabel('All of it').check()
    await expect
      .poll(() => textOf(dialog().getByRole('alert')))
      .toMatch(/is more than a tenth of the 999,878 credits left this month/)
    await expect
      .poll(() =>
        dialog()
          .getByRole('button', { name: /Agree and start watching/ })
          .count(),
      )
      .toBe(1)
    await screenshot(page, 'first-sync-dialog-asks')

    await dialog().getByLabel('Newest 1,000 transactions').check()
    await dialog()
      .getByRole('button', { name: /^Start watching — first sync ≈/ })
      .click()
    await expect
      .poll(() => textOf(page.locator('#add-wallet-message')))
      .toMatch(/Now watching Whale\. First sync ≈ [\d,]+ credits/)
    // Watching runs the first sync: the newest 1,000.
    await expect
      .poll(async () => (await statusOf(whale))?.streams.find((s) => s.stream === 'history'), {
        timeout: 90_000,
      })
      .toMatchObject({ itemsStored: 1_000, isBackfillComplete: true })
  }, 150_000)

  it('the wallet page says how much it holds; History ends with older history at its cost', async () => {
    await page.goto(`${shell.url}#/wallet/${whale}/history`)
    await expect
      .poll(() => textOf(page.getByTestId('history-held')))
      .toMatch(/History: newest 1,000 of ≈ (\d{3},\d{3}|\d,\d{3},\d{3})\+ transactions/)
    const table = page.getByRole('grid', { name: 'Transaction history' })
    await expect.poll(() => table.locator('[role=row][data-key]').count()).toBeGreaterThan(0)
    // Scrolled to its end, the list offers what it does not hold yet.
    const older = page.getByRole('button', { name: /^Load older history \(≈ [\d,]+ credits\)$/ })
    await expect
      .poll(async () => {
        await table.evaluate((el) => el.scrollTo(0, el.scrollHeight))
        return older.count()
      })
      .toBe(1)
    await screenshot(page, 'history-end-older-history')

    await older.click()
    await expect
      .poll(() => textOf(page.getByTestId('older-summary')))
      .toMatch(
        /^Older history: ≈ [\d,]+ credits \(1,000 more transactions, older than \d{4}-\d\d-\d\d\)$/,
      )
    await screenshot(page, 'older-history-dialog')
    const before = await simulatorCredits(sim.url)
    await dialog()
      .getByRole('button', { name: /^Load — ≈/ })
      .click()
    await expect
      .poll(() => textOf(page.getByTestId('history-held')), { timeout: 90_000 })
      .toMatch(/History: newest 2,000 of ≈ (\d{3},\d{3}|\d,\d{3},\d{3})\+ transactions/)
    expect(await simulatorCredits(sim.url)).toBeGreaterThan(before)
    // The list reads the mirror again from its top; its end says what the load did.
    const end = page.getByTestId('older-history')
    await expect
      .poll(
        async () => {
          await table.evaluate((el) => el.scrollTo(0, el.scrollHeight))
          return (await end.count()) === 0 ? '' : textOf(end)
        },
        { timeout: 30_000 },
      )
      .toMatch(/Loaded 1,000 older transactions; the mirror holds 2,000/)
    // The list's count and the wallet's history line follow, at the same pace as before.
    await expect
      .poll(() => textOf(page.getByText(/^2,000 transactions$/)))
      .toBe('2,000 transactions')
    await screenshot(page, 'older-history-loaded')
  }, 150_000)

  it('an export over a period the mirror does not hold says so and offers the load', async () => {
    await page.getByRole('button', { name: 'Export CSV…' }).click()
    const note = page.getByRole('note')
    await expect
      .poll(() => textOf(note))
      .toMatch(
        /Whale: the mirror holds its history from \d{4}-\d\d-\d\d only; anything older is not in it/,
      )
    await expect
      .poll(() =>
        note.getByRole('button', { name: /Load older history \(≈ [\d,]+\+? credits\)/ }).count(),
      )
      .toBe(1)
    await screenshot(page, 'export-history-gap')
    await page.getByRole('button', { name: 'Export CSV…' }).click()
  })

  it('a first sync that asks first waits on the wallet page until the person agrees', async () => {
    // A small monthly budget of the person's own: a tenth of what is left is a few credits.
    await call('settings:update', { monthlyBudget: 20_000 })
    const trader = sim.chain.walletByProfile('active-trader').address
    await call('watchlist:add', { address: trader, label: 'Trader' })
    await expect
      .poll(async () => (await statusOf(trader))?.askedFirst?.kind, { timeout: 30_000 })
      .toBe('first-sync')
    await page.goto(`${shell.url}#/wallet/${trader}/overview`)
    const banner = page.getByRole('alert').filter({ hasText: 'so it waits for you' })
    await expect
      .poll(() => textOf(banner))
      .toMatch(
        /The first sync of .* would take more than a tenth of the [\d,]+ credits left this month/,
      )
    expect((await statusOf(trader))?.streams.every((s) => s.itemsStored === 0)).toBe(true)
    await expect
      .poll(() => textOf(page.getByTestId('history-held')))
      .toBe('History: none held yet (first sync under way)')
    await screenshot(page, 'first-sync-waits-for-you')

    await banner.getByRole('button', { name: 'Start the first sync…' }).click()
    await dialog()
      .getByRole('button', { name: /^Agree — up to [\d,]+ credits$/ })
      .click()
    await expect
      .poll(async () => (await statusOf(trader))?.streams.find((s) => s.stream === 'history'), {
        timeout: 90_000,
      })
      .toMatchObject({ itemsStored: 1_000, isBackfillComplete: true })
    await expect.poll(() => banner.count()).toBe(0)
    await screenshot(page, 'first-sync-agreed')
  }, 150_000)
})
