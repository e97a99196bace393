// The simulator's clock. In `real` mode it runs with wall time from its start; in `manual`
// mode it moves only when told (POST /__sim/clock), so tests of retries and live activity
// never sleep.

/** 2026-11-01T00:00:00Z: the default moment the synthetic histories lead up to. */
const DEFAULT_GENESIS_SEC = 1_793_491_200

/** Slot at the genesis moment, and Solana's ~400 ms slots (2.5 per second). */
const GENESIS_SLOT = 380_000_000
const SLOTS_PER_SECOND = 2.5

export interface ClockOptions {
  /** Unix seconds the clock starts at (default DEFAULT_GENESIS_SEC). */
  startSec?: number
  /** `manual` (default for tests via options) or `real`. */
  mode?: 'real' | 'manual'
}

export class SimClock {
  readonly genesisSec: number
  readonly mode: 'real' | 'manual'
  private offsetSec = 0
  private readonly wallStartMs = Date.now()
  private readonly listeners = new Set<(nowSec: number) => void>()

  constructor(options: ClockOptions = {}) {
    this.genesisSec = Math.floor(options.startSec ?? DEFAULT_GENESIS_SEC)
    this.mode = options.mode ?? 'real'
  }

  /** Current Unix seconds. */
  nowSec(): number {
    const wall = this.mode === 'real' ? Math.floor((Date.now() - this.wallStartMs) / 1000) : 0
    return this.genesisSec + wall + this.offsetSec
  }

  /** Moves the clock forward by `seconds` (never backwards). */
  advance(seconds: number): number {
    this.offsetSec += Math.max(0, Math.floor(seconds))
    return this.notify()
  }

  /** Sets the clock to `sec` when that is not in the past. */
  set(sec: number): number {
    const delta = Math.floor(sec) - this.nowSec()
    if (delta > 0) this.offsetSec += delta
    return this.notify()
  }

  /** Calls `listener` after every advance or set. */
  onChange(listener: (nowSec: number) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private notify(): number {
    const now = this.nowSec()
    for (const l of this.listeners) l(now)
    return now
  }
}

/** The slot produced at a Unix second. */
export function slotAtSec(genesisSec: number, sec: number): number {
  return GENESIS_SLOT + Math.floor((sec - genesisSec) * SLOTS_PER_SECOND)
}
