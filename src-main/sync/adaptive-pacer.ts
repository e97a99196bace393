import { systemClock, type Clock } from '@shared/clock'

/** The service counts a class's requests per one-second window whose edges a client cannot see. */
const WINDOW_MS = 1_000

/** Slack per window for the client's own jitter between a start here and the request leaving. */
export const WINDOW_SLACK_MS = 20

/**
 * How late after its start a request may be taken to have reached the service at most.
 * A request reaches the service somewhere between its start and its answer; the bench
 * "rate-limit" saw one reach it 121 ms after its start while the next ones took 2 ms, so
 * three requests of a 2/s class landed within 901 ms — a 429 whenever a one-second window
 * holds them. A slow answer counts as a late arrival up to this cap, so one slow call
 * cannot hold its class back for long.
 */
export const LATE_ARRIVAL_MAX_MS = 250

/** Answers remembered for the class's fastest one (the least a request takes to come back). */
const DURATIONS_KEPT = 32

/** One start of the pacer: tell it when the call has its answer (or failed). */
export interface PacedStart {
  finished(): void
}

interface StartRecord {
  startMs: number
  doneMs: number | null
}

/**
 * Spaces request starts for one endpoint class so they never exceed the allowed rate, and
 * adapts that rate AIMD-style: halve on a 429, creep back up on success. Also holds
 * everyone back while the service's Retry-After runs. Starts are spread evenly over a
 * window plus slack, and never more than a window's worth of them within one window plus
 * slack, counted from the latest moment each earlier request may have reached the service
 * (its real start, or for a slow answer its answer less the fastest answer seen): neither
 * a late timer nor a request slow to leave can crowd the next start into its window.
 */
export class AdaptivePacer {
  /** The ceiling: the plan's (or the user's) requests per second. Infinity = unpaced. */
  readonly maxRps: number
  #rps: number
  #nextStartMs = 0
  /** No start before this (the service's Retry-After). */
  #holdUntilMs = 0
  #waiting = 0
  /** The latest starts, oldest first (at most a window's worth). */
  readonly #starts: StartRecord[] = []
  /** How long the latest answers took, to know the fastest. */
  readonly #durationsMs: number[] = []
  readonly #clock: Clock

  constructor(maxRps: number, clock: Clock = systemClock) {
    this.maxRps = maxRps
    this.#rps = maxRps
    this.#clock = clock
  }

  /** Pacing measures intervals: the steady scale, not the wall time. */
  #now(): number {
    return this.#clock.elapsedMs()
  }

  /** The current allowed rate. */
  get rps(): number {
    return this.#rps
  }

  /** Starts waiting for their slot now: more than none means the rate, not the work, is the limit. */
  get waitingCount(): number {
    return this.#waiting
  }

  /**
   * Reserves the next start slot and resolves when it arrives (or rejects when `signal`
   * aborts). Slots are handed out in call order, each (1 s + slack)/rps after the previous.
   * Call `finished()` on the result when the call has its answer.
   */
  async waitForSlot(signal?: AbortSignal): Promise<PacedStart> {
    this.#waiting += 1
    try {
      return await this.#waitForSlot(signal)
    } finally {
      this.#waiting -= 1
    }
  }

  async #waitForSlot(signal?: AbortSignal): Promise<PacedStart> {
    let holdAtReservation = this.#holdUntilMs
    let startMs = this.#reserveSlot()
    for (;;) {
      // A timer may fire a fraction of a millisecond before its time on the steady scale:
      // wait again until the slot has truly come.
      for (let delay = startMs - this.#now(); delay > 0; delay = startMs - this.#now())
        await this.#clock.sleep(Math.ceil(delay), signal)
      if (this.#holdUntilMs !== holdAtReservation && this.#now() < this.#holdUntilMs) {
        // Retry-After is for every call: a 429 that came while this start waited for its
        // slot holds it back too, behind the hold (unit test "already waiting").
        holdAtReservation = this.#holdUntilMs
        startMs = this.#reserveSlot()
        continue
      }
      const windowFreeMs = this.#windowFreeAtMs()
      if (this.#now() < windowFreeMs) {
        // Started late, the starts before already fill the window: wait until it has room.
        startMs = windowFreeMs
        continue
      }
      // Noted before anything else runs, so the next start's window check counts it.
      return this.#noteStart(this.#now())
    }
  }

  /** Hands out the next slot, (1 s + slack)/rps after the previous one. */
  #reserveSlot(): number {
    const start = Math.max(this.#now(), this.#nextStartMs)
    this.#nextStartMs = Number.isFinite(this.#rps)
      ? start + (WINDOW_MS + WINDOW_SLACK_MS) / this.#rps
      : start
    return start
  }

  /** Starts a window (plus slack) may hold at the current rate. */
  #perWindow(): number {
    return Math.max(1, Math.floor(this.#rps))
  }

  /** The earliest time a start keeps every window (plus slack) within its share. */
  #windowFreeAtMs(): number {
    if (!Number.isFinite(this.#rps)) return 0
    const oldest = this.#starts[this.#starts.length - this.#perWindow()]
    return oldest === undefined ? 0 : this.#latestArrivalMs(oldest) + WINDOW_MS + WINDOW_SLACK_MS
  }

  /** The latest a request may have reached the service, as far as this side can tell. */
  #latestArrivalMs(start: StartRecord): number {
    const fastestMs = Math.min(...this.#durationsMs)
    const answeredMs = start.doneMs ?? this.#now()
    const latest = Number.isFinite(fastestMs) ? answeredMs - fastestMs : start.startMs
    return Math.min(start.startMs + LATE_ARRIVAL_MAX_MS, Math.max(start.startMs, latest))
  }

  #noteStart(atMs: number): PacedStart {
    const record: StartRecord = { startMs: atMs, doneMs: null }
    if (Number.isFinite(this.maxRps)) {
      this.#starts.push(record)
      if (this.#starts.length > Math.max(1, Math.floor(this.maxRps))) this.#starts.shift()
    }
    return {
      finished: () => {
        if (record.doneMs !== null) return
        record.doneMs = this.#now()
        this.#durationsMs.push(record.doneMs - record.startMs)
        if (this.#durationsMs.length > DURATIONS_KEPT) this.#durationsMs.shift()
      },
    }
  }

  /** A 429 arrived: halve the rate (not below 1/10 s) and wait out Retry-After if given. */
  onRateLimited(retryAfterMs?: number): void {
    const base = Number.isFinite(this.#rps) ? this.#rps : 50
    this.#rps = Math.max(0.1, base / 2)
    if (retryAfterMs !== undefined) {
      this.#holdUntilMs = Math.max(this.#holdUntilMs, this.#now() + retryAfterMs)
      this.#nextStartMs = Math.max(this.#nextStartMs, this.#holdUntilMs)
    }
  }

  /** A call succeeded: recover additively, 5% of the ceiling per success, up to the ceiling. */
  onSuccess(): void {
    if (this.#rps >= this.maxRps) return
    const step = Number.isFinite(this.maxRps) ? this.maxRps * 0.05 : 1
    this.#rps = Math.min(this.maxRps, this.#rps + Math.max(step, 0.05))
  }
}
