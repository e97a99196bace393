/**
 * Spaces request starts for one endpoint class so they never exceed the allowed rate, and
 * adapts that rate AIMD-style: halve on a 429, creep back up on success. Also holds
 * everyone back while the service's Retry-After runs.
 */
export class AdaptivePacer {
  /** The ceiling: the plan's (or the user's) requests per second. Infinity = unpaced. */
  readonly maxRps: number
  #rps: number
  #nextStartMs = 0
  /** No start before this (the service's Retry-After). */
  #holdUntilMs = 0
  #waiting = 0
  #now: () => number

  constructor(maxRps: number, now: () => number = Date.now) {
    this.maxRps = maxRps
    this.#rps = maxRps
    this.#now = now
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
   * aborts). Slots are handed out in call order, each 1/rps after the previous.
   */
  async waitForSlot(signal?: AbortSignal): Promise<void> {
    this.#waiting += 1
    try {
      await this.#waitForSlot(signal)
    } finally {
      this.#waiting -= 1
    }
  }

  async #waitForSlot(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const holdAtReservation = this.#holdUntilMs
      const now = this.#now()
      const start = Math.max(now, this.#nextStartMs)
      this.#nextStartMs = Number.isFinite(this.#rps) ? start + 1000 / this.#rps : start
      const delay = start - now
      if (delay > 0) await sleep(delay, signal)
      // Retry-After is for every call: a 429 that came while this start waited for its
      // slot holds it back too, behind the hold (unit test "already waiting").
      if (this.#holdUntilMs === holdAtReservation || this.#now() >= this.#holdUntilMs) return
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

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
