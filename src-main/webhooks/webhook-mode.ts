import { WEBHOOK_MODE_CLOCKS } from '@shared/domain/watch-cost'
import { randomBytes } from 'node:crypto'
import { nowSec as nowSecOn, systemClock, type Clock } from '@shared/clock'
import type { Mirror } from '../db/mirror'
import type { LedgerEntry } from '../db/stores/credit-ledger-store'
import type { WatchMode } from '../db/stores/webhook-delivery-store'
import type { SyncEngine } from '../sync/sync-engine'
import type { CheckedWallet, WatchScheduler } from '../sync/watch-scheduler'
import { DELIVERY_PATH, type ServerRoute } from './delivery-route'
import { DeliveryReceiver } from './delivery-receiver'
import { PollSlowdown } from './poll-slowdown'
import { debounced, WebhookKeeper } from './webhook-keeper'

/** Where webhook mode keeps its delivery secret: a file of the data folder, like the API key. */
export const WEBHOOK_SECRET_FILE = 'webhook-secret'

/**
 * Defaults. The webhook check (`webhooks.get`) costs 100 credits, so it runs rarely; what
 * notices a silent webhook sooner is the balance probe, which keeps running while
 * deliveries work, slowed to `slowCheckEverySec` (1 credit per 100 wallets a look).
 */
export const WEBHOOK_MODE_DEFAULTS = {
  /** The probe's floors while deliveries are trusted (144 looks a day; see watch-cost.ts). */
  slowCheckEverySec: WEBHOOK_MODE_CLOCKS.probeFloors.checkEverySec,
  slowTokenAccountsEverySec: WEBHOOK_MODE_CLOCKS.probeFloors.tokenAccountsEverySec,
  slowCompressedEverySec: WEBHOOK_MODE_CLOCKS.probeFloors.compressedEverySec,
  /** A routine look at the webhook's `active` (100 credits: 400 a day). */
  healthCheckEverySec: WEBHOOK_MODE_CLOCKS.healthCheckEverySec,
  /** A change the probe found with no delivery since this long reads as deliveries stopped. */
  silentAfterSec: 1_800,
  /** Look at the webhook at most this often when changes come without deliveries. */
  unexplainedCheckCooldownSec: 600,
  /** Watchlist edits in a burst become one address-list update. */
  watchlistDebounceMs: 2_000,
  /** Delivered signatures are remembered this long: the service's retries end within minutes. */
  seenSignaturesKeptSec: 7 * 86_400,
} as const

/** A place for one secret (the app's SecretStore fits). */
export interface SecretKeeper {
  read(): string | null
  write(secret: string): void
}

/** What a caller may tune (the defaults suit a server; tests shorten them). */
export type WebhookModeTuning = Partial<{
  -readonly [K in keyof typeof WEBHOOK_MODE_DEFAULTS]: number
}> & { maxBodyBytes?: number }

export interface WebhookModeDeps extends WebhookModeTuning {
  /** The server's public base URL; deliveries go to it + {@link DELIVERY_PATH}. */
  publicUrl: string
  mirror: Mirror
  engine: SyncEngine
  /** The balance probe's scheduler, slowed while deliveries work; null when not watching. */
  scheduler: WatchScheduler | null
  /** Writes one ledger row (delivered events are charged by the service). */
  recordCredits: (entry: LedgerEntry) => void
  /** Holds the delivery secret; it never goes into the mirror or a log. */
  secrets: SecretKeeper
  /** Subscribes to watchlist changes; returns the unsubscribe. */
  onWatchlistChanged: (listener: () => void) => () => void
  /** The person's polling cadence now (seconds between looks). */
  checkEverySec: () => Promise<number>
  /** Time and timers (the routine check, the watchlist debounce); the system clock by default. */
  clock?: Clock
  /** Told after each delivery's sync, as the scheduler tells of its syncs (notifications). */
  onSynced?: (info: CheckedWallet) => void
  /** Told of failures no caller waits for (a delivery's processing, a background check). */
  onError?: (error: unknown) => void
}

/** What webhook mode is doing now. */
export interface WebhookModeState {
  mode: WatchMode
  webhookID: string | null
  deliveryUrl: string
  lastDeliverySec: number | null
}

/** A running webhook mode. */
export interface WebhookMode {
  /** The delivery route for the server to mount ahead of its session checks. */
  route: ServerRoute
  state(): WebhookModeState
  /** Looks at the webhook now (the routine check); re-enables it if the service disabled it. */
  checkHealth(): Promise<void>
  /** Brings the webhook's address list in step with the watchlist now (skips the debounce). */
  syncAddresses(): Promise<void>
  /** Resolves once deliveries received so far are synced and no management call runs. */
  idle(): Promise<void>
  /** Stops timers and listeners; the webhook stays registered for the next start. */
  stop(): Promise<void>
}

/**
 * Webhook mode: registers one enhanced webhook for every watched wallet (or takes over the
 * one it registered before), keeps its addresses in step with the watchlist, turns
 * deliveries into incremental syncs, and slows the balance probe while deliveries work.
 * When the service disables the webhook, or wallets change with no delivery for a long
 * time, it falls back to polling at the person's cadence, re-enables the webhook, and
 * says so in the mode's log (the Activity page); the next delivery slows polling again.
 * The parts: the delivery receiver (delivery-receiver.ts), the webhook keeper
 * (webhook-keeper.ts) and the poll slow-down (poll-slowdown.ts); this function decides
 * between deliveries and polling, and runs the routine check on `clock`.
 *
 * @example
 * const mode = await startWebhookMode({ publicUrl: 'https://desk.example', ...deps })
 * server.mount(mode.route)
 */
/** The probe's slowest clocks while deliveries are trusted. */
function probeFloors(o: { [K in keyof typeof WEBHOOK_MODE_DEFAULTS]: number }) {
  return {
    checkEverySec: o.slowCheckEverySec,
    tokenAccountsEverySec: o.slowTokenAccountsEverySec,
    compressedEverySec: o.slowCompressedEverySec,
  }
}

export async function startWebhookMode(deps: WebhookModeDeps): Promise<WebhookMode> {
  const o = { ...WEBHOOK_MODE_DEFAULTS, ...definedOnly(deps) }
  const clock = deps.clock ?? systemClock
  const nowSec = (): number => nowSecOn(clock)
  const deliveryUrl = `${deps.publicUrl.replace(/\/+$/, '')}${DELIVERY_PATH}`
  const { mirror } = deps
  const secret = deps.secrets.read() ?? newSecret(deps.secrets)
  const keeper = new WebhookKeeper({ deliveryUrl, secret, mirror, engine: deps.engine, nowSec })

  let isStopped = false
  let lastUnexplainedCheckSec = -Infinity
  /** Management calls run one after another: two would race on the one webhook. */
  const series = oneAtATime()
  const inSeries = series.run
  const background = (work: Promise<void>): void => {
    work.catch((error: unknown) => deps.onError?.(error))
  }
  const { at, slowedWords, pollingWords } = logWords(nowSec, o.slowCheckEverySec, deps)

  const receiver = new DeliveryReceiver({
    ...deps,
    secret,
    nowSec,
    lastDeliverySec: await mirror.webhookDeliveries.lastReceivedSec(),
    onDelivery: async () => {
      if (slowdown.mode === 'polling' && keeper.webhookID !== null && !isStopped)
        await slowdown.switchTo('webhook', `Webhook deliveries resumed at ${at()}; ${slowedWords}`)
    },
  })
  const slowdown = new PollSlowdown({
    mirror,
    scheduler: deps.scheduler,
    floors: probeFloors(o),
    deliveries: receiver,
    onUnexplained: () => background(onUnexplained()),
    nowSec,
  })

  async function syncAddresses(): Promise<void> {
    const count = (await keeper.watchedAddresses()).length
    if ((await keeper.syncAddresses()) === 'created' && slowdown.mode === 'polling')
      await slowdown.switchTo('webhook', `Webhook registered at ${at()} for ${walletsWords(count)}`)
  }

  /** Looks at the webhook; `why` says what prompted the look. */
  async function checkHealth(why: 'routine' | 'unexplained' = 'routine'): Promise<void> {
    if (why === 'routine')
      await mirror.webhookDeliveries.forgetBefore(nowSec() - o.seenSignaturesKeptSec)
    const { webhookID } = keeper
    if (webhookID === null) {
      // Not registered: the service was unreachable at start, or nothing was watched.
      const count = (await keeper.watchedAddresses()).length
      if (count === 0) return
      await keeper.register()
      if (keeper.webhookID !== null)
        await slowdown.switchTo(
          'webhook',
          `Webhook registered at ${at()} for ${walletsWords(count)}; ${slowedWords}`,
        )
      return
    }
    const webhook = await keeper.lookUp(webhookID)
    if (webhook === null) {
      // Deleted elsewhere: register again.
      await slowdown.switchTo(
        'polling',
        `The webhook was deleted at ${at()}; ${await pollingWords()}`,
      )
      await keeper.register()
      return
    }
    if (webhook.state !== 'active') {
      const cause =
        webhook.state === 'auto-disabled'
          ? 'the service disabled the webhook'
          : 'the webhook was disabled'
      await slowdown.switchTo(
        'polling',
        `Webhook deliveries stopped at ${at()} (${cause}); ${await pollingWords()}`,
      )
      await keeper.enable(webhookID)
      await slowdown.log(
        'polling',
        `Re-enabled the webhook at ${at()}; polling until a delivery arrives`,
      )
      return
    }
    const lastDeliverySec = receiver.lastDeliverySec
    if (
      why === 'unexplained' &&
      slowdown.mode === 'webhook' &&
      (lastDeliverySec === null || nowSec() - lastDeliverySec >= o.silentAfterSec)
    ) {
      const since = lastDeliverySec === null ? 'yet' : `since ${utcTime(lastDeliverySec)}`
      await slowdown.switchTo(
        'polling',
        `No webhook delivery ${since} while watched wallets changed (noticed at ${at()}); ${await pollingWords()}`,
      )
    }
  }

  async function onUnexplained(): Promise<void> {
    const now = nowSec()
    if (now - lastUnexplainedCheckSec < o.unexplainedCheckCooldownSec) return
    lastUnexplainedCheckSec = now
    await inSeries(() => checkHealth('unexplained'))
  }

  // Start: take over or register the webhook; polling carries on if that fails.
  try {
    await inSeries(() => keeper.register())
    if (keeper.webhookID !== null)
      await slowdown.switchTo(
        'webhook',
        `Webhook mode on at ${at()}: deliveries for ${walletsWords((await keeper.watchedAddresses()).length)}; ${slowedWords}`,
      )
  } catch (error) {
    await slowdown.switchTo(
      'polling',
      `Webhook mode could not register its webhook at ${at()} (${error instanceof Error ? error.message : String(error)}); ${await pollingWords()}`,
    )
  }

  const watchlistEdits = debounced(clock, o.watchlistDebounceMs, () =>
    background(inSeries(syncAddresses)),
  )
  const unsubscribe = deps.onWatchlistChanged(() => watchlistEdits.trigger())
  const stopHealthChecks = clock.setInterval(
    () => background(inSeries(() => checkHealth('routine'))),
    o.healthCheckEverySec * 1000,
    { keepsAlive: false },
  )
  const idle = async (): Promise<void> => {
    await receiver.idle()
    await series.idle()
  }

  return {
    route: receiver.route,
    state: () => ({
      mode: slowdown.mode,
      webhookID: keeper.webhookID,
      deliveryUrl,
      lastDeliverySec: receiver.lastDeliverySec,
    }),
    checkHealth: () => inSeries(() => checkHealth('routine')),
    syncAddresses: () => {
      watchlistEdits.cancel()
      return inSeries(syncAddresses)
    },
    idle,
    async stop() {
      isStopped = true
      unsubscribe()
      watchlistEdits.cancel()
      stopHealthChecks()
      slowdown.stop()
      await idle()
    },
  }
}

/** The phrases the mode's log lines share: the time now, and how polling goes. */
function logWords(
  nowSec: () => number,
  slowCheckEverySec: number,
  deps: Pick<WebhookModeDeps, 'checkEverySec'>,
) {
  return {
    at: (): string => utcTime(nowSec()),
    slowedWords: `polling slowed to every ${durationWords(slowCheckEverySec)}`,
    pollingWords: async (): Promise<string> =>
      `polling every ${durationWords(await deps.checkEverySec())} meanwhile`,
  }
}

/** Runs work one piece after another; `idle` resolves once all given so far are done. */
function oneAtATime(): { run(work: () => Promise<void>): Promise<void>; idle(): Promise<void> } {
  let serial: Promise<void> = Promise.resolve()
  return {
    run(work) {
      const run = serial.then(work)
      serial = run.catch(() => {})
      return run
    },
    idle: () => serial,
  }
}

/** A fresh delivery secret, kept before it is sent anywhere. */
function newSecret(secrets: SecretKeeper): string {
  const secret = randomBytes(32).toString('base64url')
  secrets.write(secret)
  return secret
}

/** "14:02 UTC". */
function utcTime(sec: number): string {
  return `${new Date(sec * 1000).toISOString().slice(11, 16)} UTC`
}

/** "45 s", "5 min", "6 h". */
function durationWords(sec: number): string {
  if (sec < 60) return `${sec} s`
  if (sec < 3_600) return `${Math.round(sec / 60)} min`
  return `${Math.round(sec / 3_600)} h`
}

function walletsWords(n: number): string {
  return n === 1 ? '1 wallet' : `${n} wallets`
}

/** The options given, without the ones left undefined (so defaults stand). */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
