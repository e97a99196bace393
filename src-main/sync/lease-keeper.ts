import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { systemClock, type Clock, type Cancel } from '@shared/clock'
import type { SyncLeaseStore } from '../db/stores/sync-lease-store'

/**
 * The lease a keeper holds on itself, so that the others count a worker that holds no
 * wallet yet (one just started) and give up their surplus. `:` never occurs in a wallet
 * address (base58), so these keys cannot meet a wallet's.
 */
const PRESENCE_PREFIX = 'worker:'

/** How a keeper is set up. */
export interface LeaseKeeperOptions {
  store: SyncLeaseStore
  /** This worker's name among the holders; {@link newLeaseHolder} by default. */
  holder?: string
  /** How long a lease lasts unrenewed: how long a dead worker's wallets wait. */
  ttlMs: number
  /** How often the timer renews and rebalances; a third of `ttlMs` by default. */
  renewEveryMs?: number
  /** The addresses to share out (the watchlist); {@link LeaseKeeper.setWatched} changes it. */
  watched: readonly string[]
  /** Time and the renewal timer; every worker's clock must roughly agree (well within ttlMs). */
  clock?: Clock
  /** Told when a round fails (the database unreachable); the timer keeps going. */
  onError?: (error: unknown) => void
}

/** A lease of 30 s, renewed every 10 s: a dead worker's wallets wait at most that long. */
export const DEFAULT_LEASE_TTL_MS = 30_000

/** A holder name that is unique to this worker: host:pid:random. */
export function newLeaseHolder(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
}

/**
 * Keeps this sync worker's fair share of the watched wallets leased: each round counts
 * the live holders (those with a live lease, and itself), takes up to
 * ceil(wallets / holders) free or expired wallets, renews its own and gives up the
 * surplus beyond its share or no longer watched. The engine asks {@link isMine} before it
 * syncs a wallet; a lease this worker could not renew stops being its own once it expires,
 * since another worker may have taken it over by then.
 *
 * @example
 * const keeper = new LeaseKeeper({ store: mirror.leases, ttlMs: 30_000, watched })
 * await keeper.start()
 * if (keeper.isMine(address)) await engine.syncWallet(address)
 * await keeper.stop()
 */
export class LeaseKeeper {
  readonly holder: string
  readonly #o: LeaseKeeperOptions
  readonly #clock: Clock
  #watched: readonly string[]
  /** Address → when this worker's lease on it expires, as of its last round. */
  #mine = new Map<string, number>()
  #stopTimer: Cancel | null = null
  #round: Promise<void> | null = null
  #isStopped = false

  constructor(options: LeaseKeeperOptions) {
    if (!Number.isSafeInteger(options.ttlMs) || options.ttlMs <= 0)
      throw new RangeError(
        `ttlMs must be a positive whole number of milliseconds, not ${options.ttlMs}`,
      )
    this.#o = options
    this.holder = options.holder ?? newLeaseHolder()
    this.#clock = options.clock ?? systemClock
    this.#watched = [...new Set(options.watched)]
  }

  /** Runs a first round, then one every `renewEveryMs` until {@link stop}. */
  async start(): Promise<void> {
    await this.runRound()
    if (this.#isStopped || this.#stopTimer) return
    const everyMs = this.#o.renewEveryMs ?? Math.max(1, Math.floor(this.#o.ttlMs / 3))
    this.#stopTimer = this.#clock.setInterval(
      () => this.runRound().catch((error: unknown) => this.#o.onError?.(error)),
      everyMs,
      { keepsAlive: false },
    )
  }

  /** Changes the addresses shared out; the next round takes and gives up accordingly. */
  setWatched(addresses: readonly string[]): void {
    this.#watched = [...new Set(addresses)]
  }

  /**
   * One round now: renew, rebalance to the fair share, give up unwatched wallets. Rounds
   * never overlap; a call during one waits for it and runs another.
   */
  async runRound(): Promise<void> {
    while (this.#round) await this.#round.catch(() => undefined)
    if (this.#isStopped) return
    this.#round = this.#rebalance()
    try {
      await this.#round
    } finally {
      this.#round = null
    }
  }

  /**
   * This worker's share of `addresses` (the watchlist now): sets them as the watched ones,
   * runs a round and answers the addresses it holds live leases on.
   */
  async shareOf(addresses: readonly string[]): Promise<ReadonlySet<string>> {
    this.setWatched(addresses)
    await this.runRound()
    return new Set(this.mine())
  }

  /** Whether this worker holds a live lease on `address`: it may sync that wallet now. */
  isMine(address: string): boolean {
    const expiresAtMs = this.#mine.get(address)
    return expiresAtMs !== undefined && expiresAtMs > this.#clock.nowMs()
  }

  /** The watched addresses this worker holds live leases on, sorted. */
  mine(): string[] {
    return [...this.#mine.keys()].filter((address) => this.isMine(address)).sort()
  }

  /** Stops the timer and gives up every lease, so that the others take them at once. */
  async stop(): Promise<void> {
    this.#isStopped = true
    this.#stopTimer?.()
    this.#stopTimer = null
    await this.#round?.catch(() => undefined)
    this.#mine = new Map()
    await this.#o.store.release(this.holder)
  }

  async #rebalance(): Promise<void> {
    const { store, ttlMs } = this.#o
    const nowMs = this.#clock.nowMs()
    const watched = this.#watched
    await store.acquire([PRESENCE_PREFIX + this.holder], this.holder, nowMs, ttlMs, 1)
    const holders = new Set((await store.all(nowMs)).map((lease) => lease.holder))
    holders.add(this.holder)
    const share = Math.ceil(watched.length / holders.size)
    const taken = await store.acquire(watched, this.holder, nowMs, ttlMs, share)

    const watchedSet = new Set(watched)
    const unwatched = (await store.held(this.holder, nowMs)).filter(
      (address) => !watchedSet.has(address) && !address.startsWith(PRESENCE_PREFIX),
    )
    if (unwatched.length > 0) await store.release(this.holder, unwatched)
    this.#mine = new Map(taken.map((address) => [address, nowMs + ttlMs]))
  }
}
