import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { ExportFormat, ExportKind } from '@shared/ipc/export-schemas'
import { runExport } from '../../../src-main/export/export-job'
import { mintsByCurrency, type TxMint } from '../../helpers/tax-currencies'
import { syncedMirror, type SyncedMirror } from './export-fixture'

// Given a mirror where one symbol names a token and a collection of NFTs (the simulator's
// MOSS), when it is exported for Koinly and CoinTracker, then every currency stands for one
// mint; and the balances export holds the NFTs, with SOL as the native asset.

describe('tax exports: one currency per mint; balances with NFTs and native SOL', () => {
  let mirror: SyncedMirror
  let txMints: Map<string, TxMint[]>

  beforeAll(async () => {
    mirror = await syncedMirror(['nft-collector', 'casual'])
    txMints = new Map()
    const rows = mirror.database.sqlite
      .prepare(
        `select t.signature, bc.mint, m.symbol from balance_changes bc
         join transactions t on t.id = bc.transaction_id left join mints m on m.mint = bc.mint`,
      )
      .all() as { signature: string; mint: string; symbol: string | null }[]
    for (const r of rows) txMints.set(r.signature, [...(txMints.get(r.signature) ?? []), r])
  })
  afterAll(() => mirror.stop())

  async function exported(kind: ExportKind, format: ExportFormat, name: string) {
    const outPath = join(mirror.dir, `${name}.csv`)
    await runExport({ source: mirror.mirror.exports, kind, format, outPath })
    return parse(readFileSync(outPath, 'utf8'), { columns: true }) as Record<string, string>[]
  }

  it('the mirror has one symbol for many mints (the finding: MOSS named 33 mints)', () => {
    const moss = mirror.database.sqlite
      .prepare(`select count(*) as n from mints where symbol = 'MOSS'`)
      .get() as { n: number }
    expect(moss.n).toBeGreaterThan(30)
  })

  it.each([
    ['koinly', ['Sent Currency', 'Received Currency', 'Fee Currency'], 'TxHash'],
    ['cointracker', ['Sent Currency', 'Received Currency', 'Fee Currency'], null],
  ] as const)(
    'a %s file names every mint with its own currency, so tokens sharing a symbol never merge',
    async (format, columns, hashColumn) => {
      const records = await exported('balance-changes', format, `currencies-${format}`)
      expect(records.length).toBeGreaterThan(0)
      const currencies = new Set(records.flatMap((r) => columns.map((c) => r[c] ?? '')))
      currencies.delete('')
      // No currency is a bare symbol that several mints of the mirror share.
      const shared = mirror.database.sqlite
        .prepare(
          `select symbol from mints where symbol is not null group by upper(symbol) having count(*) > 1`,
        )
        .all() as { symbol: string }[]
      for (const { symbol } of shared)
        if (symbol !== 'SOL') expect(currencies).not.toContain(symbol)
      if (hashColumn === null) return
      // Koinly rows carry the transaction: each currency stands for exactly one mint.
      const byCurrency = mintsByCurrency(
        records.map((r) => ({
          txHash: r[hashColumn] ?? '',
          currencies: columns.map((c) => r[c] ?? ''),
        })),
        (hash) => txMints.get(hash) ?? [],
      )
      const merged = [...byCurrency].filter(([, mints]) => mints.size !== 1)
      expect(merged).toEqual([])
      expect([...byCurrency.keys()].some((c) => c.startsWith('MOSS-'))).toBe(true)
    },
  )

  it('a swap of one asset for another is one row with both sides; a multi-leg transaction shares its TxHash', async () => {
    const records = await exported('balance-changes', 'koinly', 'legs-koinly')
    const byHash = new Map<string, Record<string, string>[]>()
    for (const r of records) byHash.set(r.TxHash!, [...(byHash.get(r.TxHash!) ?? []), r])
    const trades = records.filter((r) => r['Sent Amount'] && r['Received Amount'])
    expect(trades.length).toBeGreaterThan(0)
    for (const t of trades) expect(byHash.get(t.TxHash!)).toHaveLength(1)
    const multi = [...byHash.values()].filter((rows) => rows.length > 1)
    expect(multi.length).toBeGreaterThan(0)
    for (const rows of multi) {
      // One movement per row, the fee only on the first.
      for (const r of rows)
        expect(Boolean(r['Sent Amount']) && Boolean(r['Received Amount'])).toBe(false)
      expect(rows.slice(1).every((r) => r['Fee Amount'] === '')).toBe(true)
    }
  })

  it('the balances export holds the NFTs of the snapshot, and SOL as native, not spl-token', async () => {
    const records = await exported('balances', 'full', 'balances-with-nfts')
    const collector = mirror.addresses.get('nft-collector') as string
    const nfts = mirror.database.sqlite
      .prepare(
        `select n.mint from balance_snapshot_nfts n where n.snapshot_id =
          (select max(s.id) from balance_snapshots s join wallets w on w.id = s.wallet_id where w.address = ?)`,
      )
      .all(collector) as { mint: string }[]
    expect(nfts.length).toBeGreaterThan(0)
    const exportedNfts = records.filter((r) => r.Wallet === collector && r.Asset === 'nft')
    expect(new Set(exportedNfts.map((r) => r.Mint))).toEqual(new Set(nfts.map((n) => n.mint)))
    for (const r of exportedNfts) {
      expect(r.Balance).toBe('1')
      expect(r['Value (USD)']).toBe('')
    }
    const sol = records.filter((r) => r.Mint === NATIVE_SOL_MINT)
    expect(sol.length).toBeGreaterThan(0)
    for (const r of sol) expect([r['Token program'], r.Asset]).toEqual(['native', 'native'])
  })
})
