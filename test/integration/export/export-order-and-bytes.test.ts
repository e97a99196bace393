import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { ExportCancelledError } from '@shared/ipc/export-schemas'
import { openDatabase, type OpenDatabase } from '../../../src-main/db/sqlite/database'
import { SqliteExportReader } from '../../../src-main/db/sqlite/export-reader'
import { layoutFor, type BalanceChangeRow } from '../../../src-main/export/csv-presets'
import { currencyNames } from '../../../src-main/export/currency-names'
import { runExport } from '../../../src-main/export/export-job'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// Given balance changes stored in an order unlike time order (a backfill writes newest
// pages first; ordinals of one transaction in reverse; equal times and slots; unknown
// times), when they are exported, then the file lists them by time, slot, transaction and
// ordinal, byte for byte what csv-stringify writes for those rows in every balance-change
// layout and delimiter; and an export cancelled part way leaves no file behind.

const RFC_4180 = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const
const WALLETS = [
  { address: testAddress(1), label: 'Savings, "main"' },
  { address: testAddress(2), label: null },
]
const MINTS = [
  { mint: NATIVE_SOL_MINT, symbol: 'SOL', decimals: 9 },
  { mint: 'OrderMint11111111111111111111111111111111111', symbol: 'ORD;ER', decimals: 6 },
]
const TRANSACTIONS = 300

/** A deterministic shuffle, so a failure reproduces. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items]
  let state = seed
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    const j = state % (i + 1)
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}

describe('export of balance changes: order and bytes', () => {
  const temp = makeTempDir()
  let database: OpenDatabase
  /** The rows as the export must list them, sorted here, not by the query under test. */
  let expected: BalanceChangeRow[]

  beforeAll(async () => {
    database = await openDatabase(join(temp.dir, 'mirror.sqlite'))
    const { sqlite } = database
    const walletIds = WALLETS.map((w, i) =>
      Number(
        sqlite
          .prepare(
            'insert into wallets (address, label, position, added_at_sec) values (?, ?, ?, 0)',
          )
          .run(w.address, w.label, i).lastInsertRowid,
      ),
    )
    for (const m of MINTS)
      sqlite
        .prepare(
          'insert into mints (mint, symbol, name, decimals, updated_at_sec) values (?, ?, ?, ?, 0)',
        )
        .run(m.mint, m.symbol, m.symbol, m.decimals)
    const insertTx = sqlite.prepare(
      `insert into transactions (wallet_id, signature, slot, block_time_sec, fee, fee_text, fee_payer, error, is_failed, change_count)
       values (?, ?, ?, ?, 0.000005, '0.000005', ?, null, ?, ?)`,
    )
    const insertChange = sqlite.prepare(
      `insert into balance_changes (transaction_id, wallet_id, ordinal, mint, amount, amount_text, amount_raw, decimals, block_time_sec, slot)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    // Few distinct times and slots, so ties are common; every 37th time unknown.
    const plan = Array.from({ length: TRANSACTIONS }, (_, i) => ({
      i,
      wallet: i % WALLETS.length,
      time: i % 37 === 0 ? null : 1_793_000_000 + (i % 23) * 60,
      slot: 380_000_000 + (i % 5),
      changes: 1 + (i % 3),
    }))
    sqlite.transaction(() => {
      for (const t of shuffled(plan, 16)) {
        const wallet = WALLETS[t.wallet]!
        const txId = Number(
          insertTx.run(
            walletIds[t.wallet],
            `ordersig${t.i}`,
            t.slot,
            t.time,
            t.i % 4 === 0 ? 'SomeoneElse1111111111111111111111111111111' : wallet.address,
            t.i % 11 === 0 ? 1 : 0,
            t.changes,
          ).lastInsertRowid,
        )
        // Ordinals stored last first.
        for (let ordinal = t.changes - 1; ordinal >= 0; ordinal--) {
          const mint = MINTS[(t.i + ordinal) % MINTS.length]!
          const raw = String((ordinal % 2 === 0 ? -1 : 1) * (1_000 + t.i * 7 + ordinal))
          const text = String(Number(raw) / 10 ** mint.decimals)
          insertChange.run(
            txId,
            walletIds[t.wallet],
            ordinal,
            mint.mint,
            Number(text),
            text,
            raw,
            mint.decimals,
            t.time,
            t.slot,
          )
        }
      }
    })()
    const rows = sqlite
      .prepare(
        `select bc.transaction_id as transactionId, bc.block_time_sec as blockTimeSec, bc.slot as slot,
           t.signature as signature, w.address as wallet, w.label as walletLabel, bc.mint as mint,
           m.symbol as symbol, bc.amount_text as amountText, bc.amount_raw as amountRaw,
           bc.decimals as decimals, t.fee_text as feeText, t.fee_payer as feePayer,
           t.is_failed as isFailed, bc.ordinal as ordinal
         from balance_changes bc join transactions t on t.id = bc.transaction_id
         join wallets w on w.id = bc.wallet_id left join mints m on m.mint = bc.mint`,
      )
      .all() as (BalanceChangeRow & { ordinal: number })[]
    // SQLite sorts unknown times first.
    rows.sort(
      (a, b) =>
        (a.blockTimeSec ?? -Infinity) - (b.blockTimeSec ?? -Infinity) ||
        a.slot - b.slot ||
        a.transactionId - b.transactionId ||
        a.ordinal - b.ordinal,
    )
    expected = rows.map(({ ordinal: _, ...row }) => row)
  })
  afterAll(async () => {
    await database.close()
    temp.remove()
  })

  /** What csv-stringify writes for the expected rows in a layout. */
  function stringified(format: 'full' | 'koinly' | 'cointracker', delimiter: string): string {
    const layout = layoutFor('balance-changes', format, currencyNames(MINTS))
    const records: string[][] = [[...layout.header]]
    let group: BalanceChangeRow[] = []
    for (const row of [...expected, null]) {
      if (row === null || (group.length > 0 && group[0]!.transactionId !== row.transactionId)) {
        records.push(...layout.records(group))
        group = []
      }
      if (row !== null) group.push(row)
    }
    return stringify(records, { delimiter, ...RFC_4180 })
  }

  for (const format of ['full', 'koinly', 'cointracker'] as const) {
    it.each([',', ';', '\t'] as const)(`${format} with delimiter %j`, async (delimiter) => {
      const outPath = join(temp.dir, `order-${format}-${delimiter.charCodeAt(0)}.csv`)
      // Small batches: transactions must stay whole across batch ends too.
      const summary = await runExport({
        source: new SqliteExportReader(database.db, database.path),
        kind: 'balance-changes',
        format,
        delimiter,
        outPath,
        batchRows: 7,
      })
      expect(summary.rowsRead).toBe(expected.length)
      expect(readFileSync(outPath, 'utf8')).toBe(stringified(format, delimiter))
    })
  }

  it('the full layout lists the signatures in time, slot, transaction and ordinal order', async () => {
    const outPath = join(temp.dir, 'order-signatures.csv')
    await runExport({
      source: new SqliteExportReader(database.db, database.path),
      kind: 'balance-changes',
      outPath,
    })
    const lines = readFileSync(outPath, 'utf8').trimEnd().split('\r\n').slice(1)
    expect(lines).toHaveLength(expected.length)
    expect(lines.map((l) => /ordersig\d+/.exec(l)?.[0])).toEqual(expected.map((r) => r.signature))
    // Stored order differs from export order: the query, not storage, puts rows in order.
    const stored = database.sqlite
      .prepare(
        'select t.signature as s from balance_changes bc join transactions t on t.id = bc.transaction_id order by bc.id',
      )
      .all() as { s: string }[]
    expect(stored.map((r) => r.s)).not.toEqual(expected.map((r) => r.signature))
  })

  it('cancelled part way, leaves no file and no partial file', async () => {
    const dir = makeTempDir()
    try {
      const controller = new AbortController()
      const outcome = runExport({
        source: new SqliteExportReader(database.db, database.path),
        kind: 'balance-changes',
        outPath: join(dir.dir, 'cancelled.csv'),
        batchRows: 10,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.fraction > 0.2) controller.abort()
        },
      })
      await expect(outcome).rejects.toBeInstanceOf(ExportCancelledError)
      expect(readdirSync(dir.dir)).toEqual([])
    } finally {
      dir.remove()
    }
  })
})
