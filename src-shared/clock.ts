/**
 * The one source of time for everything that waits: pacing, scheduling, backoff, leases,
 * webhook mode and the watch loop. The app runs on {@link systemClock}; tests and
 * benchmarks pass a {@link VirtualClock} and advance it, so an hour of watching takes
 * milliseconds and its timing is the same on every run.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  nowMs(): number
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /**
   * Runs `run` once after `ms`; returns what cancels it. `keepsAlive: false` lets the
   * process exit while it waits (Node's `unref`).
   */
  setTimeout(run: () => void, ms: number, options?: TimerOptions): Cancel
  /** Runs `run` every `ms` until cancelled. */
  setInterval(run: () => void, ms: number, options?: TimerOptions): Cancel
}

export interface TimerOptions {
  /** False: the timer alone does not keep the process running (default true). */
  keepsAlive?: boolean
}

/** Cancels a timer; calling it again does nothing. */
export type Cancel = () => void

/** Whole seconds since the Unix epoch on `clock`: the unit the mirror stores. */
export function nowSec(clock: Clock): number {
  return Math.floor(clock.nowMs() / 1000)
}

function unrefUnless(keepsAlive: boolean | undefined, timer: unknown): void {
  if (keepsAlive === false) (timer as { unref?: () => void }).unref?.()
}

/** Sleeps on `schedule` (a clock's setTimeout), cancelled by `signal`. */
function sleepOn(
  schedule: (run: () => void, ms: number) => Cancel,
  ms: number,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = (): void => {
      cancel()
      reject(signal?.reason)
    }
    const cancel = schedule(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** Real time: `Date.now` and the runtime's timers. */
export const systemClock: Clock = {
  nowMs: () => Date.now(),
  sleep(ms, signal) {
    return sleepOn((run, delay) => systemClock.setTimeout(run, delay), ms, signal)
  },
  setTimeout(run, ms, options) {
    const timer = globalThis.setTimeout(run, ms)
    unrefUnless(options?.keepsAlive, timer)
    return () => globalThis.clearTimeout(timer)
  },
  setInterval(run, ms, options) {
    const timer = globalThis.setInterval(run, ms)
    unrefUnless(options?.keepsAlive, timer)
    return () => globalThis.clearInterval(timer)
  },
}

interface VirtualTimer {
  id: number
  atMs: number
  everyMs: number | null
  run: () => void
}

/**
 * Time that moves only when told: {@link VirtualClock.advance} runs every timer that falls
 * due on the way, in order, letting promises settle between them, so code that sleeps,
 * polls or backs off behaves as it would over that span of real time.
 *
 * @example
 * const clock = new VirtualClock(Date.parse('2026-11-01T00:00:00Z'))
 * const scheduler = new WatchScheduler({ clock, ... })
 * await clock.advance(60 * 60_000) // an hour of watching, at once
 */
export class VirtualClock implements Clock {
  #nowMs: number
  #nextId = 1
  #timers = new Map<number, VirtualTimer>()

  constructor(startMs = Date.now()) {
    this.#nowMs = startMs
  }

  nowMs(): number {
    return this.#nowMs
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn((run, delay) => this.setTimeout(run, delay), ms, signal)
  }

  setTimeout(run: () => void, ms: number): Cancel {
    return this.#add(run, ms, null)
  }

  setInterval(run: () => void, ms: number): Cancel {
    return this.#add(run, ms, Math.max(1, ms))
  }

  /** How many timers are waiting. */
  get pendingTimers(): number {
    return this.#timers.size
  }

  /**
   * Moves time forward by `ms`, running each timer that falls due in order, with real
   * turns of the event loop between them so that the work they start can reach its next
   * wait. Resolves at the new time.
   */
  async advance(ms: number): Promise<void> {
    const endMs = this.#nowMs + Math.max(0, ms)
    await settle()
    for (;;) {
      const next = this.#nextDue(endMs)
      if (next === undefined) break
      this.#nowMs = Math.max(this.#nowMs, next.atMs)
      if (next.everyMs === null) this.#timers.delete(next.id)
      else next.atMs += next.everyMs
      next.run()
      await settle()
    }
    this.#nowMs = endMs
    await settle()
  }

  /**
   * Advances in `stepMs` steps until `condition` holds; rejects after `limitMs` of
   * virtual time. For waits on work that also does real I/O between timers.
   */
  async advanceUntil(condition: () => boolean, stepMs: number, limitMs: number): Promise<void> {
    const startMs = this.#nowMs
    while (!condition()) {
      if (this.#nowMs - startMs >= limitMs)
        throw new Error(`not within ${limitMs} ms of virtual time`)
      await this.advance(stepMs)
    }
  }

  #add(run: () => void, ms: number, everyMs: number | null): Cancel {
    const id = this.#nextId++
    this.#timers.set(id, { id, atMs: this.#nowMs + Math.max(0, ms), everyMs, run })
    return () => {
      this.#timers.delete(id)
    }
  }

  #nextDue(endMs: number): VirtualTimer | undefined {
    let next: VirtualTimer | undefined
    for (const timer of this.#timers.values())
      if (timer.atMs <= endMs && (next === undefined || timer.atMs < next.atMs)) next = timer
    return next
  }
}

/** Lets pending promise callbacks and already-due I/O callbacks run. */
function settle(): Promise<void> {
  return new Promise((resolve) => globalThis.setImmediate(resolve))
}
