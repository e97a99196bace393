import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { HistoryEntry } from '@shared/api/wallet-rest'
import { decimalText } from '@shared/domain/exact-amount'
import { migrations } from '../../../src-main/db/migrations'
import { openPostgresDatabase } from '../../../src-main/db/postgres/database'
import type { Database } from '../../../src-main/db/schema'
import { openDatabase } from '../../../src-main/db/sqlite/database'
import { transactionDirections } from '../../../src-main/db/ingest/transaction-directions'
import { createTestDatabase } from '../../helpers/postgres'
import { ENGINES, type TestEngine } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// Given a mirror written before transactions carried their directions (migrations up to
// 0018), with transactions of every shape — tokens in and out, SOL with the fee the wallet
// paid or another paid, a fee alone, dust below half a lamport — when the app opens it
// with every migration, then each transaction's four direction flags are what the writer
// derives for a new row of the same entry, on both engines.

const ME = testAddress(1)
const OTHER = testAddress(2)
const USDC = testAddress(20)
const FEE = 0.000005

const ENTRIES: Omit<HistoryEntry, 'signature' | 'slot' | 'timestamp' | 'error'>[] = [
  // Sent USDC, paid the fee: out only.
  { fee: FEE, feePayer: ME, balanceChanges: [sol(-FEE), usdc(-20)] },
  // Received SOL someone else paid for: in.
  { fee: FEE, feePayer: OTHER, balanceChanges: [sol(1.5)] },
  // Sent SOL and paid the fee: out.
  { fee: FEE, feePayer: ME, balanceChanges: [sol(-1 - FEE)] },
  // A fee alone: a change out, no leg.
  { fee: FEE, feePayer: ME, balanceChanges: [sol(-FEE)] },
  // A swap: SOL out (with the fee), USDC in.
  { fee: FEE, feePayer: ME, balanceChanges: [sol(-2 - FEE), usdc(300)] },
  // Received less SOL than the fee it paid: the change is out, the leg in.
  { fee: FEE, feePayer: ME, balanceChanges: [sol(0.000001 - FEE)] },
  // Dust below half a lamport after the fee: no leg.
  { fee: FEE, feePayer: ME, balanceChanges: [sol(2e-10 - FEE)] },
  // No changes at all.
  { fee: FEE, feePayer: OTHER, balanceChanges: [] },
]

function sol(amount: number) {
  return { mint: NATIVE_SOL_MINT, amount, decimals: 9 }
}
function usdc(amount: number) {
  return { mint: USDC, amount, decimals: 6 }
}

const before0019 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0019'))

/** The test's database, kept between the two opens: dropped after each test. */
let location: Awaited<ReturnType<typeof createTestDatabase>> | undefined
let folder: ReturnType<typeof makeTempDir> | undefined

async function open(engine: TestEngine, which: typeof migrations) {
  if (engine === 'postgres') {
    const database = (location ??= await createTestDatabase())
    const opened = await openPostgresDatabase(database.url, { migrations: which })
    return { db: opened.db, close: () => opened.close() }
  }
  const temp = (folder ??= makeTempDir())
  const opened = await openDatabase(join(temp.dir, 'heliograph.sqlite'), { migrations: which })
  return { db: opened.db, close: () => opened.close() }
}

describe.each(ENGINES)('transaction directions on %s', (engine) => {
  afterEach(async () => {
    await location?.drop()
    folder?.remove()
    location = undefined
    folder = undefined
  })

  it('rows stored before 0019 get the flags the writer derives for new rows', async () => {
    const old = await open(engine, before0019)
    // Written as 0018's schema has them: the typed Database already knows the flags.
    const db = old.db as unknown as Kysely<Record<string, Record<string, unknown>>>
    const wallet = await db
      .insertInto('wallets')
      .values({ address: ME, label: null, position: 0, added_at_sec: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const [n, entry] of ENTRIES.entries()) {
      const tx = await db
        .insertInto('transactions')
        .values({
          wallet_id: wallet.id,
          signature: `sig-${n}`,
          slot: 100 + n,
          block_time_sec: 1_700_000_000 + n,
          fee: entry.fee,
          fee_text: decimalText(entry.fee),
          fee_payer: entry.feePayer,
          error: null,
          is_failed: 0,
          change_count: entry.balanceChanges.length,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      for (const [ordinal, c] of entry.balanceChanges.entries())
        await db
          .insertInto('balance_changes')
          .values({
            transaction_id: tx.id,
            wallet_id: wallet.id,
            ordinal,
            mint: c.mint,
            amount: c.amount,
            amount_text: decimalText(c.amount),
            amount_raw: null,
            decimals: c.decimals,
            block_time_sec: 1_700_000_000 + n,
            slot: 100 + n,
          })
          .execute()
    }
    await old.close()

    const current = await open(engine, migrations)
    try {
      const rows = await (current.db as Kysely<Database>)
        .selectFrom('transactions')
        .select(['signature', 'has_change_in', 'has_change_out', 'has_leg_in', 'has_leg_out'])
        .orderBy('slot')
        .execute()
      const flags = rows.map(({ signature: _, ...f }) =>
        Object.fromEntries(Object.entries(f).map(([k, v]) => [k, Number(v)])),
      )
      expect(flags).toEqual(ENTRIES.map((e) => transactionDirections(e, ME)))
      // The shapes differ: the test sees each flag both ways.
      for (const flag of ['has_change_in', 'has_change_out', 'has_leg_in', 'has_leg_out'])
        expect(new Set(flags.map((f) => f[flag])), flag).toEqual(new Set([0, 1]))
      expect(flags[5]).toEqual({
        has_change_in: 0,
        has_change_out: 1,
        has_leg_in: 1,
        has_leg_out: 0,
      })
      expect(flags[6]).toEqual({
        has_change_in: 0,
        has_change_out: 1,
        has_leg_in: 0,
        has_leg_out: 0,
      })
    } finally {
      await current.close()
    }
  })
})
