import PQueue from 'p-queue'
import { ENDPOINT_CLASSES, type EndpointClass } from '@shared/api/prices'
import { InvalidResponseError, RateLimitedError } from '../service/service-errors'
import { AdaptivePacer } from './adaptive-pacer'
import { systemClock, type Clock } from '@shared/clock'
import {
  backoffDelayMs,
  classifyFailure,
  DEFAULT_RETRY_LIMITS,
  UnreadableAnswerError,
  type RetryLimits,
} from './retry-policy'

/** Raised when a call kept finding the network down; the scheduler tries again later. */
export class OfflineError extends Error {
  override name = 'OfflineError'
  constructor(cause: unknown) {
    super('The data service cannot be reached (offline); will try again later.', { cause })
  }
}

export interface RateShaperOptions {
  /** Requests per second per endpoint class; Infinity for no pacing (the simulator with limits off). */
  rpsByClass: Record<EndpointClass, number>
  /** Calls in flight per class at once. */
  concurrencyPerClass?: number
  retry?: Partial<RetryLimits>
  random?: () => number
  /** Time for pacing and backoff (the system clock unless a test drives it). */
  clock?: Clock
  /** Told when the network goes down or comes back, for the "offline" indicator. */
  onNetworkState?: (state: 'online' | 'offline') => void
  /** Told about each retry, so progress can say "rate-limited, waiting". */
  onRetry?: (info: {
    endpointClass: EndpointClass
    attempt: number
    reason: string
    delayMs: number
  }) => void
}

/**
 * Runs every service call of the sync engine: one p-queue per endpoint class (wallet REST
 * and DAS share "das-enhanced": docs/service.md, Rate limits), each paced by an AIMD pacer
 * at most at the plan's rate, with bounded, jittered retries.
 */
export class RateShaper {
  readonly #queues = new Map<EndpointClass, PQueue>()
  readonly #pacers = new Map<EndpointClass, AdaptivePacer>()
  readonly #limits: RetryLimits
  readonly #options: RateShaperOptions
  readonly #clock: Clock
  #offline = false

  constructor(options: RateShaperOptions) {
    this.#options = options
    this.#clock = options.clock ?? systemClock
    this.#limits = { ...DEFAULT_RETRY_LIMITS, ...options.retry }
    for (const endpointClass of ENDPOINT_CLASSES) {
      const rps = options.rpsByClass[endpointClass]
      this.#pacers.set(endpointClass, new AdaptivePacer(rps, this.#clock))
      const concurrency =
        options.concurrencyPerClass ??
        Math.max(1, Math.min(8, Math.ceil(Number.isFinite(rps) ? rps : 8)))
      this.#queues.set(endpointClass, new PQueue({ concurrency }))
    }
  }

  /** The current allowed rate of a class (drops after 429s, recovers with successes). */
  currentRps(endpointClass: EndpointClass): number {
    return this.#pacer(endpointClass).rps
  }

  /**
   * Calls of a class waiting to start: queued behind the class's concurrency or waiting
   * for the pacer's next slot. Above zero, the class's rate (not the work) is the limit.
   */
  waitingCalls(endpointClass: EndpointClass): number {
    const queue = this.#queues.get(endpointClass) as PQueue
    return queue.size + this.#pacer(endpointClass).waitingCount
  }

  /** Whether the last calls found the network down. */
  get isOffline(): boolean {
    return this.#offline
  }

  /**
   * Runs `call` in its class's queue, paced and retried. Resolves with its result, or
   * rejects with the final error (OfflineError when the network stayed down).
   */
  async run<T>(
    endpointClass: EndpointClass,
    call: (signal?: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const queue = this.#queues.get(endpointClass) as PQueue
    return queue.add(() => this.#runWithRetries(endpointClass, call, signal), {
      signal,
    }) as Promise<T>
  }

  async #runWithRetries<T>(
    endpointClass: EndpointClass,
    call: (signal?: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const pacer = this.#pacer(endpointClass)
    const attempts = { 'rate-limited': 0, transient: 0, unreadable: 0, offline: 0 }
    for (;;) {
      const start = await pacer.waitForSlot(signal)
      try {
        const result = await call(signal).finally(() => start.finished())
        pacer.onSuccess()
        this.#setOffline(false)
        return result
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error
        const kind = classifyFailure(error)
        if (kind === 'final') throw error
        attempts[kind] += 1
        const limit = {
          'rate-limited': this.#limits.rateLimitedAttempts,
          offline: this.#limits.offlineAttempts,
          unreadable: this.#limits.unreadableAttempts,
          transient: this.#limits.transientAttempts,
        }[kind]
        if (kind === 'offline') this.#setOffline(true)
        if (attempts[kind] >= limit)
          throw kind === 'offline'
            ? new OfflineError(error)
            : kind === 'unreadable' && error instanceof InvalidResponseError
              ? new UnreadableAnswerError(error, attempts[kind])
              : error
        let delayMs = backoffDelayMs(attempts[kind], this.#limits, this.#options.random)
        if (kind === 'rate-limited') {
          const retryAfterMs = error instanceof RateLimitedError ? error.retryAfterMs : undefined
          pacer.onRateLimited(retryAfterMs)
          // The pacer now holds the whole class back for Retry-After; no extra wait needed.
          delayMs = retryAfterMs === undefined ? delayMs : 0
        }
        this.#options.onRetry?.({ endpointClass, attempt: attempts[kind], reason: kind, delayMs })
        if (delayMs > 0) await this.#clock.sleep(delayMs, signal)
      }
    }
  }

  #pacer(endpointClass: EndpointClass): AdaptivePacer {
    return this.#pacers.get(endpointClass) as AdaptivePacer
  }

  #setOffline(offline: boolean): void {
    if (this.#offline === offline) return
    this.#offline = offline
    this.#options.onNetworkState?.(offline ? 'offline' : 'online')
  }
}
