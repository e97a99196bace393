import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { StorageError } from '@shared/ipc/ipc-errors'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { HistoryEntry } from '@shared/api/wallet-rest'
import type { Mirror } from '../../../src-main/db/mirror'
import { openPostgresMirror } from '../../../src-main/db/postgres/mirror'
import { openSqliteMirror } from '../../../src-main/db/sqlite/mirror'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres'
import { ENGINES, type TestEngine } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// A backfill page says which cursor it follows on from; a page whose cursor is no longer
// the stream's (the page before it was not stored) is refused whole, on either engine.

const entry = (n: number): HistoryEntry => ({
  signature: `guard${String(n).padStart(83, '1')}`,
  slot: 1_000 - n,
  fee: 0.000005,
  feePayer: testAddress(90),
  balanceChanges: [{ mint: NATIVE_SOL_MINT, amount: -n, decimals: 9 }],
  timestamp: 1_800_000_000 - n,
  error: null,
})

describe.each(ENGINES)('the backfill cursor guard, on %s', (engine: TestEngine) => {
  const temp = makeTempDir()
  let database: TestDatabase | null = null
  let mirror: Mirror | null = null
  afterAll(async () => {
    await mirror?.close()
    await database?.drop()
    temp.remove()
  })

  it('stores a page that follows on from the cursor, and refuses one that does not, storing none of it', async () => {
    if (engine === 'sqlite') mirror = await openSqliteMirror(join(temp.dir, 'guard.sqlite'))
    else {
      database = await createTestDatabase()
      mirror = await openPostgresMirror(database.url)
    }
    const address = testAddress(91)
    await mirror.watchlist.add({ address }, 1_800_000_000)
    const { writer } = mirror
    const walletId = (await writer.walletId(address)) as number
    await writer.stream(walletId, 'history')

    const first = [entry(1), entry(2)]
    expect(
      await writer.applyHistoryPage(walletId, first, {
        continuesBackfillFrom: null,
        backfillCursor: entry(2).signature,
        addPages: 1,
      }),
    ).toBe(2)

    // Sent as if the page after entry(4) had been stored, which it was not.
    const refused = writer.applyHistoryPage(walletId, [entry(5), entry(6)], {
      continuesBackfillFrom: entry(4).signature,
      backfillCursor: entry(6).signature,
      addPages: 1,
    })
    await expect(refused).rejects.toBeInstanceOf(StorageError)
    await expect(refused).rejects.toThrow(
      'Could not store a page of history: the page before it was not stored',
    )

    const row = await writer.stream(walletId, 'history')
    expect([row.backfillCursor, row.itemsStored, row.pagesFetched]).toEqual([
      entry(2).signature,
      2,
      1,
    ])
    expect(await writer.knownSignatures(walletId, [entry(5).signature])).toEqual(new Set())

    expect(
      await writer.applyHistoryPage(walletId, [entry(3), entry(4)], {
        continuesBackfillFrom: entry(2).signature,
        backfillCursor: entry(4).signature,
        addPages: 1,
      }),
    ).toBe(2)
    expect((await writer.stream(walletId, 'history')).itemsStored).toBe(4)
  })
})
