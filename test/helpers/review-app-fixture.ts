import { resolve } from 'node:path'
import type { Channel, ChannelInput, ChannelOutput } from '../../src-shared/ipc/contract'
import { createCore, type Core } from '../../src-main/app/core'
import { DEMO_PROFILES } from '../../src-main/app/demo-data'
import { demoDatabasePath } from '../../src-main/app/data-dir'
import type { ProfileId } from '../../src-main/simulator/chain/wallet-profiles'
import type { RunningSimulator } from '../../src-main/simulator/simulator-server'
import { startWebShell, type RunningWebShell } from '../../src-main/shell/web/web-shell'
import type { RateSetting } from '../../src-main/sync/sync-runtime'
import { makeTempDir } from './temp-dir'
import { BUILT_RENDERER_DIR, TEST_DEMO_RATE } from './web-shell-fixture'
import { clockReading } from './clocks'

export { DEMO_PROFILES }

/**
 * The review app as a person meets it: the core on a fresh data folder in demo mode (it
 * runs the simulator in-process, seeds the demo wallets and syncs them by itself), served
 * by the web shell.
 */
export interface ReviewApp {
  core: Core
  shell: RunningWebShell
  /** The demo mirror's file, for reading what was stored. */
  demoDatabasePath: string
  /** The address of a simulator profile wallet. */
  profileAddress(profile: ProfileId): string
  /** Puts a simulator profile wallet on the watchlist (the core starts its sync). */
  watchProfile(profile: ProfileId, label: string): Promise<string>
  /** Appends new transactions to a profile wallet on the demo chain, dated now. */
  addActivity(profile: ProfileId, count: number): void
  /** Runs a channel on the core; its error is thrown. */
  call<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>>
  /** Moves the app's clock (what it stamps snapshots with) `sec` ahead of the machine's. */
  advanceClock(sec: number): void
  /** The demo simulator's base URL (its answers are the truth the views are checked against). */
  simulatorUrl(): string
  /** Stops the simulator: the service is then unreachable. */
  stopService(): Promise<void>
  stop(): Promise<void>
}

export async function startReviewApp(
  options: {
    /**
     * How the demo's calls are paced: {@link TEST_DEMO_RATE} unless given. A file about how
     * syncing looks passes 'developer', the app's own pace.
     */
    demoRate?: RateSetting
  } = {},
): Promise<ReviewApp> {
  const temp = makeTempDir('heliograph-e2e-')
  let simulator: RunningSimulator | null = null
  let clockAheadSec = 0
  const core = await createCore({
    clock: clockReading(() => Math.floor(Date.now() / 1000) + clockAheadSec),
    dataDir: temp.dir,
    shell: 'web',
    version: 'test',
    isWatching: true,
    // Live activity off: screenshots and counts stay put while the tests look.
    demo: {
      live: false,
      onStarted: (started) => (simulator = started),
      rate: options.demoRate ?? TEST_DEMO_RATE,
    },
  })
  const shell = await startWebShell({ core, rendererDir: resolve(BUILT_RENDERER_DIR) })

  function profileAddress(profile: ProfileId): string {
    const running = simulator
    if (!running) throw new Error('No simulator is running to take profile wallets from.')
    return running.chain.walletByProfile(profile).address
  }

  return {
    core,
    shell,
    demoDatabasePath: demoDatabasePath(temp.dir),
    profileAddress,
    async watchProfile(profile, label) {
      const address = profileAddress(profile)
      const added = await core.dispatch('watchlist:add', { address, label })
      if (!added.ok) throw new Error(added.error.message)
      return address
    },
    simulatorUrl() {
      const running = simulator
      if (!running) throw new Error('No simulator is running.')
      return running.url
    },
    addActivity(profile, count) {
      const running = simulator
      if (!running) throw new Error('No simulator is running to add activity to.')
      running.addActivity(running.chain.walletByProfile(profile), count)
    },
    async call(channel, input) {
      const answer = await core.dispatch(channel, input)
      if (!answer.ok) throw new Error(answer.error.message)
      return answer.result as never
    },
    advanceClock(sec) {
      clockAheadSec += sec
    },
    async stopService() {
      await simulator?.close()
    },
    async stop() {
      await shell.close()
      await core.close()
      temp.remove()
    },
  }
}
