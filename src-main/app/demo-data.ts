import type { DemoWalletsAdded } from '@shared/ipc/watchlist-schemas'
import type { Mirror } from '../db/mirror'
import type { ProfileId } from '../simulator/chain/wallet-profiles'
import { startSimulator, type RunningSimulator } from '../simulator/simulator-server'
import type { RateSetting } from '../sync/sync-runtime'

/** The simulator seed of demo mode: every new user sees the same demo chain. */
export const DEMO_SEED = 42

/** The key the in-process simulator accepts. */
export const DEMO_KEY = 'demo'

/**
 * The demo wallets "Add demo wallets" offers. First run adds the small ones by itself, so
 * a new user sees a living app at once; the active trader (6,000 transactions) waits for
 * the button, which adds every one not already watched.
 */
export const DEMO_WALLETS: readonly { profile: ProfileId; isFirstRun: boolean }[] = [
  { profile: 'casual', isFirstRun: true },
  { profile: 'nft-collector', isFirstRun: true },
  { profile: 'compressed-holder', isFirstRun: true },
  { profile: 'failed-transactions', isFirstRun: true },
  { profile: 'active-trader', isFirstRun: false },
]

/** The addresses of every demo wallet the Add demo wallets button can add. */
export function demoWalletAddresses(simulator: RunningSimulator): string[] {
  return DEMO_WALLETS.map(({ profile }) => simulator.chain.walletByProfile(profile).address)
}

/** Profile wallets added on first run. */
export const DEMO_PROFILES: readonly ProfileId[] = DEMO_WALLETS.filter((w) => w.isFirstRun).map(
  (w) => w.profile,
)

/** Options of the demo simulator (tests stop its live activity). */
export interface DemoOptions {
  live?: boolean
  /** Unix seconds the demo chain's clock starts at (default: now). */
  nowSec?: number
  /** Told the running simulator once started (tests drive its clock and faults). */
  onStarted?: (simulator: RunningSimulator) => void
  /**
   * How the demo's calls are paced (default: as on a Developer plan, so that syncing looks
   * as it would). Tests about something other than the look of a sync pace it faster.
   */
  rate?: RateSetting
}

/** Settings key, in the demo mirror, of what demo mode remembers about itself. */
const DEMO_STATE_KEY = 'demo'

/** Starts the in-process simulator that serves demo mode, on a free loopback port. */
export async function startDemoSimulator(options: DemoOptions = {}): Promise<RunningSimulator> {
  // The demo chain leads up to now and its clock runs from now: live demo activity is
  // dated when it happens, not at the simulator's fixed default moment.
  const simulator = await startSimulator({
    seed: DEMO_SEED,
    live: options.live ?? true,
    clock: { mode: 'real', startSec: options.nowSec ?? Math.floor(Date.now() / 1000) },
  })
  options.onStarted?.(simulator)
  return simulator
}

/**
 * Adds demo wallets (labelled "Demo: …") to the demo mirror: on first run (`onlyFirstRun`)
 * the first-run ones, by itself; when asked, every demo wallet not already watched.
 * Returns what was added and which demo wallets were already there.
 */
export async function seedDemoWallets(
  demoMirror: Mirror,
  simulator: RunningSimulator,
  options: { onlyFirstRun: boolean; nowSec: number },
): Promise<DemoWalletsAdded> {
  const state = (await demoMirror.settings.read(DEMO_STATE_KEY)) as
    { isSeeded?: boolean } | undefined
  const watched = new Map((await demoMirror.watchlist.list()).map((w) => [w.address, w]))
  const result: DemoWalletsAdded = { added: [], alreadyWatched: [] }
  if (options.onlyFirstRun && (state?.isSeeded === true || watched.size > 0)) return result
  for (const { profile, isFirstRun } of DEMO_WALLETS) {
    if (options.onlyFirstRun && !isFirstRun) continue
    const address = simulator.chain.walletByProfile(profile).address
    const existing = watched.get(address)
    if (existing) {
      result.alreadyWatched.push(existing)
      continue
    }
    result.added.push(
      await demoMirror.watchlist.add({ address, label: `Demo: ${profile}` }, options.nowSec),
    )
  }
  await demoMirror.settings.write(DEMO_STATE_KEY, { isSeeded: true }, options.nowSec)
  return result
}
