import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { MemorySecretStore } from '../../src-main/app/secret-store'
import type { Mirror } from '../../src-main/db/mirror'
import type { RunningSimulator } from '../../src-main/simulator/simulator-server'
import type { SyncRuntime } from '../../src-main/sync/sync-runtime'
import type { WatchScheduler } from '../../src-main/sync/watch-scheduler'
import { DELIVERY_PATH } from '../../src-main/webhooks/delivery-route'
import {
  startWebhookMode,
  WEBHOOK_MODE_DEFAULTS,
  type WebhookMode,
} from '../../src-main/webhooks/webhook-mode'
import { clockReading } from './clocks'

/**
 * Webhook mode for the watch day: the simulator delivers each new transaction to a
 * loopback server that hands it to the mode's delivery route, the probe runs at the mode's
 * floor, and the routine webhook check runs on the virtual clock. Each delivery's latency
 * is the real time from its POST arriving to the mirror holding what it brought.
 */
export class WatchDayWebhooks {
  readonly latenciesSec: number[] = []
  #arrivals: number[] = []
  #lastRoundSec = -Infinity
  #lastHealthSec: number

  private constructor(
    private readonly sim: RunningSimulator,
    private readonly server: Server,
    private readonly mode: WebhookMode,
    private readonly checkEverySec: number,
  ) {
    this.#lastHealthSec = sim.chain.clock.nowSec()
  }

  static async start(deps: {
    sim: RunningSimulator
    mirror: Mirror
    runtime: SyncRuntime
    scheduler: WatchScheduler
    checkEverySec: number
  }): Promise<WatchDayWebhooks> {
    let self: WatchDayWebhooks | null = null
    const server = createServer((req, res) => {
      if (req.url !== DELIVERY_PATH || self === null) return void res.writeHead(404).end()
      self.#arrivals.push(performance.now())
      self.mode.route.handle(req, res)
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const clock = deps.sim.chain.clock
    const mode = await startWebhookMode({
      publicUrl,
      mirror: deps.mirror,
      engine: deps.runtime.engine,
      scheduler: deps.scheduler,
      recordCredits: (entry) => deps.runtime.meter.record(entry),
      secrets: new MemorySecretStore(),
      checkEverySec: async () => deps.checkEverySec,
      clock: clockReading(() => clock.nowSec()),
      onWatchlistChanged: () => () => {},
    })
    self = new WatchDayWebhooks(deps.sim, server, mode, deps.checkEverySec)
    return self
  }

  /** Waits for the deliveries the last clock move caused to be written; notes their latency. */
  async settle(): Promise<void> {
    await this.sim.webhooks.idle()
    await this.mode.idle()
    const done = performance.now()
    for (const at of this.#arrivals) this.latenciesSec.push((done - at) / 1000)
    this.#arrivals = []
  }

  /** Whether the probe's round is due: the slow floor while deliveries work, else the cadence. */
  isRoundDue(nowSec: number): boolean {
    const everySec =
      this.mode.state().mode === 'webhook'
        ? Math.max(this.checkEverySec, WEBHOOK_MODE_DEFAULTS.slowCheckEverySec)
        : this.checkEverySec
    if (nowSec - this.#lastRoundSec < everySec) return false
    this.#lastRoundSec = nowSec
    return true
  }

  /** The routine look at the webhook, on the virtual clock (its real timer never fires here). */
  async maybeCheckHealth(nowSec: number): Promise<void> {
    if (nowSec - this.#lastHealthSec < WEBHOOK_MODE_DEFAULTS.healthCheckEverySec) return
    this.#lastHealthSec = nowSec
    await this.mode.checkHealth()
  }

  /** Delivered events the service charged for. */
  deliveries(key: string): number {
    return this.sim.credits.forKey(key).byOperation['webhooks.delivery']?.calls ?? 0
  }

  async stop(): Promise<void> {
    await this.mode.stop()
    await new Promise((done) => this.server.close(done))
  }
}
