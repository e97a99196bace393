import { nowSec as clockNowSec, type Cancel } from '@shared/clock'
import { ChannelLane, type DeliveryPlaces, type LaneContext } from './channel-lane'

export { sendToChannel, type DesktopNotifier } from './channel-lane'

/** How often the outbox is looked at, besides pokes. */
export const DELIVERY_POLL_MS = 2000

export interface AlertDelivererOptions extends DeliveryPlaces {
  /** For the retries' jitter; tests pass a fixed one. */
  random?: () => number
}

/**
 * Drains the alert outbox to its channels, each channel on a lane of its own
 * (channel-lane.ts): its own queue, pacing, backoff and Retry-After, so one slow or failing
 * receiver delays only itself. A delivery is marked delivered only after the receiver's
 * 2xx, so a process killed at any point sends it again after its restart: outside the app
 * at least once, with the same idempotency key; the desktop once.
 */
export class AlertDeliverer {
  readonly #o: AlertDelivererOptions
  readonly #lanes = new Map<string, ChannelLane>()
  readonly #stopping = new AbortController()
  readonly #context: LaneContext
  #isStarted = false
  #timer: Cancel | null = null

  constructor(options: AlertDelivererOptions) {
    this.#o = options
    this.#context = {
      ...options,
      random: options.random ?? Math.random,
      signal: this.#stopping.signal,
      isStarted: () => this.#isStarted && !this.#stopping.signal.aborted,
    }
  }

  /** Delivers what is due now (what a killed process left too), then looks again every {@link DELIVERY_POLL_MS}. */
  start(): void {
    if (this.#isStarted || this.#stopping.signal.aborted) return
    this.#isStarted = true
    this.#tick()
  }

  #tick(): void {
    void this.#wakeLanes()
      .catch(() => {
        // A storage failure here is the mirror's, reported where it is used; try again later.
      })
      .finally(() => {
        if (!this.#context.isStarted()) return
        this.#timer = this.#o.clock.setTimeout(() => this.#tick(), DELIVERY_POLL_MS, {
          keepsAlive: false,
        })
      })
  }

  /** Looks at the outbox now (an alert was just written). */
  poke(): void {
    if (!this.#context.isStarted()) return
    this.#timer?.()
    this.#tick()
  }

  /** Stops looking, cuts the sends under way (they are sent again later) and waits for the lanes. */
  async stop(): Promise<void> {
    this.#stopping.abort(new Error('stopped'))
    this.#timer?.()
    this.#timer = null
    await Promise.all([...this.#lanes.values()].map((lane) => lane.stop()))
  }

  /**
   * Sends everything due now and resolves once every lane has: a channel that must wait
   * (its backoff, a Retry-After) is left for later, a channel's pacing is waited out.
   */
  async drain(): Promise<void> {
    await Promise.all(await this.#wakeLanes())
  }

  /** Starts a run of each channel with something due; resolves to those runs. */
  async #wakeLanes(): Promise<Promise<void>[]> {
    if (this.#stopping.signal.aborted) return []
    const channels = await this.#o.outbox().dueChannels(clockNowSec(this.#o.clock))
    return channels.map((name) => {
      let lane = this.#lanes.get(name)
      if (lane === undefined) this.#lanes.set(name, (lane = new ChannelLane(name, this.#context)))
      return lane.run().catch(() => {
        // As above: the mirror's failure; the lane runs again at the next look.
      })
    })
  }
}
