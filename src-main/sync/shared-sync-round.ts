import type { StreamState, WalletSyncOutcome, WalletSyncStatus } from '@shared/ipc/sync-schemas'
import { nowSec, systemClock, type Clock } from '@shared/clock'
import type { LeaseKeeper } from './lease-keeper'

/** What a shared round needs from the app: the lease keeper, the engine and the mirror. */
export interface SharedSyncRoundDeps {
  /** Keeps this worker's share of `addresses` leased (started and stopped by the round). */
  keeper: LeaseKeeper
  /** The wallets to bring up to date, each once, by whichever worker holds it. */
  addresses: readonly string[]
  syncWallet(address: string): Promise<WalletSyncOutcome>
  /** Stops this worker's sync of a wallet whose lease it lost (the page in flight finishes). */
  cancelWallet(address: string): void
  /** Whether the engine here is syncing the wallet now. */
  isSyncing(address: string): boolean
  /** Every wallet's streams as the shared mirror has them now. */
  status(): Promise<WalletSyncStatus[]>
  /** Told of each wallet this worker synced. */
  onOutcome?(outcome: WalletSyncOutcome): void
  /** Whether the round was cancelled (a signal): it stops taking wallets. */
  isCancelled?(): boolean
  /** How long to wait before looking again while other workers hold the rest. */
  pollMs?: number
  clock?: Clock
}

/** What one worker did in a shared round. */
export interface SharedSyncRoundResult {
  /** The wallets this worker synced, with their outcomes, in the order it ran them. */
  outcomes: WalletSyncOutcome[]
  /** Wallets another worker brought up to date during the round. */
  syncedElsewhere: string[]
}

/**
 * Syncs every wallet once, sharing the work with the other sync workers on the same mirror:
 * each wallet is synced only by the worker holding its lease, so no page is fetched twice;
 * a worker that finishes its share waits for the others, and takes over the wallets of one
 * that died once their leases expire, continuing from the cursors its pages left. The
 * round ends when every wallet has been brought up to date since it began, here or
 * elsewhere (all of its streams succeeded since then).
 *
 * @example
 * const keeper = new LeaseKeeper({ store: mirror.leases, ttlMs: 30_000, watched: addresses })
 * const { outcomes } = await runSharedSyncRound({ keeper, addresses, syncWallet, … })
 */
export async function runSharedSyncRound(
  deps: SharedSyncRoundDeps,
): Promise<SharedSyncRoundResult> {
  const clock = deps.clock ?? systemClock
  const startedSec = nowSec(clock)
  const pending = new Set(deps.addresses)
  const outcomes: WalletSyncOutcome[] = []
  const syncedElsewhere: string[] = []
  const { keeper } = deps
  // A lease lost mid-sync (this worker stalled past its expiry) stops the sync at once:
  // the wallet may be another worker's by now. That is no one's cancel: the wallet stays
  // pending, to be finished by whoever holds it next (this worker, once it takes it again).
  const lostLease = new Set<string>()
  const stopGuard = clock.setInterval(
    () => {
      for (const address of deps.addresses)
        if (deps.isSyncing(address) && !keeper.isMine(address)) {
          lostLease.add(address)
          deps.cancelWallet(address)
        }
    },
    250,
    { keepsAlive: false },
  )
  await keeper.start()
  try {
    while (pending.size > 0 && deps.isCancelled?.() !== true) {
      let didWork = false
      for (const address of keeper.mine()) {
        if (!pending.has(address) || deps.isCancelled?.() === true) continue
        if (!keeper.isMine(address)) continue
        lostLease.delete(address)
        const outcome = await deps.syncWallet(address)
        didWork = true
        if (outcome.state === 'cancelled' && lostLease.has(address)) continue
        outcomes.push(outcome)
        deps.onOutcome?.(outcome)
        // A wallet that failed here is not retried in this round; it counts as done.
        pending.delete(address)
      }
      if (pending.size === 0) break
      for (const status of await deps.status()) {
        if (pending.has(status.address) && isUpToDateSince(status, startedSec)) {
          pending.delete(status.address)
          syncedElsewhere.push(status.address)
        }
      }
      if (pending.size > 0 && !didWork) {
        await clock.sleep(deps.pollMs ?? 1_000)
        await keeper.runRound()
      }
    }
  } finally {
    stopGuard()
    await keeper.stop()
  }
  return { outcomes, syncedElsewhere }
}

/** Stream states that another worker's run of the wallet can end in besides success. */
const SETTLED_STATES: ReadonlySet<StreamState> = new Set(['error', 'paused', 'budget'])

/**
 * Every stream of the wallet finished a run at or after `sinceSec` (here or in another
 * worker), or stopped where a re-run would not go on by itself (an error, a pause, the
 * budget): the worker holding it has had its go, and waiting for it would never end. A
 * page's success alone is not a finished run: a worker killed or stopped mid-backfill
 * leaves pages stored since `sinceSec` and the rest to fetch.
 */
export function isUpToDateSince(status: WalletSyncStatus, sinceSec: number): boolean {
  return (
    status.streams.length > 0 &&
    status.streams.every(
      (s) =>
        (s.state === 'ok' && s.lastSuccessSec !== null && s.lastSuccessSec >= sinceSec) ||
        SETTLED_STATES.has(s.state),
    )
  )
}
