import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  exportFiltersFromHistoryView,
  exportFiltersFromTransfersView,
  type ExportFiltersInput,
} from '@shared/ipc/export-schemas'
import {
  NO_HISTORY_FILTERS,
  TransferFilters,
  type HistoryFilters,
} from '@shared/ipc/review-schemas'
import { fetchHistoryPage } from '../../../src-main/db/queries/history-queries'
import { countTransfers, fetchTransferPage } from '../../../src-main/db/queries/transfer-queries'
import { runExport } from '../../../src-main/export/export-job'
import { resolveDateBound } from '../../../src-main/export/export-filters'
import { syncedMirror, type SyncedMirror } from './export-fixture'

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'

interface ChangeFact {
  walletAddress: string
  signature: string
  blockTimeSec: number | null
  mint: string
  amount: number
  isFailed: boolean
}

/** The filters' meaning, computed in plain code over every row: the reference for the SQL. */
function expectedSignatures(
  all: ChangeFact[],
  f: ExportFiltersInput,
): { rows: number; signatures: Set<string> } {
  const fromSec = f.from === undefined ? null : resolveDateBound(f.from, 'from')
  const toSec = f.to === undefined ? null : resolveDateBound(f.to, 'to')
  const byTx = new Map<string, ChangeFact[]>()
  for (const c of all) {
    const key = `${c.walletAddress}|${c.signature}`
    byTx.set(key, [...(byTx.get(key) ?? []), c])
  }
  let rows = 0
  const signatures = new Set<string>()
  for (const changes of byTx.values()) {
    const t = changes[0]!
    if (f.wallets?.length && !f.wallets.includes(t.walletAddress)) continue
    if (fromSec !== null && (t.blockTimeSec === null || t.blockTimeSec < fromSec)) continue
    if (toSec !== null && (t.blockTimeSec === null || t.blockTimeSec > toSec)) continue
    if (f.failedOnly && !t.isFailed) continue
    if (f.signature && !t.signature.startsWith(f.signature)) continue
    const fits = (c: ChangeFact): boolean =>
      (!f.mints?.length || f.mints.includes(c.mint)) &&
      (f.direction === undefined || (f.direction === 'in' ? c.amount > 0 : c.amount < 0))
    // Mint and direction select balance changes; the view lists their transactions.
    const selected = changes.filter(fits)
    if (selected.length === 0) continue
    rows += selected.length
    signatures.add(t.signature)
  }
  return { rows, signatures }
}

describe('export filters select what the History view selects', () => {
  let mirror: SyncedMirror
  let storedChanges: ChangeFact[]
  const address = (profile: string): string => mirror.addresses.get(profile) as string

  beforeAll(async () => {
    mirror = await syncedMirror(['casual', 'idle', 'failed-transactions'])
    storedChanges = (
      mirror.database.sqlite
        .prepare(
          `select w.address as walletAddress, t.signature, t.block_time_sec as blockTimeSec, bc.mint, bc.amount, t.is_failed as isFailed
           from balance_changes bc join transactions t on t.id = bc.transaction_id join wallets w on w.id = t.wallet_id`,
        )
        .all() as (Omit<ChangeFact, 'isFailed'> & { isFailed: number })[]
    ).map((c) => ({ ...c, isFailed: c.isFailed === 1 }))
  })
  afterAll(() => mirror.stop())

  async function exported(filters: ExportFiltersInput, name: string) {
    const outPath = join(mirror.dir, `${name}.csv`)
    const summary = await runExport({
      source: mirror.mirror.exports,
      kind: 'balance-changes',
      filters,
      outPath,
    })
    const records = parse(readFileSync(outPath, 'utf8'), { columns: true }) as Record<
      string,
      string
    >[]
    return { summary, records, signatures: new Set(records.map((r) => r.Signature as string)) }
  }

  const cases: [string, () => ExportFiltersInput][] = [
    ['one wallet, no filter', () => ({ wallets: [address('casual')] })],
    [
      'two wallets, inflows',
      () => ({ wallets: [address('casual'), address('failed-transactions')], direction: 'in' }),
    ],
    [
      'USDC within dates',
      () => ({ wallets: [address('casual')], mints: [USDC], from: '2026-07-01', to: '2026-10-15' }),
    ],
    ['failed only', () => ({ wallets: [address('failed-transactions')], failedOnly: true })],
    [
      'every wallet, outflows of two mints, up to a time',
      () => ({
        mints: [USDC, 'FeeskxE6ozTzwC3N6RiiKyWemk9M86zF5jQrgnk43bfj'],
        direction: 'out',
        to: 1_790_000_000,
      }),
    ],
  ]

  it.each(cases)('%s', async (name, filtersOf) => {
    const filters = filtersOf()
    const expected = expectedSignatures(storedChanges, filters)
    expect(expected.rows).toBeGreaterThan(0)
    const { summary, records, signatures } = await exported(filters, name.replace(/\W+/g, '-'))
    expect(summary.rowsRead).toBe(expected.rows)
    expect(records).toHaveLength(expected.rows)
    expect(signatures).toEqual(expected.signatures)
  })

  it('a signature prefix selects like the History search', async () => {
    const signature = storedChanges.find((f) => f.walletAddress === address('casual'))!.signature
    const filters = { wallets: [address('casual')], signature: signature.slice(0, 6) }
    const { signatures } = await exported(filters, 'prefix')
    expect(signatures).toEqual(expectedSignatures(storedChanges, filters).signatures)
    expect(signatures.has(signature)).toBe(true)
  })

  it('a filtered History view exports the balance changes its filters select, not the other mints and directions of its transactions', async () => {
    const walletAddress = address('casual')
    const viewFilters: HistoryFilters = { ...NO_HISTORY_FILTERS, mint: USDC, direction: 'in' }
    const shown: string[] = []
    let transactions = 0
    let cursor = null
    do {
      const page = await fetchHistoryPage(mirror.database.db, walletIdOf(walletAddress), {
        order: 'newest',
        filters: viewFilters,
        cursor,
        limit: 50,
      })
      transactions += page.rows.length
      for (const row of page.rows) {
        for (const c of row.changes) {
          if (c.mint === USDC && c.amount > 0)
            shown.push(`${row.signature} ${c.mint} ${c.amountText}`)
        }
      }
      cursor = page.nextCursor
    } while (cursor !== null)
    expect(transactions).toBeGreaterThan(0)
    const { summary, records } = await exported(
      exportFiltersFromHistoryView(walletAddress, viewFilters),
      'view-usdc-inflows-rows',
    )
    const written = records.map((r) => `${r.Signature} ${r.Mint} ${r.Amount}`)
    expect(written.sort()).toEqual(shown.sort())
    expect(records.every((r) => r.Mint === USDC && r.Direction === 'in')).toBe(true)
    expect(summary.rowsRead).toBe(shown.length)
  })

  // Every filter of the History view, alone and combined, on the wallet where it selects
  // something: the view and the export must agree on each.
  const views: [string, string, () => Partial<HistoryFilters>][] = [
    ['everything', 'casual', () => ({})],
    ['inflows', 'casual', () => ({ direction: 'in' })],
    ['outflows', 'casual', () => ({ direction: 'out' })],
    ['one mint', 'casual', () => ({ mint: USDC })],
    ['inflows of USDC', 'casual', () => ({ mint: USDC, direction: 'in' })],
    ['from a date', 'casual', () => ({ fromSec: 1_785_000_000 })],
    ['up to a date', 'casual', () => ({ toSec: 1_785_000_000 })],
    [
      'outflows within dates',
      'casual',
      () => ({ direction: 'out', fromSec: 1_782_000_000, toSec: 1_790_000_000 }),
    ],
    ['failed only', 'failed-transactions', () => ({ isFailedOnly: true })],
    ['failed outflows', 'failed-transactions', () => ({ isFailedOnly: true, direction: 'out' })],
    ['signature search', 'casual', () => ({ signature: signatureOf('casual').slice(0, 3) })],
    [
      'whole signature',
      'failed-transactions',
      () => ({ signature: signatureOf('failed-transactions') }),
    ],
  ]
  const walletIdOf = (walletAddress: string): number =>
    (
      mirror.database.sqlite
        .prepare('select id from wallets where address = ?')
        .get(walletAddress) as {
        id: number
      }
    ).id
  const signatureOf = (profile: string): string =>
    storedChanges.find((f) => f.walletAddress === address(profile))!.signature

  it.each(views)(
    'the History view of one wallet and its export list the same transactions: %s',
    async (name, profile, view) => {
      const walletAddress = address(profile)
      const viewFilters: HistoryFilters = {
        fromSec: null,
        toSec: null,
        mint: null,
        direction: 'any',
        isFailedOnly: false,
        signature: '',
        ...view(),
      }
      const walletId = walletIdOf(walletAddress)
      const shown = new Set<string>()
      let cursor = null
      do {
        const page = await fetchHistoryPage(mirror.database.db, walletId, {
          order: 'newest',
          filters: viewFilters,
          cursor,
          limit: 50,
        })
        // A transaction without balance changes has no row to export.
        for (const row of page.rows) if (row.changes.length > 0) shown.add(row.signature)
        cursor = page.nextCursor
      } while (cursor !== null)
      expect(shown.size).toBeGreaterThan(0)
      const { signatures } = await exported(
        exportFiltersFromHistoryView(walletAddress, viewFilters),
        `view-${name.replace(/\W+/g, '-')}`,
      )
      expect(signatures).toEqual(shown)
      // …and both equal the filters' meaning computed in plain code.
      expect(signatures).toEqual(
        expectedSignatures(storedChanges, exportFiltersFromHistoryView(walletAddress, viewFilters))
          .signatures,
      )
    },
  )

  // The Transfers view, its row count and its export: one set of filters, the same rows.
  const transferViews: [string, () => Partial<TransferFilters>][] = [
    ['everything', () => ({})],
    ['inflows', () => ({ direction: 'in' })],
    ['USDC', () => ({ mint: USDC })],
    ['USDC outflows', () => ({ mint: USDC, direction: 'out' })],
    ['within dates', () => ({ fromSec: 1_782_000_000, toSec: 1_790_000_000 })],
  ]
  it.each(transferViews)(
    'the Transfers view of one wallet, its count and its export hold the same transfers: %s',
    async (name, view) => {
      const walletAddress = address('casual')
      const filters: TransferFilters = { ...TransferFilters.parse({}), ...view() }
      const shown: string[] = []
      let cursor = null
      do {
        const page = await fetchTransferPage(mirror.database.db, walletIdOf(walletAddress), {
          order: 'newest',
          filters,
          cursor,
          limit: 50,
        })
        shown.push(...page.rows.map((r) => `${r.signature} ${r.mint} ${r.direction}`))
        cursor = page.nextCursor
      } while (cursor !== null)
      expect(shown.length).toBeGreaterThan(0)
      const count = await countTransfers(mirror.database.db, walletIdOf(walletAddress), filters)
      expect(count).toEqual({ count: shown.length, isCapped: false })
      const outPath = join(mirror.dir, `transfers-view-${name.replace(/\W+/g, '-')}.csv`)
      const summary = await runExport({
        source: mirror.mirror.exports,
        kind: 'transfers',
        filters: exportFiltersFromTransfersView(walletAddress, filters),
        outPath,
      })
      const records = parse(readFileSync(outPath, 'utf8'), { columns: true }) as Record<
        string,
        string
      >[]
      expect(summary.rowsRead).toBe(shown.length)
      expect(records.map((r) => `${r.Signature} ${r.Mint} ${r.Direction}`).sort()).toEqual(
        shown.sort(),
      )
    },
  )
})
