import type { Kysely } from 'kysely'
import type { ValuePoint, ValueSeries } from '@shared/ipc/wallet-schemas'
import type { Database } from '../schema'
import { listCompressedHoldings } from './compressed-holdings'
import { thinEvenly } from './series-thinning'

/** USD value over time is drawn once the snapshots span more than this (a day). */
export const VALUE_SERIES_MIN_SPAN_SEC = 86_400

/**
 * A wallet's value at each balances snapshot, oldest first: the snapshot's tokens plus the
 * compressed state taken in the same sync. The two are stored by different streams of one
 * sync, the compressed one usually a moment later, so a snapshot is paired with the latest
 * compressed state taken before the next balances snapshot. Without the pairing a wallet
 * that moves its SOL into compressed accounts reads as emptied.
 */
export async function listWalletValuePoints(
  db: Kysely<Database>,
  walletId: number,
): Promise<ValuePoint[]> {
  const snapshots = await db
    .selectFrom('balance_snapshots')
    .select(['taken_at_sec', 'total_usd'])
    .where('wallet_id', '=', walletId)
    .orderBy('taken_at_sec')
    .orderBy('id')
    .execute()
  const compressed = await listCompressedHoldings(db, walletId)
  let c = -1
  return snapshots.map((s, i) => {
    const nextSec = snapshots[i + 1]?.taken_at_sec ?? Number.POSITIVE_INFINITY
    while (c + 1 < compressed.length && (compressed[c + 1]?.takenAtSec ?? 0) < nextSec) c++
    return { atSec: s.taken_at_sec, valueUsd: s.total_usd + (compressed[c]?.valueUsd ?? 0) }
  })
}

/**
 * A wallet's USD value over time, from its balances snapshots only (see
 * listWalletValuePoints), given only once they span more than a day: snapshots seconds
 * apart say nothing about how the value moves.
 */
export async function fetchWalletValueSeries(
  db: Kysely<Database>,
  walletId: number,
): Promise<ValueSeries> {
  return valueSeriesOf(await listWalletValuePoints(db, walletId))
}

/**
 * The watchlist's total USD value over time: at each moment a wallet took a snapshot, the
 * sum of every wallet's latest snapshot value then. It starts once every wallet with
 * snapshots has its first: before that the sum would lack wallets and read as a rise from
 * near zero while the first syncs come in.
 */
export async function fetchWatchlistValueSeries(db: Kysely<Database>): Promise<ValueSeries> {
  const wallets = await db.selectFrom('wallets').select('id').execute()
  const perWallet: ValuePoint[][] = []
  for (const { id } of wallets) {
    const points = await listWalletValuePoints(db, id)
    if (points.length > 0) perWallet.push(points)
  }
  const everyWalletFromSec = Math.max(...perWallet.map((points) => points[0]?.atSec ?? 0))
  const times = [...new Set(perWallet.flat().map((p) => p.atSec))]
    .filter((atSec) => atSec >= everyWalletFromSec)
    .sort((a, b) => a - b)
  const next = perWallet.map(() => 0)
  const latest = perWallet.map(() => 0)
  const summed = times.map((atSec) => {
    perWallet.forEach((points, w) => {
      while (
        (next[w] as number) < points.length &&
        (points[next[w] as number]?.atSec ?? 0) <= atSec
      ) {
        latest[w] = points[next[w] as number]?.valueUsd ?? 0
        next[w] = (next[w] as number) + 1
      }
    })
    return { atSec, valueUsd: latest.reduce((sum, v) => sum + v, 0) }
  })
  return valueSeriesOf(summed)
}

function valueSeriesOf(points: readonly ValuePoint[]): ValueSeries {
  const first = points[0]?.atSec ?? null
  const last = points.at(-1)?.atSec ?? null
  const isDrawn = first !== null && last !== null && last - first > VALUE_SERIES_MIN_SPAN_SEC
  return {
    source: 'snapshots',
    snapshotCount: points.length,
    firstSnapshotSec: first,
    lastSnapshotSec: last,
    isDrawn,
    points: isDrawn ? thinEvenly(points) : [],
  }
}
