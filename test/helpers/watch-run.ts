import { join } from 'node:path'
import type { Kysely } from 'kysely'
import type { WatchCadence } from '@shared/ipc/settings-schemas'
import { AlertRuleInput } from '@shared/domain/alert-rules'
import { AlertEvaluator, type EvaluationReport } from '../../src-main/alerts/alert-evaluator'
import type { Mirror } from '../../src-main/db/mirror'
import { openPostgresMirror } from '../../src-main/db/postgres/mirror'
import type { Database } from '../../src-main/db/schema'
import { openSqliteMirror } from '../../src-main/db/sqlite/mirror'
import { singleOriginServiceSettings } from '../../src-main/service/service-settings'
import type { SimClock } from '../../src-main/simulator/chain/clock'
import type { SimWallet } from '../../src-main/simulator/chain/sim-chain'
import { startSimulator, type RunningSimulator } from '../../src-main/simulator/simulator-server'
import type { Variance } from '../../src-main/simulator/real-variance'
import { createSyncRuntime, type SyncRuntime } from '../../src-main/sync/sync-runtime'
import { WatchScheduler } from '../../src-main/sync/watch-scheduler'
import { expectMirrorEqualsTruth } from '../integration/sync/mirror-truth-assertions'
import { clockReading } from './clocks'
import { createTestDatabase } from './postgres'
import { closeSyncSetting, FAST_RETRIES, type TestEngine } from './sync-fixture'
import { makeTempDir } from './temp-dir'

// The setting of a watch on the virtual clock (the watch day, the watch fuzz): the
// watch-day population on the simulator's manual clock, every wallet on the watchlist, the
// real engine and scheduler over HTTP, alert rules evaluated after each wallet's sync as
// the app does.

/** The key the app spends. */
export const WATCH_KEY = 'demo'

/** Alert rules over the watch, evaluated after each wallet's sync as the app does. */
export interface WatchDayAlerts {
  rules(wallets: readonly SimWallet[]): AlertRuleInput[]
  /** Tags put on wallets before watching starts. */
  tags?(wallets: readonly SimWallet[]): { address: string; tag: string }[]
  /** Told after each evaluation that wrote alerts. */
  onFired?(report: EvaluationReport): void
}

export interface WatchRun {
  sim: RunningSimulator
  mirror: Mirror
  db: Kysely<Database>
  runtime: SyncRuntime
  scheduler: WatchScheduler
  /** The simulator's clock, which the mirror, the engine and the scheduler read. */
  clock: SimClock
  wallets: readonly SimWallet[]
  /** Credits the simulator charged the app's key so far. */
  credits(): number
  /** Which of `signatures` the mirror holds. */
  storedOf(signatures: readonly string[]): Promise<Set<string>>
  /** The first wallet whose mirror differs from the simulator's truth, and how; null when none. */
  firstMismatch(): Promise<string | null>
  close(): Promise<void>
}

/**
 * Starts a watch of the watch-day population (seed `seed`) and puts every wallet on the
 * watchlist; nothing is synced yet (the first round meets every wallet).
 */
export async function startWatchRun(options: {
  seed: number
  cadence: WatchCadence
  engine?: TestEngine
  alerts?: WatchDayAlerts
  /** The simulator's answers: the interface text's shapes (default), or the real service's variety. */
  variance?: Variance
  /** The base URL the app calls, given the simulator's (a proxy in front of it); the simulator's own by default. */
  serviceUrl?: (simUrl: string) => Promise<string>
}): Promise<WatchRun> {
  const temp = makeTempDir('heliograph-watch-run-')
  const sim = await startSimulator({
    seed: options.seed,
    population: 'watch-day',
    clock: { mode: 'manual' },
    variance: options.variance ?? 'none',
  })
  const postgres = options.engine === 'postgres' ? await createTestDatabase() : null
  const mirror = postgres
    ? await openPostgresMirror(postgres.url)
    : await openSqliteMirror(join(temp.dir, 'heliograph.sqlite'))
  const db = mirror.database.db
  const alerts = options.alerts
  const evaluator = alerts
    ? new AlertEvaluator({ mirror, ...(alerts.onFired ? { onFired: alerts.onFired } : {}) })
    : null
  const clock = sim.chain.clock
  const runtime = createSyncRuntime({
    mirror,
    // The mirror's times are the chain's, as the scheduler's and the webhook mode's are.
    clock: clockReading(() => clock.nowSec()),
    service: singleOriginServiceSettings(
      (await options.serviceUrl?.(sim.url)) ?? sim.url,
      WATCH_KEY,
      { timeoutMs: 10_000 },
    ),
    rate: 'off',
    budget: async () => ({ dailyCredits: null, monthlyCredits: null }),
    emit: () => {},
    retry: FAST_RETRIES,
    ...(evaluator
      ? { afterWalletWritten: async () => void (await evaluator.evaluatePending()) }
      : {}),
  })
  const scheduler = new WatchScheduler({
    schedule: mirror.schedule,
    watchState: mirror.watchState,
    engine: runtime.engine,
    cadence: async () => options.cadence,
    clock: clockReading(() => clock.nowSec()),
  })
  const wallets = sim.chain.wallets
  for (const w of wallets)
    await mirror.watchlist.add({ address: w.address, label: w.profile.id }, clock.nowSec())
  if (alerts) {
    for (const rule of alerts.rules(wallets))
      await mirror.alertRules.add(AlertRuleInput.parse(rule), clock.nowSec())
    for (const { address, tag } of alerts.tags?.(wallets) ?? []) {
      const walletId = (await mirror.writer.walletId(address)) as number
      await db.insertInto('wallet_tags').values({ wallet_id: walletId, tag }).execute()
    }
  }
  return {
    sim,
    mirror,
    db,
    runtime,
    scheduler,
    clock,
    wallets,
    credits: () => sim.credits.forKey(WATCH_KEY).total,
    async storedOf(signatures) {
      if (signatures.length === 0) return new Set()
      const rows = await db
        .selectFrom('transactions')
        .select('signature')
        .where('signature', 'in', [...signatures])
        .execute()
      return new Set(rows.map((r) => r.signature))
    },
    async firstMismatch() {
      for (const w of wallets) {
        try {
          await expectMirrorEqualsTruth(db, sim.url, w.address)
        } catch (e) {
          return `${w.profile.id} ${w.address}: ${e instanceof Error ? e.message : String(e)}`
        }
      }
      return null
    },
    async close() {
      scheduler.stop()
      await closeSyncSetting({ runtime, mirror, postgres, sim, temp })
    },
  }
}
