import type { ApiKeys } from '../api-keys'
import type { SimChain } from '../chain/sim-chain'
import type { WebhookDeliveries } from '../webhook-deliveries'

/** What every operation handler may use: the chain, the caller's key and the webhook store. */
export interface HandlerContext {
  readonly chain: SimChain
  readonly key: string
  readonly keys: ApiKeys
  readonly webhooks: WebhookDeliveries
}

/** Upper bound of transactions one request scans for filtered listings, so no request is unbounded. */
export const SCAN_BUDGET = 20_000
