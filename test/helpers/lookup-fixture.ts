import type { Kysely } from 'kysely'
import { createCore, type Core } from '../../src-main/app/core'
import type { Database } from '../../src-main/db/schema'
import { createServiceClient, type ServiceClient } from '../../src-main/service/service-client'
import { singleOriginServiceSettings } from '../../src-main/service/service-settings'
import { startSimulator, type RunningSimulator } from '../../src-main/simulator/simulator-server'
import { readStoredMirror, testMirror } from './stored-mirror'
import type { TestEngine } from './sync-fixture'
import { makeTempDir } from './temp-dir'
import { FastForwardClock } from './virtual-clock'

/** The key the app spends; the truth client uses another, so the counter is the app's alone. */
export const APP_KEY = 'demo'
const TRUTH_KEY = 'truth'

export interface LookupFixture {
  sim: RunningSimulator
  /** Asks the simulator directly (its own key): the answers the app must show. */
  truth: ServiceClient
  dataDir: string
  core: Core
  now: { sec: number }
  /** A channel's result, or a thrown Error with the envelope's message. */
  call<T>(channel: string, input?: unknown): Promise<T>
  /** The error message a channel answers with (fails when it answers ok). */
  failure(channel: string, input?: unknown): Promise<string>
  /**
   * Reads the core's mirror, on whichever engine holds it, through a read-only handle of
   * its own (closed after `read`), as another process would see it.
   */
  readStored<T>(read: (db: Kysely<Database>) => Promise<T>): Promise<T>
  /** Opens another core on the same folder (after closing the first). */
  reopen(): Promise<Core>
  stop(): Promise<void>
}

/**
 * A simulator over HTTP and the app's core on a fresh data folder, using the service; its
 * mirror in the folder's SQLite file (default) or in a fresh PostgreSQL database.
 */
export async function startLookupFixture(
  options: { engine?: TestEngine } = {},
): Promise<LookupFixture> {
  const sim = await startSimulator({
    seed: 7,
    live: false,
    keys: [APP_KEY, TRUTH_KEY],
    // A manual clock: the answers carry the indexer's slot, which must not move between the
    // app's call and the truth's.
    clock: { mode: 'manual' },
  })
  const temp = makeTempDir('heliograph-lookup-')
  const mirror = await testMirror(options.engine ?? 'sqlite', temp.dir)
  const now = { sec: 1_800_000_000 }
  const open = (): Promise<Core> =>
    createCore({
      ...mirror.place,
      shell: 'web',
      version: 'test',
      apiKey: APP_KEY,
      serviceUrl: sim.url,
      dataSource: 'service',
      clock: new FastForwardClock({ wallSec: () => now.sec }),
    })
  const fixture: LookupFixture = {
    sim,
    truth: createServiceClient(singleOriginServiceSettings(sim.url, TRUTH_KEY)),
    dataDir: temp.dir,
    core: await open(),
    now,
    async call<T>(channel: string, input?: unknown): Promise<T> {
      const envelope = await fixture.core.dispatch(channel, input)
      if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`)
      return envelope.result as T
    },
    async failure(channel, input) {
      const envelope = await fixture.core.dispatch(channel, input)
      if (envelope.ok) throw new Error(`${channel} answered ok`)
      return envelope.error.message
    },
    readStored: (read) => readStoredMirror(mirror.place, read),
    async reopen() {
      await fixture.core.close()
      fixture.core = await open()
      return fixture.core
    },
    async stop() {
      await fixture.core.close()
      await sim.close().catch(() => {})
      await mirror.drop()
      temp.remove()
    },
  }
  return fixture
}
