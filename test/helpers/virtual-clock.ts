import { AsyncLocalStorage } from 'node:async_hooks'
import { setImmediate } from 'node:timers'
import { sleepOn, type Cancel, type Clock } from '../../src-shared/clock'

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

  elapsedMs(): number {
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

  /** Milliseconds until the next timer falls due, or undefined when none waits. */
  get nextDueInMs(): number | undefined {
    const next = this.#nextDue(Infinity)
    return next === undefined ? undefined : Math.max(0, next.atMs - this.#nowMs)
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
    this.#nowMs = Math.max(this.#nowMs, endMs)
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
    // As Node's own timers do, a timer runs in the async context that set it (a CLI run's
    // output, for one), not in the context of whoever advances the clock.
    const inContext = AsyncLocalStorage.snapshot()
    this.#timers.set(id, {
      id,
      atMs: this.#nowMs + Math.max(0, ms),
      everyMs,
      run: () => inContext(run),
    })
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
  return new Promise((resolve) => setImmediate(resolve))
}

/**
 * A virtual clock that moves by itself: whenever a timer waits, time jumps to it after a
 * real millisecond, so waiting (pacing, backoff, polls) costs next to no real time while
 * the work between waits (HTTP, SQLite) runs as it would. For runs that end by themselves
 * (`sync --once`, an export); a watch that runs on intervals wants a {@link VirtualClock}
 * the test advances, or its rounds would race ahead. {@link stop} ends the jumping.
 *
 * @example
 * const clock = new FastForwardClock()
 * await runCli([...base, 'balance-at', address, '--date', date], { clock })
 * clock.stop()
 */
export class FastForwardClock extends VirtualClock {
  #isPumping = false
  #isStopped = false
  readonly #wallSec: (() => number) | undefined

  /**
   * `wallSec`: the wall time to read instead of the virtual one (a fixed moment a test
   * moves by hand), while waits still jump on the virtual scale.
   */
  constructor(options: { startMs?: number; wallSec?: () => number } = {}) {
    super(options.startMs)
    this.#wallSec = options.wallSec
  }

  override nowMs(): number {
    return this.#wallSec === undefined ? super.nowMs() : this.#wallSec() * 1000
  }

  override setTimeout(run: () => void, ms: number): Cancel {
    const cancel = super.setTimeout(run, ms)
    this.#pump()
    return cancel
  }

  override setInterval(run: () => void, ms: number): Cancel {
    const cancel = super.setInterval(run, ms)
    this.#pump()
    return cancel
  }

  /** Stops moving by itself; timers still waiting then run only when advanced. */
  stop(): void {
    this.#isStopped = true
  }

  /** Moves by itself again after {@link stop}. */
  resume(): void {
    this.#isStopped = false
    if (this.pendingTimers > 0) this.#pump()
  }

  #pump(): void {
    if (this.#isPumping || this.#isStopped) return
    this.#isPumping = true
    const tick = globalThis.setTimeout(() => {
      const dueInMs = this.nextDueInMs
      if (dueInMs === undefined || this.#isStopped) {
        this.#isPumping = false
        return
      }
      void this.advance(dueInMs).then(() => {
        this.#isPumping = false
        if (this.pendingTimers > 0) this.#pump()
      })
    }, 1)
    tick.unref()
  }
}
