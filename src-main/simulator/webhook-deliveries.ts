import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import type { CreateWebhookRequest, UpdateWebhookRequest, Webhook } from '@shared/api/webhooks'
import { WEBHOOK_LIMITS } from '@shared/api/webhooks'
import { CREDITS_PER_WEBHOOK_EVENT } from '@shared/api/prices'
import type { ApiKeys } from './api-keys'
import type { SimClock } from './chain/clock'
import type { SimChain, SimWallet, TxView } from './chain/sim-chain'
import { enhancedTransaction } from './chain/enhanced-transactions'
import { parsedTransaction } from './chain/parsed-transactions'
import type { CreditCounter } from './credit-counter'
import type { RealVariance } from './real-variance'
import { serviceWords } from './chain/service-words'
import { invalidParams, notFound } from './routes/http-io'

// Webhooks: the store behind /v0/webhooks and the deliveries (docs/service.md, Webhooks): a POST of
// a JSON array with `Authorization` = authHeader, retried up to 3 times 1 minute apart on
// the simulator's clock, auto-disabled on a high failure rate except during the 24-hour
// grace period after a re-enable. Enhanced webhooks skip failed transactions.

const RETRY_DELAY_SEC = 60
const MAX_RETRIES = 3
const GRACE_PERIOD_SEC = 24 * 3_600
/** Auto-disable after this many recent attempts with at least this failure share (threshold not documented). */
const FAILURE_WINDOW = 10
const FAILURE_SHARE_TO_DISABLE = 0.8
const DELIVERY_TIMEOUT_MS = 5_000
const LOG_LIMIT = 1_000

interface StoredWebhook {
  webhook: Webhook
  ownerKey: string
  recent: boolean[]
  graceUntilSec: number
}

interface PendingDelivery {
  webhookID: string
  payload: unknown[]
  signatures: string[]
  attempt: number
  dueSec: number
}

interface DeliveryAttempt {
  webhookID: string
  attempt: number
  atSec: number
  status: number | null
  ok: boolean
  signatures: string[]
  error?: string
}

export class WebhookDeliveries {
  private readonly hooks = new Map<string, StoredWebhook>()
  private pending: PendingDelivery[] = []
  private readonly inFlight = new Set<Promise<void>>()
  readonly log: DeliveryAttempt[] = []

  constructor(
    private readonly chain: SimChain,
    private readonly clock: SimClock,
    private readonly keys: ApiKeys,
    private readonly credits: CreditCounter,
    /** The real service's variety, when the simulator was asked for it. */
    private readonly variance: RealVariance | null = null,
  ) {}

  private owned(key: string, id: string): StoredWebhook {
    const stored = this.hooks.get(id)
    if (!stored || stored.ownerKey !== key) throw notFound(`webhook ${id} not found`)
    return stored
  }

  list(key: string): Webhook[] {
    return [...this.hooks.values()]
      .filter((h) => h.ownerKey === key)
      .map((h) => structuredClone(h.webhook))
  }

  get(key: string, id: string): Webhook {
    return structuredClone(this.owned(key, id).webhook)
  }

  create(key: string, body: z.output<typeof CreateWebhookRequest>): Webhook {
    const limit = this.keys.isFreePlan(key)
      ? WEBHOOK_LIMITS.freePlanWebhooks
      : WEBHOOK_LIMITS.paidPlanWebhooks
    if (this.list(key).length >= limit)
      throw invalidParams(`webhookURL: the plan allows at most ${limit} webhooks`)
    const webhook: Webhook = {
      webhookID: randomUUID(),
      wallet: this.keys.ownerAddress(key),
      webhookURL: body.webhookURL,
      transactionTypes: body.transactionTypes,
      accountAddresses: body.accountAddresses,
      webhookType: body.webhookType,
      active: true,
      ...(body.authHeader !== undefined ? { authHeader: body.authHeader } : {}),
      ...(body.encoding !== undefined ? { encoding: body.encoding } : {}),
      ...(body.txnStatus !== undefined ? { txnStatus: body.txnStatus } : {}),
    }
    this.hooks.set(webhook.webhookID, { webhook, ownerKey: key, recent: [], graceUntilSec: 0 })
    return structuredClone(webhook)
  }

  update(key: string, body: z.output<typeof UpdateWebhookRequest>): Webhook {
    const stored = this.owned(key, body.webhookID)
    const { webhookID: _id, ...changes } = body
    for (const [field, value] of Object.entries(changes)) {
      if (value !== undefined) (stored.webhook as Record<string, unknown>)[field] = value
    }
    return structuredClone(stored.webhook)
  }

  remove(key: string, id: string): null {
    this.owned(key, id)
    this.hooks.delete(id)
    this.pending = this.pending.filter((p) => p.webhookID !== id)
    return null
  }

  /** PATCH {active}, the toggle; a re-enable starts the 24-hour grace period. */
  toggle(key: string, id: string, active: boolean): Webhook {
    const stored = this.owned(key, id)
    if (active && !stored.webhook.active) {
      stored.graceUntilSec = this.clock.nowSec() + GRACE_PERIOD_SEC
      stored.recent = []
    }
    stored.webhook.active = active
    return structuredClone(stored.webhook)
  }

  /** Queues deliveries of new transactions of a wallet to every active webhook watching it. */
  onActivity(wallet: SimWallet, txs: readonly TxView[]): void {
    for (const stored of this.hooks.values()) {
      const hook = stored.webhook
      if (!hook.active || !hook.accountAddresses.includes(wallet.address)) continue
      const kind = hook.webhookType ?? 'enhanced'
      const enhanced = kind.startsWith('enhanced') || kind.startsWith('discord')
      const types = hook.transactionTypes ?? ['ANY']
      const selected = txs.filter(
        (tx) =>
          !(enhanced && tx.error) &&
          (!enhanced || types.includes('ANY') || (types as string[]).includes(tx.type)),
      )
      if (selected.length === 0) continue
      this.pending.push({
        webhookID: hook.webhookID,
        payload: selected.map((tx) =>
          enhanced ? this.enhancedEvent(wallet, tx) : this.rawEvent(tx),
        ),
        signatures: selected.map((tx) => tx.signature),
        attempt: 0,
        dueSec: this.clock.nowSec(),
      })
    }
    this.processDue()
  }

  private enhancedEvent(wallet: SimWallet, tx: TxView): Record<string, unknown> {
    const event = enhancedTransaction(
      parsedTransaction(this.chain, wallet, tx),
      tx.type,
      serviceWords(this.chain, wallet, tx),
    )
    return this.variance === null ? event : this.variance.delivery(event)
  }

  private rawEvent(tx: TxView): Record<string, unknown> {
    return {
      blockTime: tx.timestamp,
      slot: tx.slot,
      meta: {
        fee: Number(tx.feeLamports),
        err: tx.error
          ? { InstructionError: [tx.error.instruction, { Custom: tx.error.code }] }
          : null,
      },
      transaction: { signatures: [tx.signature] },
    }
  }

  /** Sends every delivery whose time has come on the simulator's clock. */
  processDue(): void {
    const now = this.clock.nowSec()
    const due = this.pending.filter((p) => p.dueSec <= now)
    this.pending = this.pending.filter((p) => p.dueSec > now)
    for (const delivery of due) {
      const run = this.attempt(delivery).finally(() => this.inFlight.delete(run))
      this.inFlight.add(run)
    }
  }

  /** Resolves when no delivery is on the wire. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight])
  }

  /** Deliveries waiting for a retry. */
  pendingCount(): number {
    return this.pending.length
  }

  private async attempt(delivery: PendingDelivery): Promise<void> {
    const stored = this.hooks.get(delivery.webhookID)
    if (!stored || !stored.webhook.active) return
    const atSec = this.clock.nowSec()
    let status: number | null = null
    let error: string | undefined
    try {
      const res = await fetch(stored.webhook.webhookURL, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(stored.webhook.authHeader !== undefined
            ? { authorization: stored.webhook.authHeader }
            : {}),
        },
        body: JSON.stringify(delivery.payload),
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      })
      status = res.status
      await res.arrayBuffer().catch(() => undefined)
    } catch (e) {
      error = e instanceof Error ? e.message : String(e)
    }
    const ok = status !== null && status >= 200 && status < 300
    this.log.push({
      webhookID: delivery.webhookID,
      attempt: delivery.attempt,
      atSec,
      status,
      ok,
      signatures: delivery.signatures,
      ...(error ? { error } : {}),
    })
    if (this.log.length > LOG_LIMIT) this.log.shift()
    stored.recent.push(ok)
    if (stored.recent.length > FAILURE_WINDOW) stored.recent.shift()
    if (ok) {
      // Each delivered event costs 1 credit.
      this.credits.charge(
        stored.ownerKey,
        'webhooks.delivery',
        CREDITS_PER_WEBHOOK_EVENT * delivery.payload.length,
      )
      return
    }
    const failures = stored.recent.filter((r) => !r).length
    if (
      stored.recent.length >= FAILURE_WINDOW &&
      failures / stored.recent.length >= FAILURE_SHARE_TO_DISABLE &&
      atSec >= stored.graceUntilSec
    ) {
      stored.webhook.active = false
      this.pending = this.pending.filter((p) => p.webhookID !== delivery.webhookID)
      return
    }
    if (delivery.attempt < MAX_RETRIES) {
      this.pending.push({
        ...delivery,
        attempt: delivery.attempt + 1,
        dueSec: atSec + RETRY_DELAY_SEC,
      })
    }
  }
}
