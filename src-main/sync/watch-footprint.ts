import type { WatchedWalletFootprint, WatchFootprint } from '@shared/domain/watch-cost'
import type { StreamName, StreamRow } from '../db/mirror-writer'
import type { Mirror } from '../db/mirror'

/** The streams that read compressed state; a wallet with items in them is looked at for it. */
export const COMPRESSED_STREAMS: readonly StreamName[] = [
  'compressed-owner',
  'compressed-token-owner',
]

const DAY_SEC = 86_400
/** How far back a wallet's change rate is measured. */
const RATE_WINDOW_SEC = 7 * DAY_SEC

/**
 * Whether a wallet ever held compressed state, from its compressed streams' rows (the same
 * rule as SyncStateStore.walletsWithItems over COMPRESSED_STREAMS).
 */
export function holdsCompressedState(rows: readonly (StreamRow | null | undefined)[]): boolean {
  return rows.some(
    (r) =>
      r !== null && r !== undefined && COMPRESSED_STREAMS.includes(r.stream) && r.itemsStored > 0,
  )
}

/**
 * What the projection of watching's cost needs about the unpaused wallets (token accounts,
 * compressed state, measured change rate and cost), and what the last 24 h really cost.
 * Rates are measured over up to a week, and over no less than a day so that one change in a
 * wallet's first minutes does not read as hundreds a day.
 *
 * @example
 * const footprint = await readWatchFootprint(mirror, nowSec)
 * projectWatchCost(footprint.wallets, cadence, { plan, monthlyBudget })
 */
export async function readWatchFootprint(mirror: Mirror, nowSec: number): Promise<WatchFootprint> {
  const wallets = await mirror.schedule.unpaused()
  const ids = wallets.map((w) => w.walletId)
  const accounts = await mirror.watchState.accounts(ids)
  const changes = await mirror.watchState.changesSince(nowSec - RATE_WINDOW_SEC)
  const watchedSince = await mirror.watchState.watchedSince()
  const footprints: WatchedWalletFootprint[] = []
  // Read without making stream rows: a process that only reads (`heliograph budget`, `watch
  // cadence`, Settings) asks beside the process that syncs.
  const compressed = await mirror.syncState.walletsWithItems(ids, COMPRESSED_STREAMS)
  for (const { walletId } of wallets) {
    const measured = changes.get(walletId)
    const since = watchedSince.get(walletId) ?? nowSec
    const days = Math.max(1, Math.min(RATE_WINDOW_SEC, nowSec - since) / DAY_SEC)
    const tokenAccounts = accounts.filter((a) => a.walletId === walletId && a.kind === 'token')
    footprints.push({
      tokenAccounts: tokenAccounts.length,
      collectibleAccounts: tokenAccounts.filter((a) => a.isCollectible).length,
      hasCompressedState: compressed.has(walletId),
      changesPerDay: (measured?.count ?? 0) / days,
      creditsPerChange: measured && measured.count > 0 ? measured.credits / measured.count : null,
    })
  }
  const lastDay = await mirror.watchState.changesSince(nowSec - DAY_SEC)
  return {
    wallets: footprints,
    spentLast24h: await mirror.ledger.spentSince((nowSec - DAY_SEC) * 1000),
    changesLast24h: [...lastDay.values()].reduce((sum, c) => sum + c.count, 0),
  }
}
