import { readdirSync, readFileSync } from 'node:fs'
import BetterSqlite3 from 'better-sqlite3'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ExportCancelledError,
  ExportFilters,
  type ExportFiltersInput,
  type ExportFormat,
  type ExportKind,
} from '@shared/ipc/export-schemas'
import { openExportPart } from '../../../src-main/db/export-part-rows'
import { runExport, type ExportProgressInfo } from '../../../src-main/export/export-job'
import { resolveFilters } from '../../../src-main/export/export-filters'
import { ENGINES } from '../../helpers/sync-fixture'
import { syncedMirror, type SyncedMirror } from './export-fixture'

// Given a mirror synced from the simulator, when an export is split by time into parts read
// side by side on threads of their own, then the file is byte for byte the one read whole,
// for every kind, layout, delimiter and filter; the parts read one snapshot (a write that
// commits once they have begun is in none of them); and a cancelled parted export leaves
// no file and no part files behind.

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
const PROFILES = ['casual', 'active-trader', 'failed-transactions', 'nft-collector'] as const

interface Case {
  kind: ExportKind
  format: ExportFormat
  delimiter?: ',' | ';' | '\t'
  filters?: (m: SyncedMirror) => ExportFiltersInput
}

const CASES: Record<string, Case> = {
  'balance changes, full': { kind: 'balance-changes', format: 'full' },
  'balance changes of USDC from two wallets within dates, Koinly, semicolons': {
    kind: 'balance-changes',
    format: 'koinly',
    delimiter: ';',
    filters: (m) => ({
      wallets: [m.addresses.get('casual')!, m.addresses.get('active-trader')!],
      mints: [USDC],
      from: '2026-03-01',
      to: '2026-10-31',
    }),
  },
  'failed transactions only, CoinTracker, tabs': {
    kind: 'balance-changes',
    format: 'cointracker',
    delimiter: '\t',
    filters: () => ({ failedOnly: true }),
  },
  'incoming transfers of one wallet': {
    kind: 'transfers',
    format: 'full',
    filters: (m) => ({ wallets: [m.addresses.get('active-trader')!], direction: 'in' }),
  },
}

describe.each(ENGINES)('an export split into parts (on %s)', (engine) => {
  let mirror: SyncedMirror

  beforeAll(async () => {
    mirror = await syncedMirror(PROFILES, 7, engine)
  }, 180_000)
  afterAll(() => mirror.stop())

  async function exported(name: string, c: Case, parts: number) {
    const outPath = join(mirror.dir, `${name.replace(/\W+/g, '-')}-${parts}.csv`)
    const progress: ExportProgressInfo[] = []
    const summary = await runExport({
      source: mirror.mirror.exports,
      kind: c.kind,
      format: c.format,
      ...(c.delimiter ? { delimiter: c.delimiter } : {}),
      filters: c.filters?.(mirror) ?? {},
      outPath,
      parts: { parts, minRows: 0 },
      onProgress: (p) => progress.push(p),
    })
    return { summary, bytes: readFileSync(outPath), progress }
  }

  it.each(Object.entries(CASES))('%s: the same bytes as read whole', async (name, c) => {
    const whole = await exported(name, c, 1)
    const parted = await exported(name, c, 3)
    // More than a header: the comparison is of real rows, and they were split.
    expect(whole.summary.rowsRead, name).toBeGreaterThan(10)
    const planned = await mirror.mirror.exports.parts(
      c.kind,
      resolveFilters(ExportFilters.parse(c.filters?.(mirror) ?? {})),
      { parts: 3, minRows: 0 },
    )
    expect(planned?.jobs.length ?? 0, name).toBeGreaterThanOrEqual(2)
    await planned?.release()
    // Line by line first, so that a difference names its row.
    expect(parted.bytes.toString('utf8').split('\r\n'), name).toEqual(
      whole.bytes.toString('utf8').split('\r\n'),
    )
    expect(parted.bytes.equals(whole.bytes), name).toBe(true)
    expect(parted.summary).toEqual({ ...whole.summary, path: parted.summary.path })
    const last = parted.progress.at(-1)!
    expect(last).toEqual({
      rowsRead: whole.summary.rowsRead,
      totalRows: whole.summary.rowsRead,
      rowsWritten: whole.summary.rowsWritten,
      fraction: 1,
    })
    // Progress only moves forward.
    for (let i = 1; i < parted.progress.length; i++) {
      expect(parted.progress[i]!.rowsRead).toBeGreaterThanOrEqual(parted.progress[i - 1]!.rowsRead)
    }
  })

  it('the parts read one snapshot: a write committed after they have begun is in none of them', async () => {
    const filters = resolveFilters(ExportFilters.parse({}))
    const parts = (await mirror.mirror.exports.parts('balance-changes', filters, {
      parts: 2,
      minRows: 0,
    }))!
    expect(parts.jobs).toHaveLength(2)
    const rows = await Promise.all(parts.jobs.map((job) => openExportPart(job, 500)))
    const counted = rows.reduce((sum, r) => sum + r.totalRows, 0)
    await parts.release()
    // Committed now: a transaction with a balance change, and a wallet renamed.
    const db = mirror.mirror.database.db
    const wallet = await db
      .selectFrom('wallets')
      .select(['id', 'address'])
      .where('address', '=', mirror.addresses.get('casual')!)
      .executeTakeFirstOrThrow()
    await db.transaction().execute(async (tx) => {
      const { id } = await tx
        .insertInto('transactions')
        .values({
          wallet_id: wallet.id,
          signature: 'LateSignature1111111111111111111111111111111111111111111111111111111',
          slot: 999_999_999,
          block_time_sec: 1_790_000_000,
          fee: 0.000005,
          fee_text: '0.000005',
          fee_payer: wallet.address,
          error: null,
          is_failed: 0,
          change_count: 1,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
      await tx
        .insertInto('balance_changes')
        .values({
          transaction_id: id,
          wallet_id: wallet.id,
          ordinal: 0,
          mint: USDC,
          amount: 1.5,
          amount_text: '1.5',
          amount_raw: '1500000',
          decimals: 6,
          block_time_sec: 1_790_000_000,
          slot: 999_999_999,
        } as never)
        .execute()
      await tx
        .updateTable('wallets')
        .set({ label: 'renamed late' })
        .where('id', '=', wallet.id)
        .execute()
    })
    let read = 0
    const labels = new Set<unknown>()
    for (const r of rows) {
      for await (const batch of r.batches) {
        read += batch.length
        for (const row of batch as { walletLabel: unknown }[]) labels.add(row.walletLabel)
      }
      await r.close()
    }
    expect(read).toBe(counted)
    expect(labels.has('casual')).toBe(true)
    expect(labels.has('renamed late')).toBe(false)
    const now = await mirror.mirror.exports.count('balance-changes', filters)
    expect(now).toBe(counted + 1)
  })

  it.runIf(engine === 'sqlite')(
    'writers wait while the parts begin: nothing can commit between their snapshots',
    async () => {
      const filters = resolveFilters(ExportFilters.parse({}))
      const parts = (await mirror.mirror.exports.parts('balance-changes', filters, {
        parts: 2,
        minRows: 0,
      }))!
      const tryWrite = (): string => {
        const other = new BetterSqlite3(mirror.database.path, { timeout: 0 })
        try {
          other.exec("update wallets set label = label where address = ''")
          return 'written'
        } catch (error) {
          return (error as { code?: string }).code ?? String(error)
        } finally {
          other.close()
        }
      }
      expect(tryWrite()).toBe('written')
      // The first part has begun; the second has not yet: writers are held off.
      const first = openExportPart(parts.jobs[0]!, 500)
      await new Promise((done) => setTimeout(done, 100))
      expect(tryWrite()).toBe('SQLITE_BUSY')
      const second = await openExportPart(parts.jobs[1]!, 500)
      const rows = [await first, second]
      expect(tryWrite()).toBe('written')
      for (const r of rows) await r.close()
    },
  )

  it('cancelled part way, it leaves no file and no part files', async () => {
    const controller = new AbortController()
    const outPath = join(mirror.dir, 'cancelled.csv')
    const before = readdirSync(mirror.dir)
    await expect(
      runExport({
        source: mirror.mirror.exports,
        kind: 'balance-changes',
        outPath,
        parts: { parts: 3, minRows: 0 },
        batchRows: 50,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.fraction > 0 && p.fraction < 1) controller.abort()
        },
      }),
    ).rejects.toBeInstanceOf(ExportCancelledError)
    expect(readdirSync(mirror.dir).sort()).toEqual(before.sort())
  })
})
