import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import type { Mirror } from '../db/mirror'
import type { ProfileId } from '../simulator/chain/wallet-profiles'
import { startSimulator, type RunningSimulator } from '../simulator/simulator-server'

/** The simulator seed of demo mode: every new user sees the same demo chain. */
const DEMO_SEED = 42

/** The key the in-process simulator accepts. */
export const DEMO_KEY = 'demo'

/** Profile wallets offered on first run, so a new user sees a living app at once. */
export const DEMO_PROFILES: readonly ProfileId[] = [
  'casual',
  'nft-collector',
  'compressed-holder',
  'failed-transactions',
]

/** Options of the demo simulator (tests stop its live activity). */
export interface DemoOptions {
  live?: boolean
  /** Unix seconds the demo chain's clock starts at (default: now). */
  nowSec?: number
  /** Told the running simulator once started (tests drive its clock and faults). */
  onStarted?: (simulator: RunningSimulator) => void
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
 * Adds the demo profile wallets (labelled "Demo: …") to the demo mirror. On first run this
 * happens by itself (`onlyFirstRun`), later only when asked. Returns the wallets added.
 */
export async function seedDemoWallets(
  demoMirror: Mirror,
  simulator: RunningSimulator,
  options: { onlyFirstRun: boolean; nowSec: number },
): Promise<WatchedWallet[]> {
  const state = (await demoMirror.settings.read(DEMO_STATE_KEY)) as
    { isSeeded?: boolean } | undefined
  const known = new Set((await demoMirror.watchlist.list()).map((w) => w.address))
  if (options.onlyFirstRun && (state?.isSeeded === true || known.size > 0)) return []
  const added: WatchedWallet[] = []
  for (const profile of DEMO_PROFILES) {
    const address = simulator.chain.walletByProfile(profile).address
    if (known.has(address)) continue
    added.push(
      await demoMirror.watchlist.add({ address, label: `Demo: ${profile}` }, options.nowSec),
    )
  }
  await demoMirror.settings.write(DEMO_STATE_KEY, { isSeeded: true }, options.nowSec)
  return added
}
