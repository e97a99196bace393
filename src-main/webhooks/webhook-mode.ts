import { randomBytes } from 'node:crypto'
import type { Webhook } from '@shared/api/webhooks'
import type { Mirror } from '../db/mirror'
import type { LedgerEntry } from '../db/stores/credit-ledger-store'
import type { WatchMode } from '../db/stores/webhook-delivery-store'
import { NotFoundError } from '../service/service-errors'
import type { SyncEngine } from '../sync/sync-engine'
import type { CheckedWallet, WatchScheduler } from '../sync/watch-scheduler'
import { createDeliveryRoute, DELIVERY_PATH, type ServerRoute } from './delivery-route'
import { DeliverySync } from './delivery-sync'
import { webhookCallsThrough, WebhookDesk } from './webhook-desk'

/** Where webhook mode keeps its delivery secret: a file of the data folder, like the API key. */
export const WEBHOOK_SECRET_FILE = 'webhook-secret'

/**
 * Defaults. The webhook check (`webhooks.get`) costs 100 credits, so it runs rarely; what
 * notices a silent webhook sooner is the balance probe, which keeps running while
 * deliveries work, slowed to `slowCheckEverySec` (1 credit per 100 wallets a look).
 */
export const WEBHOOK_MODE_DEFAULTS = {
  /** The probe's floor while deliveries are trusted: 144 looks a day. */
  slowCheckEverySec: 600,
  /** A routine look at the webhook's `active` (100 credits: 400 a day). */
  healthCheckEverySec: 6 * 3_600,
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
  nowSec: () => number
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
 *
 * @example
 * const mode = await startWebhookMode({ publicUrl: 'https://desk.example', ...deps })
 * server.mount(mode.route)
 */
export async function startWebhookMode(deps: WebhookModeDeps): Promise<WebhookMode> {
  const o = { ...WEBHOOK_MODE_DEFAULTS, ...definedOnly(deps) }
  const deliveryUrl = `${deps.publicUrl.replace(/\/+$/, '')}${DELIVERY_PATH}`
  const { mirror, engine, scheduler } = deps
  const call = webhookCallsThrough(engine)
  const desk = new WebhookDesk({
    call,
    store: mirror.webhooks,
    watchedAddresses: watchedAddresses,
    nowSec: deps.nowSec,
  })
  const secret = deps.secrets.read() ?? newSecret(deps.secrets)

  let mode: WatchMode = 'polling'
  let webhookID: string | null = null
  let lastDeliverySec: number | null = await mirror.webhookDeliveries.lastReceivedSec()
  let lastUnexplainedCheckSec = -Infinity
  let isStopped = false
  /** Management calls run one after another: two would race on the one webhook. */
  let serial: Promise<void> = Promise.resolve()
  const inSeries = (work: () => Promise<void>): Promise<void> => {
    const run = serial.then(work)
    serial = run.catch(() => {})
    return run
  }
  const background = (work: Promise<void>): void => {
    work.catch((error: unknown) => deps.onError?.(error))
  }

  async function watchedAddresses(): Promise<string[]> {
    return (await mirror.watchlist.list()).map((w) => w.address)
  }
  const clock = (): string => utcTime(deps.nowSec())
  const log = (next: WatchMode, line: string): Promise<void> =>
    mirror.webhookDeliveries.log({ atSec: deps.nowSec(), mode: next, line })

  const deliveries = new DeliverySync({
    engine,
    store: mirror.webhookDeliveries,
    syncedAddresses: async () => {
      const out: string[] = []
      for (const a of await watchedAddresses())
        if (!(await mirror.schedule.isPaused(a))) out.push(a)
      return out
    },
    recordCredits: deps.recordCredits,
    recordChange: (change) => mirror.watchState.recordChange(change),
    nowSec: deps.nowSec,
    ...(deps.onSynced ? { onSynced: deps.onSynced } : {}),
  })

  const setMode = async (next: WatchMode, line: string): Promise<void> => {
    mode = next
    scheduler?.setDeliveryCover(
      next === 'webhook'
        ? {
            checkEverySec: o.slowCheckEverySec,
            isDeliveredSince: (address, sinceSec) => deliveries.isDeliveredSince(address, sinceSec),
            onUnexplained: () => background(onUnexplained()),
          }
        : null,
    )
    await log(next, line)
  }
  const pollingWords = async (): Promise<string> =>
    `polling every ${durationWords(await deps.checkEverySec())} meanwhile`

  const route = createDeliveryRoute({
    secret: () => secret,
    ...(deps.maxBodyBytes !== undefined ? { maxBodyBytes: deps.maxBodyBytes } : {}),
    ...(deps.onError ? { onError: deps.onError } : {}),
    onDelivery: async (delivery) => {
      lastDeliverySec = deps.nowSec()
      if (mode === 'polling' && webhookID !== null && !isStopped)
        await setMode(
          'webhook',
          `Webhook deliveries resumed at ${clock()}; polling slowed to every ${durationWords(o.slowCheckEverySec)}`,
        )
      await deliveries.accept(delivery)
    },
  })

  /** The webhook as this mode wants it: every watched wallet, any transaction, our secret. */
  const wanted = (addresses: string[]) => ({
    webhookURL: deliveryUrl,
    webhookType: 'enhanced' as const,
    transactionTypes: ['ANY' as const],
    accountAddresses: addresses,
    authHeader: secret,
  })

  /** Finds the webhook registered earlier, or registers one; leaves it active. */
  async function register(): Promise<void> {
    const addresses = await watchedAddresses()
    const listed = await call('webhooks.list', {})
    await mirror.webhooks.replaceAll(listed, deps.nowSec())
    const ours = listed.find((w) => w.webhookURL === deliveryUrl)
    if (!ours) {
      if (addresses.length === 0) return
      webhookID = (await desk.create(wanted(addresses))).webhookID
      return
    }
    webhookID = ours.webhookID
    if (addresses.length === 0) {
      await desk.remove(ours.webhookID)
      webhookID = null
      return
    }
    if (!isInStep(ours, addresses, secret))
      await desk.update({ webhookID: ours.webhookID, ...wanted(addresses) })
    if (!ours.active) await desk.toggle(ours.webhookID, true)
  }

  /** One address-list update (or create/delete) when the watchlist and the webhook differ. */
  async function syncAddresses(): Promise<void> {
    const addresses = await watchedAddresses()
    if (webhookID === null) {
      if (addresses.length === 0) return
      webhookID = (await desk.create(wanted(addresses))).webhookID
      if (mode === 'polling')
        await setMode(
          'webhook',
          `Webhook registered at ${clock()} for ${walletsWords(addresses.length)}`,
        )
      return
    }
    const kept = await mirror.webhooks.get(webhookID)
    const same =
      kept !== null && sameSet(kept.webhook.accountAddresses, addresses) && kept.isAuthHeaderSet
    if (same) return
    if (addresses.length === 0) {
      // The service refuses an empty address list: with nothing to watch, no webhook.
      await desk.remove(webhookID)
      webhookID = null
      return
    }
    await desk.update({ webhookID, ...wanted(addresses) })
  }

  /** Looks at the webhook; `why` says what prompted the look. */
  async function checkHealth(why: 'routine' | 'unexplained' = 'routine'): Promise<void> {
    if (why === 'routine')
      await mirror.webhookDeliveries.forgetBefore(deps.nowSec() - o.seenSignaturesKeptSec)
    if (webhookID === null) {
      // Not registered: the service was unreachable at start, or nothing was watched.
      const count = (await watchedAddresses()).length
      if (count === 0) return
      await register()
      if (webhookID !== null)
        await setMode(
          'webhook',
          `Webhook registered at ${clock()} for ${walletsWords(count)}; polling slowed to every ${durationWords(o.slowCheckEverySec)}`,
        )
      return
    }
    let webhook
    try {
      webhook = await desk.get(webhookID)
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error
      // Deleted elsewhere (the Webhooks page, another tool): register again.
      await setMode('polling', `The webhook was deleted at ${clock()}; ${await pollingWords()}`)
      webhookID = null
      await register()
      return
    }
    if (webhook.state !== 'active') {
      const cause =
        webhook.state === 'auto-disabled'
          ? 'the service disabled the webhook'
          : 'the webhook was disabled'
      await setMode(
        'polling',
        `Webhook deliveries stopped at ${clock()} (${cause}); ${await pollingWords()}`,
      )
      await desk.toggle(webhookID, true)
      await log('polling', `Re-enabled the webhook at ${clock()}; polling until a delivery arrives`)
      return
    }
    const now = deps.nowSec()
    if (
      why === 'unexplained' &&
      mode === 'webhook' &&
      (lastDeliverySec === null || now - lastDeliverySec >= o.silentAfterSec)
    ) {
      const since = lastDeliverySec === null ? 'yet' : `since ${utcTime(lastDeliverySec)}`
      await setMode(
        'polling',
        `No webhook delivery ${since} while watched wallets changed (noticed at ${clock()}); ${await pollingWords()}`,
      )
    }
  }

  async function onUnexplained(): Promise<void> {
    const now = deps.nowSec()
    if (now - lastUnexplainedCheckSec < o.unexplainedCheckCooldownSec) return
    lastUnexplainedCheckSec = now
    await inSeries(() => checkHealth('unexplained'))
  }

  // Start: take over or register the webhook; polling carries on if that fails.
  try {
    await inSeries(register)
    if (webhookID !== null)
      await setMode(
        'webhook',
        `Webhook mode on at ${clock()}: deliveries for ${walletsWords((await watchedAddresses()).length)}; polling slowed to every ${durationWords(o.slowCheckEverySec)}`,
      )
  } catch (error) {
    await setMode(
      'polling',
      `Webhook mode could not register its webhook at ${clock()} (${error instanceof Error ? error.message : String(error)}); ${await pollingWords()}`,
    )
  }

  let debounce: NodeJS.Timeout | null = null
  const unsubscribe = deps.onWatchlistChanged(() => {
    if (debounce) clearTimeout(debounce)
    debounce = setTimeout(() => {
      debounce = null
      background(inSeries(syncAddresses))
    }, o.watchlistDebounceMs)
    debounce.unref()
  })
  const healthTimer = setInterval(
    () => background(inSeries(() => checkHealth('routine'))),
    o.healthCheckEverySec * 1000,
  )
  healthTimer.unref()

  return {
    route,
    state: () => ({ mode, webhookID, deliveryUrl, lastDeliverySec }),
    checkHealth: () => inSeries(() => checkHealth('routine')),
    syncAddresses: () => {
      if (debounce) clearTimeout(debounce)
      debounce = null
      return inSeries(syncAddresses)
    },
    async idle() {
      await route.idle()
      await deliveries.idle()
      await serial
    },
    async stop() {
      isStopped = true
      unsubscribe()
      if (debounce) clearTimeout(debounce)
      clearInterval(healthTimer)
      scheduler?.setDeliveryCover(null)
      await route.idle()
      await deliveries.idle()
      await serial
    },
  }
}

/** A fresh delivery secret, kept before it is sent anywhere. */
function newSecret(secrets: SecretKeeper): string {
  const secret = randomBytes(32).toString('base64url')
  secrets.write(secret)
  return secret
}

/** Whether a registered webhook already delivers what this mode wants. */
function isInStep(webhook: Webhook, addresses: readonly string[], secret: string): boolean {
  return (
    webhook.authHeader === secret &&
    webhook.webhookType === 'enhanced' &&
    (webhook.transactionTypes ?? []).includes('ANY') &&
    sameSet(webhook.accountAddresses, addresses)
  )
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a)
  return set.size === new Set(b).size && b.every((x) => set.has(x))
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
