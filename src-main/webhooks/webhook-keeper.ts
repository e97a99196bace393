import type { Webhook } from '@shared/api/webhooks'
import type { Cancel, Clock } from '@shared/clock'
import type { Mirror } from '../db/mirror'
import { NotFoundError } from '../service/service-errors'
import type { SyncEngine } from '../sync/sync-engine'
import { webhookCallsThrough, WebhookDesk, type ServiceCall } from './webhook-desk'
import type { WebhookView } from '@shared/ipc/webhook-schemas'
import { runAsApp } from '../sync/spender'

export interface WebhookKeeperDeps {
  /** Where the service delivers: the server's public URL + the delivery path. */
  deliveryUrl: string
  /** The secret every delivery carries (the webhook's auth header). */
  secret: string
  mirror: Mirror
  engine: SyncEngine
  nowSec: () => number
}

/** What {@link WebhookKeeper.syncAddresses} did. */
export type AddressSync = 'created' | 'updated' | 'removed' | 'unchanged'

/**
 * Webhook mode's one webhook, kept in step with the watchlist: found again (by its
 * delivery URL) or registered, its address list updated as wallets come and go, removed
 * when nothing is watched (the service refuses an empty list). Every change is one call
 * through the engine (paced, metered) via the webhook desk.
 */
export class WebhookKeeper {
  /** The webhook's id, or null while none is registered. */
  webhookID: string | null = null
  readonly #deps: WebhookKeeperDeps
  readonly #call: ServiceCall
  readonly #desk: WebhookDesk

  constructor(deps: WebhookKeeperDeps) {
    this.#deps = deps
    this.#call = webhookCallsThrough(deps.engine)
    this.#desk = new WebhookDesk({
      call: this.#call,
      store: deps.mirror.webhooks,
      watchedAddresses: () => this.watchedAddresses(),
      nowSec: deps.nowSec,
    })
  }

  async watchedAddresses(): Promise<string[]> {
    return (await this.#deps.mirror.watchlist.list()).map((w) => w.address)
  }

  /** Finds the webhook registered earlier, or registers one; leaves it active. */
  async register(): Promise<void> {
    const { mirror, deliveryUrl, secret } = this.#deps
    const addresses = await this.watchedAddresses()
    const listed = await this.#call('webhooks.list', {})
    await mirror.webhooks.replaceAll(listed, this.#deps.nowSec())
    const ours = listed.find((w) => w.webhookURL === deliveryUrl)
    if (!ours) {
      if (addresses.length === 0) return
      this.webhookID = (await this.#desk.create(this.#wanted(addresses))).webhookID
      return
    }
    this.webhookID = ours.webhookID
    if (addresses.length === 0) {
      await this.#desk.remove(ours.webhookID)
      this.webhookID = null
      return
    }
    if (!isInStep(ours, addresses, secret))
      await this.#desk.update({ webhookID: ours.webhookID, ...this.#wanted(addresses) })
    if (!ours.active) await this.#desk.toggle(ours.webhookID, true)
  }

  /** One address-list update (or create/delete) when the watchlist and the webhook differ. */
  async syncAddresses(): Promise<AddressSync> {
    const addresses = await this.watchedAddresses()
    const { webhookID } = this
    if (webhookID === null) {
      if (addresses.length === 0) return 'unchanged'
      this.webhookID = (await this.#desk.create(this.#wanted(addresses))).webhookID
      return 'created'
    }
    const kept = await this.#deps.mirror.webhooks.get(webhookID)
    const same =
      kept !== null && sameSet(kept.webhook.accountAddresses, addresses) && kept.isAuthHeaderSet
    if (same) return 'unchanged'
    if (addresses.length === 0) {
      // The service refuses an empty address list: with nothing to watch, no webhook.
      await this.#desk.remove(webhookID)
      this.webhookID = null
      return 'removed'
    }
    await this.#desk.update({ webhookID, ...this.#wanted(addresses) })
    return 'updated'
  }

  /**
   * The registered webhook as the service has it now, or null when it was deleted
   * elsewhere (the Webhooks page, another tool): then it is forgotten here.
   */
  async lookUp(webhookID: string): Promise<WebhookView | null> {
    try {
      return await this.#desk.get(webhookID)
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error
      this.webhookID = null
      return null
    }
  }

  async enable(webhookID: string): Promise<void> {
    await this.#desk.toggle(webhookID, true)
  }

  /** The webhook as this mode wants it: every watched wallet, any transaction, our secret. */
  #wanted(addresses: string[]) {
    return {
      webhookURL: this.#deps.deliveryUrl,
      webhookType: 'enhanced' as const,
      transactionTypes: ['ANY' as const],
      accountAddresses: addresses,
      authHeader: this.#deps.secret,
    }
  }
}

/**
 * Runs `run` once `ms` after the last of a burst of triggers (watchlist edits in a burst
 * become one address-list update), on `clock`'s timers.
 */
export function debounced(
  clock: Clock,
  ms: number,
  run: () => void,
): { trigger(): void; cancel(): void } {
  let pending: Cancel | null = null
  const cancel = (): void => {
    pending?.()
    pending = null
  }
  return {
    trigger() {
      cancel()
      pending = clock.setTimeout(
        () => {
          pending = null
          // The subscription is the app's, whoever's request last changed the watchlist.
          runAsApp(run)
        },
        ms,
        { keepsAlive: false },
      )
    },
    cancel,
  }
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
