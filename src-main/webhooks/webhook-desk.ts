import type { OperationInput, OperationName, OperationOutput } from '@shared/api/operations'
import type { CreateWebhookRequest, UpdateWebhookRequest } from '@shared/api/webhooks'
import { InvalidInputError } from '@shared/ipc/ipc-errors'
import type { WebhookListing, WebhookView } from '@shared/ipc/webhook-schemas'
import type { WebhookStore } from '../db/stores/webhook-store'
import type { SyncEngine } from '../sync/sync-engine'
import { webhookViewOf } from './webhook-view'

/** The ledger's name for what webhook management calls were for. */
export const WEBHOOKS_PURPOSE = 'webhooks'

/** Calls one operation through the paced, retried, budgeted road into the ledger. */
export type ServiceCall = <N extends OperationName>(
  operation: N,
  input: OperationInput<N>,
) => Promise<OperationOutput<N>>

/** Management calls through the engine: paced, retried, budgeted, in the ledger under `webhooks`. */
export function webhookCallsThrough(engine: Pick<SyncEngine, 'callAs'>): ServiceCall {
  return (operation, input) =>
    engine.callAs({ address: null, purpose: WEBHOOKS_PURPOSE }, operation, input)
}

export interface WebhookDeskDeps {
  call: ServiceCall
  store: WebhookStore
  /** The watched wallets' addresses, for "create from the watchlist". */
  watchedAddresses: () => Promise<string[]>
  nowSec: () => number
}

/**
 * Webhook management: each action is one service call (100 credits, said first by
 * `planWebhookAction`); every answer is kept in the mirror so the list opens offline.
 */
export class WebhookDesk {
  readonly #d: WebhookDeskDeps
  constructor(deps: WebhookDeskDeps) {
    this.#d = deps
  }

  /** The webhooks as last fetched, without calling the service. */
  async cached(): Promise<WebhookListing> {
    const { webhooks, listedAtSec } = await this.#d.store.listing()
    return { webhooks: webhooks.map(webhookViewOf), listedAtSec }
  }

  /** Lists the webhooks from the service and keeps the answer. */
  async refresh(): Promise<WebhookListing> {
    const listed = await this.#d.call('webhooks.list', {})
    await this.#d.store.replaceAll(listed, this.#d.nowSec())
    return this.cached()
  }

  /** Reads one webhook from the service and keeps the answer. */
  async get(webhookID: string): Promise<WebhookView> {
    const webhook = await this.#d.call('webhooks.get', { webhookID })
    return webhookViewOf(await this.#d.store.put(webhook, this.#d.nowSec()))
  }

  async create(request: CreateWebhookRequest): Promise<WebhookView> {
    const webhook = await this.#d.call('webhooks.create', request)
    return webhookViewOf(await this.#d.store.put(webhook, this.#d.nowSec()))
  }

  /** Creates one webhook on every watched wallet. */
  async createFromWatchlist(
    request: Omit<CreateWebhookRequest, 'accountAddresses'>,
  ): Promise<WebhookView> {
    const accountAddresses = await this.#d.watchedAddresses()
    // Said before any call: an empty address list would only come back as the service's 400.
    if (accountAddresses.length === 0)
      throw new InvalidInputError(
        'The watchlist is empty: watch a wallet before creating a webhook from it.',
      )
    return this.create({ ...request, accountAddresses })
  }

  /** Changes the fields given (the address list is replaced whole). */
  async update(request: UpdateWebhookRequest): Promise<WebhookView> {
    const webhook = await this.#d.call('webhooks.update', request)
    return webhookViewOf(await this.#d.store.put(webhook, this.#d.nowSec()))
  }

  /**
   * Enables or disables (the PATCH toggle). The app notes that it disabled a webhook, so
   * that one the service disabled reads as auto-disabled; a re-enable starts the service's
   * 24-hour grace period.
   */
  async toggle(webhookID: string, active: boolean): Promise<WebhookView> {
    const before = await this.#d.store.get(webhookID)
    const webhook = await this.#d.call('webhooks.toggle', { webhookID, active })
    // Enabling one that was active already starts no grace period.
    const mark = !active ? 'disabled' : before?.webhook.active === true ? 'none' : 'enabled'
    return webhookViewOf(await this.#d.store.put(webhook, this.#d.nowSec(), mark))
  }

  async remove(webhookID: string): Promise<void> {
    await this.#d.call('webhooks.delete', { webhookID })
    await this.#d.store.remove(webhookID)
  }
}
