import { setTimeout as sleep } from 'node:timers/promises'
import Database from 'better-sqlite3'
import type { Browser, Page } from 'playwright-core'
import type { CreditsOverview, WalletSyncStatus } from '@shared/ipc/sync-schemas'
import type { DemoWalletsAdded, WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoDatabasePath } from '../../src-main/app/data-dir'
import { launchChromium, screenshot } from '../helpers/chromium'
import { startTestWebShell } from '../helpers/web-shell-fixture'
import { WATCHING_OFF } from '../helpers/watching-off'

// Issue 13, numbers audit (credits): for the demo wallets, every credit figure on Activity
// (today, per wallet, shared, per endpoint class and day, and the chart's bar heights)
// equals the credit ledger, read here straight from the demo mirror's SQLite file.
// The chart drew the endpoint classes over each other: a day of 6,910 credits was drawn
// as high as its largest class (4,800). Two earlier days are written into the ledger to
// show it: 4,800 + 2,000 + 110 the day before yesterday's 4,800.

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

const DAY_MS = 86_400_000
const todayStartMs = Date.UTC(
  new Date().getUTCFullYear(),
  new Date().getUTCMonth(),
  new Date().getUTCDate(),
)
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const EARLIER_DAYS = [
  { atMs: todayStartMs - 2 * DAY_MS + 3_600_000, endpointClass: 'das-enhanced', credits: 4_800 },
  { atMs: todayStartMs - DAY_MS + 3_600_000, endpointClass: 'das-enhanced', credits: 4_800 },
  { atMs: todayStartMs - DAY_MS + 3_700_000, endpointClass: 'rpc', credits: 2_000 },
  { atMs: todayStartMs - DAY_MS + 3_800_000, endpointClass: 'photon', credits: 110 },
]

/** The ledger, summed by SQL of its own rows (not through the app's summary code). */
interface LedgerTruth {
  today: number
  total: number
  shared: number
  byWallet: Map<string, number>
  byDayClass: Map<string, number>
  byDay: Map<string, number>
}

const count = (text: string | null): number => Number((text ?? '').replace(/[^\d]/g, ''))

describe('e2e: Activity’s credit figures equal the ledger (demo wallets)', () => {
  let fx: Fixture
  let browser: Browser
  let page: Page
  let wallets: WatchedWallet[]
  let truth: LedgerTruth

  const call = async <T>(channel: string, input: unknown): Promise<T> => {
    const answer = await fx.core.dispatch(channel, input)
    if (!answer.ok) throw new Error(`${channel}: ${JSON.stringify(answer.error)}`)
    return answer.result as T
  }

  const readLedger = (): LedgerTruth => {
    const db = new Database(demoDatabasePath(fx.dataDir), { readonly: true })
    try {
      const rows = db
        .prepare(
          `select wallet_address as wallet, endpoint_class as cls, at_ms as atMs, credits from credit_ledger`,
        )
        .all() as { wallet: string | null; cls: string; atMs: number; credits: number }[]
      const t: LedgerTruth = {
        today: 0,
        total: 0,
        shared: 0,
        byWallet: new Map(),
        byDayClass: new Map(),
        byDay: new Map(),
      }
      for (const r of rows) {
        t.total += r.credits
        if (r.atMs >= todayStartMs) t.today += r.credits
        if (r.wallet === null) t.shared += r.credits
        else t.byWallet.set(r.wallet, (t.byWallet.get(r.wallet) ?? 0) + r.credits)
        const day = dayText(r.atMs)
        t.byDay.set(day, (t.byDay.get(day) ?? 0) + r.credits)
        t.byDayClass.set(`${day}|${r.cls}`, (t.byDayClass.get(`${day}|${r.cls}`) ?? 0) + r.credits)
      }
      return t
    } finally {
      db.close()
    }
  }

  beforeAll(async () => {
    fx = await startTestWebShell()
    // Watching off: the round below is the only spending, so the ledger holds still after it.
    await call('settings:update', { watch: WATCHING_OFF })
    const demo = await call<DemoWalletsAdded>('demo:add-wallets', undefined)
    wallets = [...demo.alreadyWatched, ...demo.added]
    expect(wallets.length).toBe(5)
    // One round: a shared look over all wallets, then each wallet's full sync.
    await call('sync:start', {})
    const isEverythingSynced = async () =>
      (await call<WalletSyncStatus[]>('sync:status', undefined)).every(
        (s) => s.state === 'up-to-date' && s.streams.every((st) => st.isBackfillComplete),
      )
    for (const deadline = Date.now() + 60_000; !(await isEverythingSynced());) {
      if (Date.now() > deadline) throw new Error('The demo wallets did not finish syncing.')
      await sleep(200)
    }
    // The round ends with the names pass over the counterparties: wait until the ledger
    // stops growing, so the page and the ledger are read from the same calls.
    const total = async () =>
      (await call<CreditsOverview>('credits:overview', undefined)).totalCredits
    for (let last = -1, now = await total(); now !== last; last = now, now = await total())
      await sleep(1_500)
    const db = new Database(demoDatabasePath(fx.dataDir))
    const insert = db.prepare(
      `insert into credit_ledger (at_ms, operation, endpoint_class, wallet_address, credits, status, duration_ms)
       values (?, 'audit.earlier-day', ?, null, ?, 'ok', 1)`,
    )
    for (const row of EARLIER_DAYS) insert.run(row.atMs, row.endpointClass, row.credits)
    db.close()
    truth = readLedger()
    expect(truth.byDay.get(dayText(todayStartMs - DAY_MS))).toBe(6_910)

    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale: 'en-US' })
    await page.goto(fx.shell.url)
    await page.getByRole('heading', { name: 'Watchlist', level: 1 }).waitFor()
    await page.goto(`${new URL(fx.shell.url).origin}/#/activity`)
    await page.getByRole('heading', { name: 'Credits per day by endpoint class' }).waitFor()
  })
  afterAll(async () => {
    await browser?.close()
    await fx?.stop()
  })

  it('today’s tile and the all-time total equal the ledger', async () => {
    const credits = page.getByRole('region', { name: 'Credits' })
    const tile = credits.locator('.tile', { hasText: 'Today' })
    expect(truth.today).toBeGreaterThan(0)
    expect(count(await tile.locator('strong').textContent())).toBe(truth.today)
    const allTime = credits.locator('.tile', { hasText: 'All time' })
    expect(count(await allTime.locator('strong').textContent())).toBe(truth.total)
    const table = page.getByRole('table', { name: 'Credits by wallet (all time)' })
    expect(count(await table.locator('tfoot td').textContent())).toBe(truth.total)
  })

  it('each wallet’s credits and the shared line equal the ledger, and add up to the total', async () => {
    const table = page.getByRole('table', { name: 'Credits by wallet (all time)' })
    const rows = await table.locator('tbody tr').all()
    let sum = 0
    for (const wallet of wallets) {
      const row = table.locator('tbody tr', { hasText: wallet.label ?? '' })
      const shown = count(await row.locator('td').textContent())
      expect(shown, wallet.label ?? wallet.address).toBe(truth.byWallet.get(wallet.address))
      expect(shown).toBeGreaterThan(0)
      sum += shown
    }
    const shared = table.locator('tbody tr', { hasText: 'Shared' })
    expect(count(await shared.locator('td').textContent())).toBe(truth.shared)
    expect(truth.shared).toBeGreaterThan(0)
    expect(rows).toHaveLength(wallets.length + 1)
    expect(sum + truth.shared).toBe(truth.total)

    // The Wallets table says the same per wallet.
    const syncTable = page.getByRole('table', { name: 'Sync state of each wallet' })
    for (const wallet of wallets) {
      const row = syncTable.locator('tbody tr', { hasText: wallet.label ?? '' })
      expect(count(await row.locator('td').nth(4).textContent())).toBe(
        truth.byWallet.get(wallet.address),
      )
    }
  })

  it('the chart’s numbers per day and endpoint class equal the ledger', async () => {
    const data = page.getByRole('table', { name: 'Credits spent per day, by endpoint class: data' })
    const header = await data.locator('thead th').allTextContents()
    const classes = header.slice(1, -1)
    expect(header.at(-1)).toBe('Total')
    for (const row of await data.locator('tbody tr').all()) {
      const day = (await row.locator('th').textContent()) ?? ''
      const cells = await row.locator('td').allTextContents()
      classes.forEach((cls, i) =>
        expect(count(cells[i] ?? ''), `${day} ${cls}`).toBe(
          truth.byDayClass.get(`${day}|${cls}`) ?? 0,
        ),
      )
      expect(count(cells.at(-1) ?? ''), day).toBe(truth.byDay.get(day) ?? 0)
    }
  })

  it('each day’s bar is drawn as high as its total: bars are stacked, not overlaid', async () => {
    const chart = page.getByRole('img', { name: 'Credits spent per day, by endpoint class' })
    await chart.scrollIntoViewIfNeeded()
    // Measured on the canvas itself: per column, the pixels painted in a class colour.
    const bars = await chart.evaluate((host) => {
      const canvas = host.querySelector('canvas') as HTMLCanvasElement
      const markers = [...host.querySelectorAll<HTMLElement>('.u-legend .u-marker')]
      const colours = markers
        .map((m) => getComputedStyle(m).backgroundColor.match(/\d+/g)?.map(Number) ?? [])
        .filter((c) => c.length >= 3)
      const { width, height } = canvas
      const pixels = (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(
        0,
        0,
        width,
        height,
      ).data
      const isClassColour = (i: number) =>
        (pixels[i + 3] ?? 0) > 200 &&
        colours.some(
          (c) =>
            Math.abs((pixels[i] ?? 0) - (c[0] ?? 0)) +
              Math.abs((pixels[i + 1] ?? 0) - (c[1] ?? 0)) +
              Math.abs((pixels[i + 2] ?? 0) - (c[2] ?? 0)) <
            30,
        )
      const runs: { heightPx: number }[] = []
      let inBar = false
      for (let x = 0; x < width; x++) {
        let painted = 0
        for (let y = 0; y < height; y++) if (isClassColour((y * width + x) * 4)) painted++
        if (painted > 0 && !inBar) runs.push({ heightPx: 0 })
        inBar = painted > 0
        const run = runs.at(-1)
        if (painted > 0 && run) run.heightPx = Math.max(run.heightPx, painted)
      }
      return { runs, classes: colours.length }
    })
    const totals = [...truth.byDay.entries()]
      .filter(([, credits]) => credits > 0)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, credits]) => credits)
    expect(bars.classes).toBeGreaterThanOrEqual(3)
    expect(bars.runs.map((r) => r.heightPx > 0)).toEqual(totals.map(() => true))
    const tallest = Math.max(...bars.runs.map((r) => r.heightPx))
    const mostCredits = Math.max(...totals)
    bars.runs.forEach((run, i) => {
      // Within 2 pixels of the height the day's total calls for.
      expect(
        Math.abs(run.heightPx - (tallest * (totals[i] ?? 0)) / mostCredits),
        `bar ${i}`,
      ).toBeLessThanOrEqual(2)
    })
    // The two earlier days: 6,910 is drawn 6,910/4,800 as high as 4,800, not equal.
    const [first, second] = bars.runs
    expect((second?.heightPx ?? 0) / (first?.heightPx ?? 1)).toBeCloseTo(6_910 / 4_800, 1)
    await screenshot(page, 'activity-credits-audit')
    await page.setViewportSize({ width: 1000, height: 700 })
    await chart.scrollIntoViewIfNeeded()
    await screenshot(page, 'activity-credits-audit-1000')
  })
})
