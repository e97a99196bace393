import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { StorageError } from '@shared/ipc/ipc-errors'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { HistoryEntry } from '@shared/api/wallet-rest'
import { openPostgresMirror, type PostgresMirror } from '../../../src-main/db/postgres/mirror'
import { openSqliteMirror, type SqliteMirror } from '../../../src-main/db/sqlite/mirror'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres'
import { ENGINES, type TestEngine } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// A page of history is stored by natural key: a transaction the page repeats, or one
// already stored, is stored once with its balance changes once. A backfill page says which
// cursor it follows on from; a page whose cursor is no longer the stream's (the page
// before it was not stored) is refused whole.

const entry = (n: number, changes: number): HistoryEntry => ({
  signature: `page${String(n).padStart(84, 'A')}`,
  slot: 2_000 - n,
  fee: 0.000005,
  feePayer: testAddress(92),
  balanceChanges: Array.from({ length: changes }, (_, k) => ({
    mint: NATIVE_SOL_MINT,
    amount: -(n + k / 10),
    decimals: 9,
  })),
  timestamp: 1_800_000_000 - n,
  error: null,
})

const guardEntry = (n: number): HistoryEntry => ({
  signature: `guard${String(n).padStart(83, '1')}`,
  slot: 1_000 - n,
  fee: 0.000005,
  feePayer: testAddress(90),
  balanceChanges: [{ mint: NATIVE_SOL_MINT, amount: -n, decimals: 9 }],
  timestamp: 1_800_000_000 - n,
  error: null,
})

describe.each(ENGINES)('history page writes, on %s', (engine: TestEngine) => {
  const temp = makeTempDir()
  let database: TestDatabase | null = null
  let mirror: SqliteMirror | PostgresMirror | null = null
  afterAll(async () => {
    await mirror?.close()
    await database?.drop()
    temp.remove()
  })

  /** A fresh wallet's history stream on the engine's mirror (opened on first use). */
  const historyOf = async (n: number) => {
    if (mirror === null && engine === 'sqlite')
      mirror = await openSqliteMirror(join(temp.dir, 'pages.sqlite'))
    else if (mirror === null) {
      database = await createTestDatabase()
      mirror = await openPostgresMirror(database.url)
    }
    const address = testAddress(n)
    await mirror.watchlist.add({ address }, 1_800_000_000)
    const { writer } = mirror
    const walletId = (await writer.walletId(address)) as number
    await writer.stream(walletId, 'history')
    return { mirror, writer, walletId }
  }

  it('stores a repeated or known transaction once, with its balance changes once', async () => {
    const { mirror, writer, walletId } = await historyOf(93)
    // 70 transactions: more than one statement's worth of rows, with one repeated.
    const page = Array.from({ length: 70 }, (_, n) => entry(n, (n % 4) + 1))
    expect(await writer.applyHistoryPage(walletId, [...page, entry(5, 2)], { addPages: 1 })).toBe(
      70,
    )
    expect(await writer.applyHistoryPage(walletId, [entry(3, 4), entry(70, 1)], {})).toBe(1)

    const counts = await sql<{ transactions: number; changes: number; total: number }>`
      select
        (select count(*) from transactions where wallet_id = ${walletId}) as transactions,
        (select count(*) from balance_changes where wallet_id = ${walletId}) as changes,
        (select sum(amount) from balance_changes where wallet_id = ${walletId}) as total`.execute(
      mirror.database.db,
    )
    const expectedChanges = [...page, entry(70, 1)].reduce((n, e) => n + e.balanceChanges.length, 0)
    const expectedTotal = [...page, entry(70, 1)]
      .flatMap((e) => e.balanceChanges)
      .reduce((sum, c) => sum + c.amount, 0)
    const row = counts.rows[0] as { transactions: unknown; changes: unknown; total: unknown }
    expect(Number(row.transactions)).toBe(71)
    expect(Number(row.changes)).toBe(expectedChanges)
    expect(Number(row.total)).toBeCloseTo(expectedTotal, 6)
    expect((await writer.stream(walletId, 'history')).itemsStored).toBe(71)
  })

  it('stores a page that follows on from the cursor, and refuses one that does not, storing none of it', async () => {
    const { writer, walletId } = await historyOf(91)
    const first = [guardEntry(1), guardEntry(2)]
    expect(
      await writer.applyHistoryPage(walletId, first, {
        continuesBackfillFrom: null,
        backfillCursor: guardEntry(2).signature,
        addPages: 1,
      }),
    ).toBe(2)

    // Sent as if the page after guardEntry(4) had been stored, which it was not.
    const refused = writer.applyHistoryPage(walletId, [guardEntry(5), guardEntry(6)], {
      continuesBackfillFrom: guardEntry(4).signature,
      backfillCursor: guardEntry(6).signature,
      addPages: 1,
    })
    await expect(refused).rejects.toBeInstanceOf(StorageError)
    await expect(refused).rejects.toThrow(
      'Could not store a page of history: the page before it was not stored',
    )

    const row = await writer.stream(walletId, 'history')
    expect([row.backfillCursor, row.itemsStored, row.pagesFetched]).toEqual([
      guardEntry(2).signature,
      2,
      1,
    ])
    expect(await writer.knownSignatures(walletId, [guardEntry(5).signature])).toEqual(new Set())

    expect(
      await writer.applyHistoryPage(walletId, [guardEntry(3), guardEntry(4)], {
        continuesBackfillFrom: guardEntry(2).signature,
        backfillCursor: guardEntry(4).signature,
        addPages: 1,
      }),
    ).toBe(2)
    expect((await writer.stream(walletId, 'history')).itemsStored).toBe(4)
  })
})
