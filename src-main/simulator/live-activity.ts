import type { SimChain, SimWallet, TxView } from './chain/sim-chain'

// Live mode: chosen wallets receive new transactions as the simulator's clock moves, one
// every `everySec` simulated seconds (the profile's pace by default).

/** Most transactions one wallet gains in a single tick, so a large clock jump stays cheap. */
const MAX_PER_TICK = 1_000

interface LiveWalletState {
  address: string
  profile: string
  everySec: number
  nextDueSec: number
}

export class LiveActivity {
  private readonly running = new Map<number, LiveWalletState>()

  constructor(
    private readonly chain: SimChain,
    private readonly onAppend: (wallet: SimWallet, txs: TxView[]) => void,
  ) {}

  start(wallets: readonly SimWallet[], everySec?: number): void {
    const now = this.chain.clock.nowSec()
    for (const wallet of wallets) {
      const pace = Math.max(1, Math.floor(everySec ?? wallet.profile.liveEverySec))
      this.running.set(wallet.id, {
        address: wallet.address,
        profile: wallet.profile.id,
        everySec: pace,
        nextDueSec: now + pace,
      })
    }
  }

  stop(wallets?: readonly SimWallet[]): void {
    if (!wallets) this.running.clear()
    else for (const w of wallets) this.running.delete(w.id)
  }

  state(): LiveWalletState[] {
    return [...this.running.values()].map((s) => ({ ...s }))
  }

  /** Appends every transaction that has come due by `nowSec`. */
  tick(nowSec: number): void {
    for (const [walletId, state] of this.running) {
      const wallet = this.chain.wallets[walletId]
      if (!wallet) continue
      let due = 0
      while (state.nextDueSec <= nowSec && due < MAX_PER_TICK) {
        due++
        state.nextDueSec += state.everySec
      }
      if (state.nextDueSec <= nowSec) state.nextDueSec = nowSec + state.everySec
      if (due > 0) this.onAppend(wallet, this.chain.appendActivity(wallet, due))
    }
  }
}
