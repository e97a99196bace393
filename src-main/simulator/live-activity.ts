import type { SimChain, SimWallet, TxView } from './chain/sim-chain'
import { hash32 } from './chain/prng'

// Live mode: chosen wallets receive new transactions as the simulator's clock moves. Two
// paces: one every `everySec` simulated seconds (the profile's pace by default), or
// `perDay` on average at random times (exponential gaps drawn from the seed, so a run is
// the same for the same seed and start). A clock jump appends everything that came due in
// one go; random-time transactions carry the moments they came due.

/** Most transactions one wallet gains in a single tick, so a large clock jump stays cheap. */
const MAX_PER_TICK = 1_000

const SECONDS_PER_DAY = 86_400

/** How often a wallet transacts: a fixed period, or a daily rate at random times. */
export type LivePace = { everySec?: number; perDay?: undefined } | { perDay: number }

interface LiveWalletState {
  address: string
  profile: string
  /** Seconds between transactions (fixed pace), or null at random times. */
  everySec: number | null
  /** Average transactions a day (random times), or null at a fixed pace. */
  perDay: number | null
  nextDueSec: number
}

interface RunningWallet extends LiveWalletState {
  /** Draws made so far (random times): the next gap is keyed by it. */
  draws: number
}

export class LiveActivity {
  private readonly running = new Map<number, RunningWallet>()

  constructor(
    private readonly chain: SimChain,
    private readonly onAppend: (wallet: SimWallet, txs: TxView[]) => void,
  ) {}

  /** Starts (or restarts) live mode for `wallets` at a pace, from the clock's current time. */
  start(wallets: readonly SimWallet[], pace: LivePace = {}): void {
    const now = this.chain.clock.nowSec()
    for (const wallet of wallets) {
      const base = { address: wallet.address, profile: wallet.profile.id, draws: 0 }
      if (pace.perDay !== undefined) {
        const state: RunningWallet = {
          ...base,
          everySec: null,
          perDay: pace.perDay,
          nextDueSec: now,
        }
        state.nextDueSec = now + this.randomGap(wallet, state)
        this.running.set(wallet.id, state)
      } else {
        const every = Math.max(1, Math.floor(pace.everySec ?? wallet.profile.liveEverySec))
        this.running.set(wallet.id, {
          ...base,
          everySec: every,
          perDay: null,
          nextDueSec: now + every,
        })
      }
    }
  }

  stop(wallets?: readonly SimWallet[]): void {
    if (!wallets) this.running.clear()
    else for (const w of wallets) this.running.delete(w.id)
  }

  state(): LiveWalletState[] {
    return [...this.running.values()].map(({ draws: _, ...s }) => ({ ...s }))
  }

  /** Seconds to the next random-time transaction: exponential with mean one day / perDay. */
  private randomGap(wallet: SimWallet, state: RunningWallet): number {
    const u = hash32(this.chain.seed, 0x11fe, wallet.id, state.draws++) / 2 ** 32
    const meanSec = SECONDS_PER_DAY / (state.perDay ?? 1)
    return Math.max(1, Math.round(-Math.log(1 - u) * meanSec))
  }

  private nextGap(wallet: SimWallet, state: RunningWallet): number {
    return state.everySec ?? this.randomGap(wallet, state)
  }

  /** Appends every transaction that has come due by `nowSec`. */
  tick(nowSec: number): void {
    for (const [walletId, state] of this.running) {
      const wallet = this.chain.walletById(walletId)
      if (!wallet) continue
      const dueAt: number[] = []
      while (state.nextDueSec <= nowSec && dueAt.length < MAX_PER_TICK) {
        dueAt.push(state.nextDueSec)
        state.nextDueSec += this.nextGap(wallet, state)
      }
      if (state.nextDueSec <= nowSec) state.nextDueSec = nowSec + this.nextGap(wallet, state)
      if (dueAt.length === 0) continue
      // A fixed pace stamps with the clock (as it always has); random times keep their moments.
      const txs =
        state.perDay === null
          ? this.chain.appendActivity(wallet, dueAt.length)
          : this.chain.appendActivity(wallet, dueAt.length, dueAt)
      this.onAppend(wallet, txs)
    }
  }
}

/**
 * Starts the default live activity of a chain: with no pace, the population's own plan
 * (watch-day: its active wallets at their daily rates) or, when it has none, every wallet
 * but the whale and the empty one at its profile's pace; with a pace, the same wallets at
 * that pace.
 */
export function startDefaultLive(live: LiveActivity, chain: SimChain, pace?: LivePace): void {
  const plan = chain.population.live
  if (plan.length > 0) {
    for (const entry of plan) {
      const wallet = chain.walletById(entry.walletId)
      if (wallet) live.start([wallet], pace ?? { perDay: entry.perDay })
    }
    return
  }
  live.start(
    chain.wallets.filter((w) => w.profile.id !== 'whale' && w.profile.id !== 'empty'),
    pace,
  )
}
