import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { openDatabase, type OpenDatabase } from '../../../src-main/db/sqlite/database'
import { SqliteExportReader } from '../../../src-main/db/sqlite/export-reader'
import { runExport } from '../../../src-main/export/export-job'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// Given a mirror holding everything that breaks naive CSV writers, when it is exported and
// read back with a standard parser, then every value comes back exactly, with formula
// starts neutralised in text cells and only there.

const WALLETS = [
  { address: testAddress(1), label: '=HYPERLINK("http://evil","click")' },
  { address: testAddress(2), label: '+1, "quoted", and\nsecond line' },
  { address: testAddress(3), label: '@SUM(A1:A9)' },
  { address: testAddress(4), label: '-2+3' },
  { address: testAddress(5), label: 'Ünïcødé ☀ 財布' },
]
const MINTS = [
  { mint: 'AwkwardMint1111111111111111111111111111111', symbol: '=cmd|"/c calc"!A1', decimals: 9 },
  { mint: 'AwkwardMint2222222222222222222222222222222', symbol: 'ΔΣ€;\t', decimals: 0 },
]
/** Raw amounts: 9 decimals, and raw integers far past 2^53 (no double holds them). */
const CHANGES = [
  { wallet: 0, mint: NATIVE_SOL_MINT, raw: '-1000005000', decimals: 9, expected: '-1.000005' },
  { wallet: 0, mint: MINTS[0]!.mint, raw: '123456789', decimals: 9, expected: '0.123456789' },
  { wallet: 1, mint: MINTS[0]!.mint, raw: '-1', decimals: 9, expected: '-0.000000001' },
  {
    wallet: 2,
    mint: MINTS[1]!.mint,
    raw: '18446744073709551615123',
    decimals: 0,
    expected: '18446744073709551615123',
  },
  {
    wallet: 3,
    mint: MINTS[0]!.mint,
    raw: '-9007199254740993',
    decimals: 9,
    expected: '-9007199.254740993',
  },
  {
    wallet: 4,
    mint: MINTS[1]!.mint,
    raw: '300000000000000004',
    decimals: 0,
    expected: '300000000000000004',
  },
]

describe('export of awkward data round-trips through a standard CSV parser', () => {
  const temp = makeTempDir()
  let database: OpenDatabase
  beforeAll(async () => {
    database = await openDatabase(join(temp.dir, 'mirror.sqlite'))
    const { sqlite } = database
    const insertWallet = sqlite.prepare(
      'insert into wallets (address, label, position, added_at_sec) values (?, ?, ?, 0) returning id',
    )
    const insertTx = sqlite.prepare(
      `insert into transactions (wallet_id, signature, slot, block_time_sec, fee, fee_text, fee_payer, error, is_failed, change_count)
       values (?, ?, ?, ?, 0.000005, '0.000005', ?, null, 0, 1) returning id`,
    )
    const insertChange = sqlite.prepare(
      `insert into balance_changes (transaction_id, wallet_id, ordinal, mint, amount, amount_text, amount_raw, decimals, block_time_sec, slot)
       values (?, ?, 0, ?, ?, ?, ?, ?, ?, ?)`,
    )
    const insertMint = sqlite.prepare(
      'insert into mints (mint, symbol, name, decimals, updated_at_sec) values (?, ?, ?, ?, 0)',
    )
    sqlite.transaction(() => {
      const ids = WALLETS.map(
        (w, i) => (insertWallet.get(w.address, w.label, i) as { id: number }).id,
      )
      for (const m of MINTS) insertMint.run(m.mint, m.symbol, m.symbol, m.decimals)
      CHANGES.forEach((c, i) => {
        const walletId = ids[c.wallet] as number
        const address = WALLETS[c.wallet]!.address
        const time = 1_793_491_200 + i * 60
        const tx = insertTx.get(walletId, `sig${i}`, 380_000_000 + i, time, address) as {
          id: number
        }
        // The REAL column holds what a double can; the export must never read it.
        insertChange.run(
          tx.id,
          walletId,
          c.mint,
          Number(c.expected),
          String(Number(c.expected)),
          c.raw,
          c.decimals,
          time,
          380_000_000 + i,
        )
      })
    })()
  })
  afterAll(async () => {
    await database.close()
    temp.remove()
  })

  it.each([',', ';', '\t'] as const)('with delimiter %j', async (delimiter) => {
    const outPath = join(temp.dir, `awkward-${delimiter === '\t' ? 'tab' : delimiter}.csv`)
    await runExport({
      source: new SqliteExportReader(database.db, database.path),
      kind: 'balance-changes',
      format: 'full',
      delimiter,
      outPath,
    })
    const text = readFileSync(outPath, 'utf8')
    const records = parse(text, { columns: true, delimiter, record_delimiter: '\r\n' }) as Record<
      string,
      string
    >[]
    expect(records).toHaveLength(CHANGES.length)

    records.forEach((r, i) => {
      const c = CHANGES[i]!
      const wallet = WALLETS[c.wallet]!
      expect(r.Wallet).toBe(wallet.address)
      expect(r['Wallet label']).toBe(
        /^[=+\-@]/.test(wallet.label) ? `'${wallet.label}` : wallet.label,
      )
      // Amounts are numbers: exact, and a minus sign is never neutralised.
      expect(r.Amount).toBe(c.expected)
      expect(r['Raw amount']).toBe(c.raw)
      expect(r.Decimals).toBe(String(c.decimals))
      expect(r.Amount).not.toMatch(/e|^'/i)
      const symbol = MINTS.find((m) => m.mint === c.mint)?.symbol ?? ''
      expect(r.Symbol).toBe(symbol.startsWith('=') ? `'${symbol}` : symbol)
    })
    expect(records[0]!['Fee (SOL)']).toBe('0.000005')
  })

  it('writes the tax layouts with exact amounts and neutralised currencies', async () => {
    const outPath = join(temp.dir, 'awkward-koinly.csv')
    await runExport({
      source: new SqliteExportReader(database.db, database.path),
      kind: 'balance-changes',
      format: 'koinly',
      outPath,
    })
    const records = parse(readFileSync(outPath, 'utf8'), { columns: true }) as Record<
      string,
      string
    >[]
    const big = records.find((r) => r['Received Amount'] === '18446744073709551615123')
    expect(big?.['Received Currency']).toBe('ΔΣ€;\t')
    const tiny = records.find((r) => r['Sent Amount'] === '0.000000001')
    expect(tiny?.['Sent Currency']).toBe(`'${MINTS[0]!.symbol}`)
    expect(tiny?.Description).toBe(`'${WALLETS[1]!.label}`)
  })
})
