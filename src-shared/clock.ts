/**
 * The one source of time for everything that waits: pacing, scheduling, backoff, leases,
 * webhook mode and the watch loop. The app runs on {@link systemClock}; tests and
 * benchmarks pass a virtual clock (test/helpers/virtual-clock.ts) and advance it, so an
 * hour of watching takes milliseconds and its timing is the same on every run.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch: what the mirror stamps and budgets count by. */
  nowMs(): number
  /**
   * Milliseconds on a steady scale for measuring intervals (pacing): unlike the wall
   * time, it never jumps when the system's time is set.
   */
  elapsedMs(): number
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
export function sleepOn(
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
  elapsedMs: () => performance.now(),
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
