import { join } from 'node:path'
import type { Kysely } from 'kysely'
import type { OpenDatabase } from '../../src-main/db/sqlite/database'
import type { Mirror } from '../../src-main/db/mirror'
import { openPostgresMirror } from '../../src-main/db/postgres/mirror'
import type { Database } from '../../src-main/db/schema'
import {
  openSqliteMirror,
  type SqliteMirror,
  type SqliteMirrorOptions,
} from '../../src-main/db/sqlite/mirror'
import { singleOriginServiceSettings } from '../../src-main/service/service-settings'
import {
  startSimulator,
  type RunningSimulator,
  type SimulatorOptions,
} from '../../src-main/simulator/simulator-server'
import type { CreditBudget } from '../../src-main/sync/credit-meter'
import type { RetryLimits } from '../../src-main/sync/retry-policy'
import {
  createSyncRuntime,
  type RateSetting,
  type SyncRuntime,
} from '../../src-main/sync/sync-runtime'
import type { SyncEvent } from '../../src-main/sync/sync-engine'
import { createTestDatabase } from './postgres'
import { makeTempDir } from './temp-dir'
import { clockReading } from './clocks'

/** The engines a sync test can run on. */
export type TestEngine = 'sqlite' | 'postgres'

/**
 * The engines the engine-matrix suites run on, for `describe.each`: both in `npm test`;
 * the fast tier (`npm run test:fast`) sets HELIOGRAPH_TEST_ENGINES=sqlite and checks the
 * file engine alone, leaving the database server's half to the full run.
 */
export const ENGINES: readonly TestEngine[] = testEngines(process.env.HELIOGRAPH_TEST_ENGINES)

function testEngines(setting: string | undefined): TestEngine[] {
  const all: TestEngine[] = ['sqlite', 'postgres']
  if (setting === undefined || setting.trim() === '') return all
  const chosen = setting.split(',').map((e) => e.trim())
  const unknown = chosen.find((e) => !all.includes(e as TestEngine))
  if (unknown !== undefined)
    throw new Error(
      `HELIOGRAPH_TEST_ENGINES names “${unknown}”; the engines are sqlite and postgres.`,
    )
  return chosen as TestEngine[]
}

/** Retries that stay quick in tests while keeping the same policy. */
export const FAST_RETRIES: Partial<RetryLimits> = { baseDelayMs: 5, maxDelayMs: 50 }

export interface SyncFixture {
  sim: RunningSimulator
  mirror: Mirror
  /** The mirror's tables, on whichever engine holds them, for reading what was stored. */
  db: Kysely<Database>
  /** The SQLite file (SQLite fixtures only), for tests of SQLite's own behaviour. */
  database: OpenDatabase
  runtime: SyncRuntime
  events: SyncEvent[]
  budget: CreditBudget
  dataDir: string
  /** Puts a profile wallet (by profile id) on the watchlist; returns its address. */
  watch(profile: string): Promise<string>
  stop(): Promise<void>
}

/**
 * A real simulator on loopback, a real SQLite mirror in a temp folder, and the sync
 * engine between them: the setting of every sync test.
 */
export async function startSyncFixture(
  options: {
    sim?: SimulatorOptions
    rate?: RateSetting
    retry?: Partial<RetryLimits>
    budget?: CreditBudget
    /** The client's per-call timeout; small in tests of the timeout fault. */
    timeoutMs?: number
    /** Stamp what the engine stores (snapshots) with the simulator's clock, not the machine's. */
    isOnSimulatorClock?: boolean
    /** Where the mirror's page writes run (the app: a worker thread). */
    writeIn?: SqliteMirrorOptions['writeIn']
    /** The engine holding the mirror: SQLite in a temp folder (default) or a fresh PostgreSQL database. */
    engine?: TestEngine
  } = {},
): Promise<SyncFixture> {
  const temp = makeTempDir('heliograph-sync-')
  const sim = await startSimulator({ seed: 7, ...options.sim })
  const postgres = options.engine === 'postgres' ? await createTestDatabase() : null
  const mirror: SqliteMirror | Awaited<ReturnType<typeof openPostgresMirror>> = postgres
    ? await openPostgresMirror(postgres.url)
    : await openSqliteMirror(join(temp.dir, 'heliograph.sqlite'), {
        ...(options.writeIn ? { writeIn: options.writeIn } : {}),
      })
  const events: SyncEvent[] = []
  const budget: CreditBudget = options.budget ?? { dailyCredits: null, monthlyCredits: null }
  const runtime = createSyncRuntime({
    mirror,
    service: singleOriginServiceSettings(sim.url, 'demo', {
      timeoutMs: options.timeoutMs ?? 2_000,
    }),
    rate: options.rate ?? 'off',
    budget: async () => budget,
    emit: (e) => events.push(e),
    retry: { ...FAST_RETRIES, ...options.retry },
    ...(options.isOnSimulatorClock ? { clock: clockReading(() => sim.chain.clock.nowSec()) } : {}),
  })
  return {
    sim,
    mirror,
    db: mirror.database.db,
    get database(): OpenDatabase {
      if (mirror.engine !== 'sqlite') throw new Error('This fixture holds a PostgreSQL mirror')
      return mirror.database
    },
    runtime,
    events,
    budget,
    dataDir: temp.dir,
    async watch(profile) {
      const wallet = sim.chain.walletByProfile(profile as never)
      await mirror.watchlist.add({ address: wallet.address, label: profile }, 1_700_000_000)
      return wallet.address
    },
    stop: () => closeSyncSetting({ runtime, mirror, postgres, sim, temp }),
  }
}

/** Closes what a sync test set up, in order: syncs, the ledger, the mirror, its server, the simulator. */
export async function closeSyncSetting(setting: {
  runtime: SyncRuntime
  mirror: Mirror
  postgres: { drop(): Promise<void> } | null
  sim: RunningSimulator
  temp: { remove(): void }
}): Promise<void> {
  setting.runtime.engine.cancel()
  await setting.runtime.meter.idle().catch(() => {})
  await setting.mirror.close()
  await setting.postgres?.drop()
  await setting.sim.close()
  setting.temp.remove()
}
