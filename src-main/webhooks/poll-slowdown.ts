import type { Mirror } from '../db/mirror'
import type { WatchMode } from '../db/stores/webhook-delivery-store'
import type { WatchScheduler } from '../sync/watch-scheduler'

export interface PollSlowdownDeps {
  mirror: Pick<Mirror, 'webhookDeliveries'>
  /** The balance probe's scheduler; null when not watching. */
  scheduler: WatchScheduler | null
  /** The probe's floor while deliveries are trusted. */
  slowCheckEverySec: number
  /** Whether a delivery since `sinceSec` named `address`: its change is not synced twice. */
  isDeliveredSince: (address: string, sinceSec: number) => boolean
  /** Told when the probe finds a change no delivery named. */
  onUnexplained: () => void
  nowSec: () => number
}

/**
 * The poll slow-down: while webhook mode trusts deliveries, the watch scheduler's balance
 * probe runs at a slower floor and leaves delivered changes alone; in polling it runs at
 * the person's cadence. Every switch is written to the mode's log (the Activity page).
 */
export class PollSlowdown {
  #mode: WatchMode = 'polling'
  readonly #deps: PollSlowdownDeps

  constructor(deps: PollSlowdownDeps) {
    this.#deps = deps
  }

  get mode(): WatchMode {
    return this.#mode
  }

  /** Switches to `next`, slowing the probe for 'webhook', and logs `line`. */
  async switchTo(next: WatchMode, line: string): Promise<void> {
    const { scheduler, slowCheckEverySec, isDeliveredSince, onUnexplained } = this.#deps
    this.#mode = next
    scheduler?.setDeliveryCover(
      next === 'webhook'
        ? { checkEverySec: slowCheckEverySec, isDeliveredSince, onUnexplained }
        : null,
    )
    await this.log(next, line)
  }

  /** Writes a line to the mode's log without switching. */
  log(mode: WatchMode, line: string): Promise<void> {
    return this.#deps.mirror.webhookDeliveries.log({ atSec: this.#deps.nowSec(), mode, line })
  }

  /** Gives the probe back its own cadence (webhook mode stopping). */
  stop(): void {
    this.#deps.scheduler?.setDeliveryCover(null)
  }
}
