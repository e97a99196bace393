import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { WalletSummary } from '@shared/ipc/review-schemas'
import {
  listWalletSummaries,
  NEW_ACTIVITY_CAP,
} from '../../../src-main/db/queries/wallet-summary-queries'
import type { Database } from '../../../src-main/db/schema'
import { openEngineMirror } from '../../helpers/engine-mirror'
import { ENGINES } from '../../helpers/sync-fixture'
import { testAddress } from '../../helpers/wallets'

// Given wallets that differ in every figure the sidebar shows — several snapshots (the
// latest counts), compressed SOL beside them or on its own, a last-viewed mark, more unseen
// transactions than the badge counts, undated transactions, nothing at all — when the
// summaries are read, then each wallet's figures are the ones worked out from its rows, in
// watchlist order, on both engines.

const SOL_PRICE = 150

interface WalletShape {
  /** Block times of its transactions (null: undated). */
  times: (number | null)[]
  /** Its balance snapshots' (time, total USD), in the order written. */
  snapshots: [number, number][]
  /** Lamports of its compressed snapshots, oldest first. */
  compressedLamports: string[]
  seenThroughSec: number | null
}

const SHAPES: WalletShape[] = [
  {
    times: Array.from({ length: NEW_ACTIVITY_CAP + 5 }, (_, i) => 1_000 + i),
    snapshots: [
      [50, 10],
      [90, 25.5],
      [70, 99],
    ],
    compressedLamports: ['1000000000', '2500000000'],
    seenThroughSec: null,
  },
  {
    times: [100, 200, 300, null, 400],
    snapshots: [[10, 7]],
    compressedLamports: [],
    seenThroughSec: 250,
  },
  { times: [], snapshots: [], compressedLamports: ['3000000000'], seenThroughSec: null },
  { times: [null, null], snapshots: [], compressedLamports: [], seenThroughSec: 0 },
  { times: [5, 6], snapshots: [[1, 3]], compressedLamports: [], seenThroughSec: 6 },
]

const addresses = SHAPES.map((_, i) => testAddress(40 + i))

async function fill(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('mints')
    .values({
      mint: NATIVE_SOL_MINT,
      symbol: 'SOL',
      name: 'Solana',
      decimals: 9,
      logo_uri: null,
      token_program: null,
      price_usd: SOL_PRICE,
      updated_at_sec: 0,
    })
    .execute()
  // Listed in reverse: the summaries follow the watchlist's positions, not the ids.
  for (const [i, shape] of [...SHAPES.entries()].reverse()) {
    const { id } = await db
      .insertInto('wallets')
      .values({ address: addresses[i]!, label: null, position: i, added_at_sec: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    if (shape.times.length > 0) {
      await db
        .insertInto('transactions')
        .values(
          shape.times.map((time, n) => ({
            wallet_id: id,
            signature: `${addresses[i]!.slice(0, 20)}sig${n}`,
            slot: 10_000 + n,
            block_time_sec: time,
            fee: 0.000005,
            fee_text: '0.000005',
            fee_payer: addresses[i]!,
            error: null,
            is_failed: 0,
            change_count: 0,
            kind: 'TRANSFER',
          })),
        )
        .execute()
    }
    for (const [takenAtSec, totalUsd] of shape.snapshots) {
      await db
        .insertInto('balance_snapshots')
        .values({
          wallet_id: id,
          taken_at_sec: takenAtSec,
          total_usd: totalUsd,
          token_count: 0,
          nft_count: 0,
        })
        .execute()
    }
    for (const [n, lamports] of shape.compressedLamports.entries()) {
      await db
        .insertInto('compressed_snapshots')
        .values({
          wallet_id: id,
          taken_at_sec: 100 + n,
          lamports_raw: lamports,
          account_count: 1,
          token_count: 0,
        })
        .execute()
    }
    if (shape.seenThroughSec !== null) {
      await db
        .insertInto('wallet_views')
        .values({ wallet_id: id, seen_through_sec: shape.seenThroughSec, viewed_at_sec: 0 })
        .execute()
    }
  }
}

/** What the sidebar should show for a wallet, worked out from the rows written for it. */
function expected(shape: WalletShape, address: string): WalletSummary {
  const latest = [...shape.snapshots].sort((a, b) => b[0] - a[0])[0]
  const compressed = shape.compressedLamports.at(-1)
  const compressedUsd = compressed === undefined ? 0 : (Number(compressed) / 1e9) * SOL_PRICE
  const dated = shape.times.filter((t): t is number => t !== null)
  const unseen = dated.filter((t) => t > (shape.seenThroughSec ?? -1)).length
  return {
    address,
    totalUsd: latest === undefined ? null : latest[1] + compressedUsd,
    newActivityCount: Math.min(unseen, NEW_ACTIVITY_CAP),
    isNewActivityCapped: unseen > NEW_ACTIVITY_CAP,
    lastActivitySec: dated.length === 0 ? null : Math.max(...dated),
  }
}

describe.each(ENGINES)('the sidebar summaries on %s', (engine) => {
  let opened: Awaited<ReturnType<typeof openEngineMirror>>

  beforeAll(async () => {
    opened = await openEngineMirror(engine)
    await fill(opened.mirror.database.db)
  })
  afterAll(() => opened?.drop())

  it('gives each wallet the figures its rows say, in watchlist order', async () => {
    const summaries = await listWalletSummaries(opened.mirror.database.db)
    expect(summaries).toEqual(SHAPES.map((shape, i) => expected(shape, addresses[i]!)))
  })

  it('caps the badge and counts only what is newer than the last view', async () => {
    const summaries = await listWalletSummaries(opened.mirror.database.db)
    expect(summaries[0]).toMatchObject({
      newActivityCount: NEW_ACTIVITY_CAP,
      isNewActivityCapped: true,
    })
    expect(summaries[1]).toMatchObject({ newActivityCount: 2, isNewActivityCapped: false })
    expect(summaries[4]).toMatchObject({ newActivityCount: 0, totalUsd: 3 })
  })
})
