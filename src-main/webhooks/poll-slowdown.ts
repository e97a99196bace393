import type { Mirror } from '../db/mirror'
import type { WatchMode } from '../db/stores/webhook-delivery-store'
import type { DeliveryCover, WatchScheduler } from '../sync/watch-scheduler'

export interface PollSlowdownDeps {
  mirror: Pick<Mirror, 'webhookDeliveries'>
  /** The balance probe's scheduler; null when not watching. */
  scheduler: WatchScheduler | null
  /** The probe's floors while deliveries are trusted. */
  floors: DeliveryCover['floors']
  /** What deliveries tell the probe: which changes they explain, what they wrote unconfirmed. */
  deliveries: Pick<
    DeliveryCover,
    'explains' | 'isDeliveredSince' | 'unverifiedSignatures' | 'markVerified'
  >
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
    const { scheduler, floors, deliveries, onUnexplained } = this.#deps
    this.#mode = next
    scheduler?.setDeliveryCover(
      next === 'webhook'
        ? {
            floors,
            explains: (...a) => deliveries.explains(...a),
            isDeliveredSince: (...a) => deliveries.isDeliveredSince(...a),
            unverifiedSignatures: (address) => deliveries.unverifiedSignatures(address),
            markVerified: (address) => deliveries.markVerified(address),
            onUnexplained,
          }
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
