import { join } from 'node:path'
import type { OpenDatabase } from '../../../src-main/db/sqlite/database'
import { openPostgresMirror, type PostgresMirror } from '../../../src-main/db/postgres/mirror'
import { openSqliteMirror, type SqliteMirror } from '../../../src-main/db/sqlite/mirror'
import { singleOriginServiceSettings } from '../../../src-main/service/service-settings'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import type { ProfileId } from '../../../src-main/simulator/chain/wallet-profiles'
import { createSyncRuntime } from '../../../src-main/sync/sync-runtime'
import { createTestDatabase } from '../../helpers/postgres'
import { FAST_RETRIES, type TestEngine } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'
import { clockReading } from '../../helpers/clocks'

/** The simulator seed every export golden file is made from. */
export const GOLDEN_SEED = 7

export interface SyncedMirror {
  sim: RunningSimulator
  /** The SQLite file (SQLite mirrors only). */
  database: OpenDatabase
  /** The mirror itself (its export reader is what the app exports from). */
  mirror: SqliteMirror | PostgresMirror
  /** The PostgreSQL database holding the mirror, for a core opened on it (PostgreSQL only). */
  databaseUrl?: string
  /** Profile id → wallet address. */
  addresses: Map<string, string>
  dir: string
  stop(): Promise<void>
}

/**
 * A mirror filled by a real sync from the simulator with a fixed seed and a stopped clock
 * (manual mode, snapshots stamped with the simulator's time), so every export of it is
 * the same byte for byte on every run and machine.
 */
export async function syncedMirror(
  profiles: readonly ProfileId[],
  seed = GOLDEN_SEED,
  engine: TestEngine = 'sqlite',
): Promise<SyncedMirror> {
  const temp = makeTempDir('heliograph-export-')
  const sim = await startSimulator({ seed, clock: { mode: 'manual' } })
  const postgres = engine === 'postgres' ? await createTestDatabase() : null
  const mirror = postgres
    ? await openPostgresMirror(postgres.url)
    : await openSqliteMirror(join(temp.dir, 'heliograph.sqlite'))
  const runtime = createSyncRuntime({
    mirror,
    service: singleOriginServiceSettings(sim.url, 'demo', { timeoutMs: 5_000 }),
    rate: 'off',
    budget: async () => ({ dailyCredits: null, monthlyCredits: null }),
    retry: FAST_RETRIES,
    clock: clockReading(() => sim.chain.clock.nowSec()),
  })
  const addresses = new Map<string, string>()
  for (const profile of profiles) {
    const { address } = sim.chain.walletByProfile(profile)
    await mirror.watchlist.add({ address, label: profile }, 1_700_000_000)
    const outcome = await runtime.engine.syncWallet(address)
    if (outcome.state !== 'ok')
      throw new Error(`Sync of ${profile} ended ${JSON.stringify(outcome)}`)
    addresses.set(profile, address)
  }
  return {
    sim,
    get database(): OpenDatabase {
      if (mirror.engine !== 'sqlite') throw new Error('This mirror is on PostgreSQL')
      return mirror.database
    },
    mirror,
    ...(postgres ? { databaseUrl: postgres.url } : {}),
    addresses,
    dir: temp.dir,
    async stop() {
      runtime.engine.cancel()
      await mirror.close()
      await postgres?.drop()
      await sim.close()
      temp.remove()
    },
  }
}
