import BetterSqlite3 from 'better-sqlite3'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Asset } from '../../src-shared/api/das'
import { OPERATIONS } from '../../src-shared/api/operations'
import { creditsPerCall } from '../../src-shared/api/prices'
import type {
  CompressedAccount,
  GetTransactionWithCompressionInfoResult,
} from '../../src-shared/api/compression'
import { decimalFromRaw, decimalText } from '../../src-shared/domain/exact-amount'
import type { Channel, ChannelInput, ChannelOutput } from '../../src-shared/ipc/contract'
import type { LookupRequestInput } from '../../src-shared/ipc/lookup-schemas'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startReviewApp, type ReviewApp } from '../helpers/review-app-fixture'
import { readWalletTruth, simulatorCredits } from '../helpers/sim-truth'

// The look-up desk (issue 15) in Chromium against the web shell on demo data: whatever is
// pasted into the header search lands on its view, the cost is shown before anything is
// asked, the shown values are the simulator's, and a kept answer reopens offline.

describe('e2e: the look-up desk', () => {
  let app: ReviewApp
  let browser: Browser
  let page: Page

  const base = () => app.shell.url.split('#')[0]!
  const search = () => page.getByPlaceholder('Paste an address, mint, signature or hash')
  const viewNav = () => page.getByRole('navigation', { name: 'Look-up views' })
  const currentView = () => viewNav().locator('[aria-current="page"]').textContent()
  const runButton = () => page.getByRole('button', { name: /^Look up — / })

  async function call<C extends Channel>(
    channel: C,
    input: ChannelInput<C>,
  ): Promise<ChannelOutput<C>> {
    const answer = await app.core.dispatch(channel, input)
    if (!answer.ok) throw new Error(answer.error.message)
    return answer.result as ChannelOutput<C>
  }

  /** Credits the test's own direct calls charged to the demo key (never in the ledger). */
  let directCredits = 0
  /** Asks the simulator directly (the truth to compare with); charged to the demo key. */
  async function rpc<T>(method: string, params: unknown): Promise<T> {
    const op = Object.values(OPERATIONS).find(
      (o) => o.transport === 'json-rpc' && o.rpcMethod === method,
    )
    if (!op) throw new Error(`${method} is not a JSON-RPC operation of the service`)
    directCredits += creditsPerCall(op.priceKey)
    const response = await fetch(`${app.simulatorUrl()}/?api-key=demo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: '1', method, params }),
    })
    const body = (await response.json()) as { result?: T; error?: { message: string } }
    if (body.result === undefined) throw new Error(`${method}: ${body.error?.message}`)
    return body.result
  }

  const creditWords = (n: number) => `${n.toLocaleString('en-US')} credit${n === 1 ? '' : 's'}`
  /** Credits the ledger holds for look-ups alone (syncs of watched wallets run beside them). */
  function lookupCredits(): number {
    const db = new BetterSqlite3(app.demoDatabasePath, { readonly: true })
    try {
      return (
        db
          .prepare(
            `select coalesce(sum(credits), 0) as n from credit_ledger where stream = 'lookup'`,
          )
          .get() as { n: number }
      ).n
    } finally {
      db.close()
    }
  }
  const ledgerCredits = async () => (await call('credits:overview', undefined)).totalCredits

  /**
   * Ledger and simulator agree on everything the app spent (background syncs included), and
   * the ledger's spend since the mark is returned. Whole totals are compared, not spends since
   * a mark: a watching call the simulator has charged but the ledger not yet written would
   * fall on different sides of a mark taken from both.
   */
  async function expectCreditsAgree(mark: number): Promise<number> {
    let ledger = 0
    await expect
      .poll(
        async () => {
          ledger = await ledgerCredits()
          return (await simulatorCredits(app.simulatorUrl())) - directCredits - ledger
        },
        // A watching round's paced calls can keep one call in flight for a while.
        { timeout: 30_000 },
      )
      .toBe(0)
    return ledger - mark
  }

  const creditMark = () => ledgerCredits()

  /** The whole page in one picture: the main area scrolls on its own, so the window grows to it. */
  async function shot(name: string): Promise<void> {
    const height = await page.locator('main.main').evaluate((el) => el.scrollHeight + 40)
    await page.setViewportSize({ width: 1400, height: Math.min(Math.max(height, 900), 5000) })
    await screenshot(page, name)
    await page.setViewportSize({ width: 1400, height: 900 })
  }

  /** Pastes a text into the header search the way a person does (a paste event). */
  async function paste(text: string): Promise<void> {
    await search().click()
    await search().evaluate((el, pasted) => {
      const data = new DataTransfer()
      data.setData('text/plain', pasted)
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }))
    }, text)
  }

  /** Lands on a view: the recognised one, or the offered choice when the text is ambiguous. */
  async function landOn(view: string, choice: string): Promise<void> {
    await expect
      .poll(() =>
        page
          .getByRole('group', { name: 'Look up as' })
          .count()
          .then(async (n) => n > 0 || (await currentView()) === view),
      )
      .toBe(true)
    if ((await currentView()) !== view)
      await page.getByRole('button', { name: `Look up ${choice}` }).click()
    await expect.poll(currentView).toBe(view)
  }

  /** Runs the open look-up after checking the button states the plan's cost. */
  async function runPlanned(request: LookupRequestInput): Promise<number> {
    const plan = await call('lookup:plan', request)
    expect(plan.credits).not.toBeNull()
    await expect
      .poll(() => runButton().textContent())
      .toBe(`Look up — ${creditWords(plan.credits!)}`)
    expect(await page.getByTestId('plan-summary').textContent()).toContain(plan.summary)
    const before = lookupCredits()
    await runButton().click()
    await expect.poll(() => page.getByTestId('fetched').isVisible(), { timeout: 20_000 }).toBe(true)
    // The look-up spent what its plan said, no more.
    expect(lookupCredits() - before).toBe(plan.credits)
    return plan.credits!
  }

  beforeAll(async () => {
    app = await startReviewApp()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale: 'en-US' })
  })
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  it('the demo wallets sync on their own', async () => {
    await page.goto(app.shell.url)
    // The demo wallets' first syncs settle first, so the mirror knows their ids.
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Main' }).getByText('Up to date').count(), {
        timeout: 60_000,
      })
      .toBeGreaterThanOrEqual(4)
  })

  it('a pasted wallet address opens the wallet view; it costs nothing until asked, and watching is a choice', async () => {
    const demo = await call('demo:wallets', undefined)
    const watchedBefore = (await call('watchlist:list', undefined)).map((w) => w.address)
    // The unwatched demo wallet with the shortest history: watching it later syncs little.
    const candidates = await Promise.all(
      demo
        .filter((a) => !watchedBefore.includes(a))
        .map(async (a) => ({ address: a, truth: await readWalletTruth(app.simulatorUrl(), a) })),
    )
    const { address, truth } = candidates
      .filter((c) => c.truth.txCount > 0)
      .sort((a, b) => a.truth.txCount - b.truth.txCount)[0]!
    expect(address).toBeDefined()

    const mark = await creditMark()
    const lookupBefore = lookupCredits()
    await paste(address)
    await landOn('Wallet', 'as wallet')
    await expect.poll(() => runButton().isVisible()).toBe(true)
    await shot('lookup-01-wallet-plan')
    // Nothing asked yet.
    expect(lookupCredits()).toBe(lookupBefore)

    const planned = await runPlanned({ view: 'wallet', address })
    expect(await page.getByTestId('fetched').textContent()).toContain(
      `cost ${creditWords(planned)}`,
    )
    const answer = (await call('lookup:cached', { view: 'wallet', address }))!
    expect(answer.credits).toBe(planned)
    expect(await expectCreditsAgree(mark)).toBeGreaterThanOrEqual(planned)

    // Balances: the simulator's holdings, exactly.
    const rows = page.getByRole('table', { name: 'Looked-up balances' }).locator('tbody tr')
    await expect.poll(() => rows.count()).toBeGreaterThan(0)
    const truthText = new Map(truth.balances.map((b) => [b.mint, b.text]))
    for (const row of await rows.all()) {
      const mint = (await row.getAttribute('data-mint'))!
      expect(await row.locator('.amount').getAttribute('data-exact')).toBe(truthText.get(mint))
    }
    // The first page of history: the simulator's newest entries, fee for fee.
    const history = page.getByRole('table', { name: 'Looked-up history' }).locator('tbody tr')
    const truthFee = new Map(truth.history.map((h) => [h.signature, decimalText(h.fee)]))
    expect(await history.count()).toBe(
      answer.result.view === 'wallet' ? answer.result.history.data.length : -1,
    )
    for (const row of (await history.all()).slice(0, 10)) {
      const signature = (await row.getAttribute('data-signature'))!
      expect(await row.locator('td.num .amount').getAttribute('data-exact')).toBe(
        truthFee.get(signature),
      )
    }
    // Transfers: raw amounts shown exactly with their decimals.
    const transfers = page.getByRole('table', { name: 'Looked-up transfers' }).locator('tbody tr')
    // A swap has a leg per mint: a transfer is told apart by its signature, mint and direction.
    const legKey = (signature: string, mint: string, direction: string) =>
      `${signature} ${mint} ${direction}`
    const truthTransfers = new Map(
      truth.transfers.map((t) => [legKey(t.signature, t.mint, t.direction), t]),
    )
    expect(await transfers.count()).toBeGreaterThan(0)
    for (const row of (await transfers.all()).slice(0, 10)) {
      const [signature, mint, direction] = await Promise.all(
        ['data-signature', 'data-mint', 'data-direction'].map(
          async (name) => (await row.getAttribute(name))!,
        ),
      )
      const t = truthTransfers.get(legKey(signature!, mint!, direction!))!
      expect(await row.locator('.amount').getAttribute('data-exact')).toBe(
        decimalFromRaw(t.amountRaw, t.decimals),
      )
    }
    // A look-up leaves the watchlist as it was.
    expect((await call('watchlist:list', undefined)).map((w) => w.address)).toEqual(watchedBefore)
    await shot('lookup-02-wallet-answer')

    await page.getByRole('button', { name: 'Watch this wallet' }).click()
    await expect.poll(() => page.getByTestId('watched').isVisible()).toBe(true)
    const sidebar = page.getByRole('navigation', { name: 'Main' })
    await expect
      .poll(() => sidebar.locator(`a[href="#/wallet/${address}/overview"]`).count())
      .toBeGreaterThan(0)
    // Its first sync ends before the next look-up, whose credits are compared call for call.
    const state = async () =>
      (await call('sync:status', undefined)).find((w) => w.address === address)?.state
    await expect.poll(state, { timeout: 60_000 }).not.toMatch(/^(never|syncing)$/)
  }, 90_000)

  it('a pasted mint opens the asset view with the simulator’s asset and its own image', async () => {
    const collector = app.profileAddress('nft-collector')
    const mint = (await readWalletTruth(app.simulatorUrl(), collector)).nftMints[0]!
    const [truth] = await rpc<Asset[]>('getAssetBatch', { ids: [mint] })
    const mark = await creditMark()
    await paste(mint)
    await landOn('Asset by id', 'as asset')
    const credits = await runPlanned({ view: 'asset', ids: [mint] })
    expect(await expectCreditsAgree(mark)).toBeGreaterThanOrEqual(credits)
    const row = page.getByRole('table', { name: 'Assets' }).locator(`tr[data-id="${mint}"]`)
    expect(await row.locator('.name strong').textContent()).toBe(truth!.content.metadata!.name)
    expect(await row.locator(`[data-value="${truth!.ownership.owner}"]`).count()).toBe(1)
    // The image is the app's own copy, loaded lazily; never the simulator's address.
    const img = row.locator('img')
    await expect.poll(() => img.count()).toBe(1)
    expect(await img.getAttribute('loading')).toBe('lazy')
    const src = new URL((await img.getAttribute('src'))!, base())
    expect(src.origin).toBe(new URL(base()).origin)
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth))
      .toBeGreaterThan(0)
    await shot('lookup-03-asset')
  }, 90_000)

  it('a pasted signature opens the compressed transaction with its opened accounts', async () => {
    const holder = app.profileAddress('compressed-holder')
    const signature = (await readWalletTruth(app.simulatorUrl(), holder)).compressedOwner[0]!
    const truth = await rpc<GetTransactionWithCompressionInfoResult>(
      'getTransactionWithCompressionInfo',
      { signature },
    )
    await search().fill(signature)
    await search().press('Enter')
    await expect.poll(currentView).toBe('Compressed transaction')
    await runPlanned({ view: 'compressed-tx', signature })
    const opened = page.getByRole('table', { name: 'Opened accounts' }).locator('tbody tr')
    expect(
      await opened.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-hash'))),
    ).toEqual(truth.compression_info.openedAccounts.map((a) => a.account.hash))
    await shot('lookup-04-compressed-tx')
  })

  it('a pasted compressed hash opens the compressed account; its proof costs 100 credits, asked first', async () => {
    const holder = app.profileAddress('compressed-holder')
    const owned = await rpc<{ value: { items: CompressedAccount[] } }>(
      'getCompressedAccountsByOwner',
      { owner: holder },
    )
    const account = owned.value.items[0]!
    await paste(account.hash)
    await landOn('Compressed account', 'as compressed account')
    await runPlanned({ view: 'compressed-account', hashes: [account.hash] })
    const row = page
      .getByRole('table', { name: 'Compressed accounts' })
      .locator(`tr[data-hash="${account.hash}"]`)
    expect(await row.locator('.amount').getAttribute('data-exact')).toBe(
      decimalFromRaw(decimalText(account.lamports), 9),
    )
    await shot('lookup-05-compressed-account')

    // Refresh says its cost again and spends only once confirmed.
    const again = await call('lookup:plan', { view: 'compressed-account', hashes: [account.hash] })
    const label = `Refresh — ${creditWords(again.credits!)}`
    const refreshCredits = lookupCredits()
    await page.getByRole('button', { name: label }).click()
    const ask = page.getByRole('dialog', { name: 'Confirm the cost' })
    await expect.poll(() => ask.isVisible()).toBe(true)
    expect(await ask.getByTestId('confirm-summary').textContent()).toContain(
      creditWords(again.credits!),
    )
    expect(lookupCredits()).toBe(refreshCredits)
    await ask.getByRole('button', { name: label }).click()
    await expect.poll(() => lookupCredits() - refreshCredits).toBe(again.credits)
    await expect
      .poll(() => page.getByTestId('fetched').textContent())
      .not.toContain('from the cache')

    // The validity proof: marked 100 credits, run only once the dialog is confirmed.
    const plan = await call('lookup:plan', { view: 'compressed-proof', hashes: [account.hash] })
    expect(plan.credits).toBe(100)
    expect(plan.needsConfirmation).toBe(true)
    await viewNav().getByRole('button', { name: 'Validity proof' }).click()
    await page.getByLabel('Account hashes to prove').fill(account.hash)
    await page.getByRole('button', { name: 'Check the cost' }).click()
    const mark = await creditMark()
    const lookupBefore = lookupCredits()
    await runButton().click()
    const dialog = page.getByRole('dialog', { name: 'Confirm the cost' })
    await expect.poll(() => dialog.isVisible()).toBe(true)
    expect(await dialog.textContent()).toContain('100 credits')
    await shot('lookup-06-proof-confirm')
    expect(lookupCredits()).toBe(lookupBefore)
    await dialog.getByRole('button', { name: 'Look up — 100 credits' }).click()
    await expect.poll(() => page.getByTestId('fetched').isVisible(), { timeout: 20_000 }).toBe(true)
    expect(lookupCredits() - lookupBefore).toBe(100)
    expect(await expectCreditsAgree(mark)).toBeGreaterThanOrEqual(100)
    const leaves = page.getByRole('table', { name: 'Proven accounts' }).locator('tbody tr')
    await expect.poll(() => leaves.count()).toBe(1)
    await shot('lookup-07-proof')
  }, 90_000)

  it('the other views: compressed owner, assets by owner, token accounts, priority fee, token metadata', async () => {
    const holder = app.profileAddress('compressed-holder')
    const collector = app.profileAddress('nft-collector')
    const open = (request: LookupRequestInput) =>
      page.goto(`${base()}#/lookup/${encodeURIComponent(JSON.stringify(request))}`)

    await open({ view: 'compressed-owner', owner: holder })
    await runPlanned({ view: 'compressed-owner', owner: holder })
    const balance = await rpc<{ value: number }>('getCompressedBalanceByOwner', { owner: holder })
    expect(
      await page.getByTestId('compressed-sol').locator('.amount').getAttribute('data-exact'),
    ).toBe(decimalFromRaw(decimalText(balance.value), 9))
    await shot('lookup-08-compressed-owner')
    // The smallest window the app supports keeps the views list and the tables in view.
    await page.setViewportSize({ width: 1000, height: 700 })
    await screenshot(page, 'lookup-08b-compressed-owner-1000x700')
    await page.setViewportSize({ width: 1400, height: 900 })

    await open({ view: 'assets-by-owner', owner: collector, page: 1 })
    await runPlanned({ view: 'assets-by-owner', owner: collector, page: 1 })
    await expect
      .poll(() => page.getByRole('table', { name: 'Assets' }).locator('tbody tr').count())
      .toBeGreaterThan(0)
    await shot('lookup-09-assets-by-owner')
    // The next page is a new look-up: its cost is shown before it is asked.
    await page.getByRole('button', { name: 'Next page' }).click()
    await expect.poll(() => runButton().isVisible()).toBe(true)

    await open({ view: 'token-accounts', owner: holder, page: 1 })
    await runPlanned({ view: 'token-accounts', owner: holder, page: 1 })
    await shot('lookup-10-token-accounts')

    await open({ view: 'priority-fee', accounts: [holder], computeUnits: 200_000 })
    await runPlanned({ view: 'priority-fee', accounts: [holder], computeUnits: 200_000 })
    const fee = (await call('lookup:cached', {
      view: 'priority-fee',
      accounts: [holder],
      computeUnits: 200_000,
    }))!
    const levels = page.getByRole('table', { name: 'Priority fee levels' }).locator('tbody tr')
    if (fee.result.view !== 'priority-fee') throw new Error('not a fee answer')
    await expect.poll(() => levels.count()).toBe(fee.result.levels.length)
    for (const l of fee.result.levels) {
      const row = page.locator(`tr[data-level="${l.level}"]`)
      expect(await row.locator('.amount').nth(1).getAttribute('data-exact')).toBe(l.sol)
    }
    await shot('lookup-11-priority-fee')

    const mint = (await readWalletTruth(app.simulatorUrl(), collector)).nftMints[0]!
    await open({ view: 'token-metadata', mints: [mint] })
    await expect
      .poll(() => page.getByRole('button', { name: 'Look up — price unknown' }).isVisible())
      .toBe(true)
    expect(await page.getByText('Deprecated', { exact: false }).first().isVisible()).toBe(true)
    await shot('lookup-12-token-metadata-plan')
    await page.getByRole('button', { name: 'Look up — price unknown' }).click()
    const dialog = page.getByRole('dialog', { name: 'Confirm the cost' })
    await expect.poll(() => dialog.isVisible()).toBe(true)
    expect(await dialog.textContent()).toContain('price is unknown')
    await dialog.getByRole('button', { name: 'Look up — price unknown' }).click()
    await expect.poll(() => page.getByTestId('fetched').isVisible(), { timeout: 20_000 }).toBe(true)
    await shot('lookup-13-token-metadata')
    // The DAS alternative opens the asset view for the same mints.
    await page.getByRole('button', { name: /as assets \(DAS\)/ }).click()
    await expect.poll(currentView).toBe('Asset by id')
  })

  it('bad input is named before anything is asked, and costs nothing', async () => {
    await page.goto(`${base()}#/lookup`)
    await viewNav().getByRole('button', { name: 'Asset by id' }).click()
    const lookupBefore = lookupCredits()
    await page.getByLabel(/Asset ids/).fill('0xNotAnAsset')
    await page.getByRole('button', { name: 'Check the cost' }).click()
    const problems = page.getByRole('alert', { name: 'What is wrong' })
    await expect.poll(() => problems.textContent()).toContain('Asset id 1')
    expect(await problems.textContent()).toContain('base58')
    await shot('lookup-14-bad-input')
    expect(lookupCredits()).toBe(lookupBefore)
    // The same for more ids than one look-up takes.
    const ids = Array.from({ length: 1001 }, () => '11111111111111111111111111111111')
    await page.getByLabel(/Asset ids/).fill(ids.join('\n'))
    await page.getByRole('button', { name: 'Check the cost' }).click()
    await expect.poll(() => problems.textContent()).toContain('at most 1000 at once, 1001 given')
    expect(lookupCredits()).toBe(lookupBefore)
  })

  it('a kept look-up reopens with its fetch time once the service is gone', async () => {
    const recent = await call('lookup:recent', undefined)
    const wallet = recent.find((e) => e.request.view === 'wallet')!
    expect(wallet).toBeDefined()
    await app.stopService()
    await page.goto(`${base()}#/watchlist`)
    await page.goto(`${base()}#/lookup/${encodeURIComponent(JSON.stringify(wallet.request))}`)
    const fetched = page.getByTestId('fetched')
    await expect.poll(() => fetched.isVisible(), { timeout: 10_000 }).toBe(true)
    const text = (await fetched.textContent())!
    expect(text).toContain('from the cache')
    expect(text).toContain(`cost ${creditWords(wallet.credits)}`)
    const at = new Date(wallet.fetchedAtSec * 1000)
    expect(text).toContain(String(at.getFullYear()))
    expect(text).toContain(
      `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`,
    )
    expect(await page.getByRole('table', { name: 'Looked-up balances' }).isVisible()).toBe(true)
    await shot('lookup-15-offline-cached')

    // A look-up never fetched cannot be answered without the service, and says so.
    const fresh: LookupRequestInput = {
      view: 'priority-fee',
      accounts: [app.profileAddress('whale')],
      computeUnits: 300_000,
    }
    await page.goto(`${base()}#/lookup/${encodeURIComponent(JSON.stringify(fresh))}`)
    // A page opened after the app found the service gone knows it at once (app:info);
    // otherwise the first attempt finds it out.
    const knowsOffline = await page
      .getByRole('alert', { name: 'Offline' })
      .waitFor({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      )
    if (!knowsOffline) await runButton().click()
    const cost = page.locator('section[aria-label="Cost"]')
    await expect.poll(() => cost.textContent(), { timeout: 30_000 }).toContain('needs the network')
    // Offline, no new look-up can be started.
    expect(await runButton().isDisabled()).toBe(true)
    await shot('lookup-16-offline-new')
  }, 90_000)
})
