import type { OperationName } from '@shared/api/operations'
import { FIRST_SYNC_DEPTH } from '@shared/ipc/sync-schemas'
import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import type { Mirror } from '../db/mirror'
import type { RecordedCall } from '../db/stores/lookup-cache-store'
import { NotFoundError, PlanError } from '../service/service-errors'
import type { WalletCall } from '../sync/service-caller'
import { syncBalances } from '../sync/streams/balances-stream'
import { syncHistory } from '../sync/streams/history-stream'
import type { StreamContext } from '../sync/streams/stream-context'
import { syncTransfers } from '../sync/streams/transfers-stream'
import { DEFAULT_NAMES_REFRESH_SEC, fillWalletNames } from '../sync/wallet-names'
import type { LookupDesk } from './lookup-desk'
import { canonicalJson } from './lookup-request-key'

/** Raised by a replayed call the look-up did not make: the stream stops there, as a sync would. */
class NotLookedUpError extends Error {
  override name = 'NotLookedUpError'
}

/**
 * Adds a looked-up wallet to the watchlist and moves what its look-up fetched into the
 * mirror through the sync streams' own code: each stream runs against the look-up's
 * answers instead of the service, so its first pages, the holdings snapshot and the
 * wallet's name and funder are written with their cursors exactly as a sync would write
 * them, and the first sync goes on from there instead of paying for them again: while
 * the look-up is fresh (LOOKED_UP_TOP_FRESH_SEC) it does not read the streams' tops or
 * take the holdings snapshot again either. A stream whose next page the look-up did not
 * fetch stops at that page.
 */
export async function watchLookedUpWallet(
  mirror: Mirror,
  desk: LookupDesk,
  input: { address: string; label?: string | undefined },
  nowSec: number,
): Promise<WatchedWallet> {
  const wallet = await mirror.watchlist.add(
    { address: input.address, ...(input.label === undefined ? {} : { label: input.label }) },
    nowSec,
  )
  // A new wallet's first sync holds its newest transactions; older history on request.
  await mirror.syncState.setDepthLimit(wallet.address, FIRST_SYNC_DEPTH)
  const entry = await desk.cachedEntry({ view: 'wallet', address: input.address })
  const walletId = await mirror.writer.walletId(input.address)
  if (entry === null || walletId === null) return wallet
  const call = replayOf(entry.calls)
  const ctx: StreamContext = {
    walletId,
    address: input.address,
    writer: mirror.writer,
    call: (operation, callInput) => call(operation, callInput),
    report: () => {},
    // Written as of the look-up: that is when the service said it.
    nowSec: () => entry.fetchedAtSec,
    signal: new AbortController().signal,
    // Marks each stream's top as read then, so a first sync soon after trusts it.
    lookupFetchedAtSec: entry.fetchedAtSec,
  }
  for (const stream of [syncHistory, syncTransfers, syncBalances]) {
    await stream(ctx).catch((error: unknown) => {
      if (!(error instanceof NotLookedUpError)) throw error
    })
  }
  await fillWalletNames(call, mirror.names, {
    walletId,
    address: input.address,
    nowSec: entry.fetchedAtSec,
    refreshSec: DEFAULT_NAMES_REFRESH_SEC,
  }).catch((error: unknown) => {
    if (!(error instanceof NotLookedUpError)) throw error
  })
  return wallet
}

/** A call that answers from the look-up's recorded calls, failing as they failed. */
function replayOf(calls: readonly RecordedCall[]): WalletCall {
  const byKey = new Map(calls.map((c) => [callKey(c.operation, c.input), c]))
  return (async (operation: OperationName, input: unknown) => {
    const recorded = byKey.get(callKey(operation, input))
    if (recorded === undefined) throw new NotLookedUpError(`${operation} was not looked up`)
    if (recorded.errorName === 'NotFoundError') throw new NotFoundError(operation, 'Nothing found.')
    if (recorded.errorName === 'PlanError') throw new PlanError(operation, 'Not on this plan.')
    if (recorded.errorName !== undefined) throw new NotLookedUpError(`${operation} failed`)
    return recorded.output
  }) as WalletCall
}

function callKey(operation: string, input: unknown): string {
  return `${operation} ${canonicalJson(input)}`
}
