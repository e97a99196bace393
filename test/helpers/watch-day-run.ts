import { CREDIT_PRICES } from '@shared/api/prices'
import { projectWatchCost, type WatchCostProjection } from '@shared/domain/watch-cost'
import type { WatchCadence } from '@shared/ipc/settings-schemas'
import { DEFAULT_WATCH_CADENCE } from '../../src-main/app/app-settings'
import type { Mirror } from '../../src-main/db/mirror'
import { walletTokenAccounts } from '../../src-main/simulator/chain/accounts'
import type { SimWallet } from '../../src-main/simulator/chain/sim-chain'
import type { Variance } from '../../src-main/simulator/real-variance'
import type { RunningSimulator } from '../../src-main/simulator/simulator-server'
import { readWatchFootprint } from '../../src-main/sync/watch-footprint'
import type { TestEngine } from './sync-fixture'
import { WatchDayWebhooks } from './watch-day-webhooks'
import { startWatchRun, WATCH_KEY, type WatchDayAlerts } from './watch-run'

export type { WatchDayAlerts }

// The watch day (issue 11): the watch-day population (50 wallets, seed 7) on the
// simulator's manual clock, the real engine and scheduler over HTTP, and a round every
// `checkEverySec` of virtual time. Two reference strategies are replayed against the same
// chain by counting the calls they would make at their 5-minute ticks, priced from the
// same credit table:
// - rotki-style: getSignaturesForAddress on each wallet and each of its token accounts,
//   then, for a wallet with anything new, its history (one call per 100 new), transfers
//   and balances;
// - naive: every stream of every wallet (history, transfers, balances, two compressed
//   signature lists), one call each, more history calls when over 100 are new.

const REFERENCE_TICK_SEC = 300
const WALLET_PAGE = 100

export interface WatchDayResult {
  wallets: number
  hours: number
  /** Credits the simulator charged Heliograph's key while watching (the first full sync apart). */
  heliographCredits: number
  /** Credits of the first full sync of every wallet (and the webhook's registration), before the watched hours. */
  initialSyncCredits: number
  rotkiCredits: number
  naiveCredits: number
  /** Transactions the chain added to watched wallets while watching. */
  changes: number
  /** Of those, how many reached the mirror, and how long after they happened (seconds). */
  detected: number
  latenciesSec: number[]
  /** Whether every wallet's mirror equals the simulator's truth at the end (and why not). */
  mirrorEqualsTruth: boolean
  mismatch: string | null
  /** The Settings projection for the same watchlist and cadence, over what was measured. */
  projection: WatchCostProjection
  /** Webhook mode: delivered events charged, and seconds from each delivery to its write. */
  webhooks: { deliveries: number; latenciesSec: number[] } | null
  /** What `inspect` found before the run closed its mirror and simulator. */
  inspection: unknown
}

/**
 * Runs a watch day on a virtual clock and reports what it cost and caught.
 *
 * @example
 * const day = await runWatchDay({ hours: 24 })
 * day.heliographCredits / day.rotkiCredits // ≤ 0.03
 */
export async function runWatchDay(
  options: {
    hours?: number
    cadence?: WatchCadence
    /** Told every simulated hour. */
    onHour?: (hour: number, credits: number) => void
    /** The engine holding the mirror: SQLite in a temp folder (default) or a fresh PostgreSQL database. */
    engine?: TestEngine
    /** Polling (default), or webhook mode: deliveries, and the probe at its floor. */
    mode?: 'polling' | 'webhook'
    /** The simulator's shapes: the interface text's (default), or the real service's variety. */
    variance?: Variance
    alerts?: WatchDayAlerts
    /** Reads what it needs before the run closes (the transactions added while watching, by wallet). */
    inspect?: (run: {
      sim: RunningSimulator
      mirror: Mirror
      newSignatures: ReadonlyMap<string, readonly string[]>
    }) => Promise<unknown>
  } = {},
): Promise<WatchDayResult> {
  const hours = options.hours ?? 24
  const cadence = options.cadence ?? DEFAULT_WATCH_CADENCE
  const run = await startWatchRun({
    seed: 7,
    cadence,
    variance: options.variance ?? 'none',
    ...(options.engine ? { engine: options.engine } : {}),
    ...(options.alerts ? { alerts: options.alerts } : {}),
  })
  const { sim, mirror, runtime, scheduler, clock, wallets, credits } = run
  let webhooks: WatchDayWebhooks | null = null
  try {
    // Round 0 meets every wallet: a full sync of each, which watching does not repeat.
    await scheduler.runRound()
    // Registering the webhook is set-up too, like the first sync: counted with it.
    webhooks =
      options.mode === 'webhook'
        ? await WatchDayWebhooks.start({
            sim,
            mirror,
            runtime,
            scheduler,
            checkEverySec: cadence.checkEverySec,
          })
        : null
    const initialSyncCredits = credits()

    const countAt = new Map(wallets.map((w) => [w.address, sim.chain.txCount(w)]))
    const pending = new Map<string, number>()
    const newSignatures = new Map<string, string[]>(wallets.map((w) => [w.address, []]))
    const latenciesSec: number[] = []
    const rotki = new ReferenceReplay(wallets, countAt)
    let changes = 0
    const start = clock.nowSec()
    const end = start + hours * 3_600
    let nextReference = start + REFERENCE_TICK_SEC
    while (clock.nowSec() < end) {
      clock.advance(cadence.checkEverySec)
      const now = clock.nowSec()
      for (const w of wallets) {
        const count = sim.chain.txCount(w)
        for (let i = countAt.get(w.address) ?? count; i < count; i++) {
          const tx = sim.chain.tx(w, i)
          pending.set(tx.signature, tx.timestamp)
          newSignatures.get(w.address)?.push(tx.signature)
          changes++
        }
        countAt.set(w.address, count)
      }
      for (; nextReference <= now; nextReference += REFERENCE_TICK_SEC)
        rotki.tick(sim.chain, nextReference)
      await webhooks?.settle()
      await webhooks?.maybeCheckHealth(now)
      if (!webhooks || webhooks.isRoundDue(now)) await scheduler.runRound()
      const stored = await run.storedOf([...pending.keys()])
      for (const [signature, timestamp] of pending) {
        if (!stored.has(signature)) continue
        latenciesSec.push(clock.nowSec() - timestamp)
        pending.delete(signature)
      }
      if ((now - start) % 3_600 === 0) options.onHour?.((now - start) / 3_600, credits())
    }

    const mismatch = await run.firstMismatch()
    const footprint = await readWatchFootprint(mirror, clock.nowSec())
    const inspection = await options.inspect?.({ sim, mirror, newSignatures })
    return {
      inspection,
      wallets: wallets.length,
      hours,
      heliographCredits: credits() - initialSyncCredits,
      initialSyncCredits,
      rotkiCredits: rotki.rotkiCredits,
      naiveCredits: rotki.naiveCredits,
      changes,
      detected: latenciesSec.length,
      latenciesSec,
      mirrorEqualsTruth: mismatch === null,
      mismatch,
      projection: projectWatchCost(footprint.wallets, cadence, {
        plan: 'free',
        monthlyBudget: null,
      }),
      webhooks: webhooks
        ? { deliveries: webhooks.deliveries(WATCH_KEY), latenciesSec: webhooks.latenciesSec }
        : null,
    }
  } finally {
    await webhooks?.stop()
    await run.close()
  }
}

/** Counts the credits of the two reference strategies at each of their 5-minute ticks. */
class ReferenceReplay {
  rotkiCredits = 0
  naiveCredits = 0
  readonly #seen: Map<string, number>

  constructor(
    private readonly wallets: readonly SimWallet[],
    countAt: ReadonlyMap<string, number>,
  ) {
    this.#seen = new Map(countAt)
  }

  tick(chain: Parameters<typeof walletTokenAccounts>[0], atSec: number): void {
    for (const w of this.wallets) {
      const seen = this.#seen.get(w.address) ?? 0
      const count = chain.lastIndexAtOrBefore(w, { sec: atSec }) + 1
      const fresh = Math.max(0, count - seen)
      this.#seen.set(w.address, Math.max(seen, count))
      const historyCalls = Math.max(1, Math.ceil(fresh / WALLET_PAGE))

      const accounts = 1 + walletTokenAccounts(chain, w).length
      this.rotkiCredits += accounts * CREDIT_PRICES.rpcArchival
      if (fresh > 0) this.rotkiCredits += (historyCalls + 2) * CREDIT_PRICES.wallet

      this.naiveCredits += (historyCalls + 2) * CREDIT_PRICES.wallet + 2 * CREDIT_PRICES.compression
    }
  }
}
