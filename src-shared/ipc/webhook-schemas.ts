import { z } from 'zod'
import { WebhookTransactionType, WebhookType } from '../api/enums'
import { WebhookAction, WebhookPlan } from '../domain/webhook-plan'
import {
  CreateWebhookRequest,
  DeleteWebhookRequest,
  GetWebhookRequest,
  ToggleWebhookRequest,
  UpdateWebhookRequest,
} from '../api/webhooks'

// Webhook management (issue 15): the service's own request shapes as channel inputs, and
// a view of each webhook that never carries its auth header back (it is a secret).

// The service's webhook kinds and transaction types are the create and update forms' choices.
export { WebhookAction, WebhookPlan, WebhookTransactionType, WebhookType }

export const WebhookPlanInput = z.object({ action: WebhookAction })

/**
 * A webhook's state. The service reports only `active`; an inactive webhook this app did
 * not disable was turned off by the service for failing deliveries (or from elsewhere).
 */
export const WebhookState = z.enum(['active', 'disabled', 'auto-disabled'])
export type WebhookState = z.infer<typeof WebhookState>

/** One webhook as the app shows it: the auth header only as set or not set. */
export const WebhookView = z.object({
  webhookID: z.string(),
  state: WebhookState,
  // The service's kinds and types grow: one the app does not list stays as its text.
  webhookType: z.string(),
  webhookURL: z.string(),
  accountAddresses: z.array(z.string()),
  transactionTypes: z.array(z.string()),
  isAuthHeaderSet: z.boolean(),
  encoding: z.string().nullable(),
  txnStatus: z.string().nullable(),
  /** When this app last re-enabled it: the service's 24-hour grace period runs from then. */
  reenabledAtSec: z.number().int().nullable(),
  /** When this app fetched or changed it. */
  fetchedAtSec: z.number().int(),
})
export type WebhookView = z.infer<typeof WebhookView>

/** The webhooks as last listed, kept in the mirror so the page opens offline. */
export const WebhookListing = z.object({
  webhooks: z.array(WebhookView),
  /** When the list was last fetched from the service; null before the first time. */
  listedAtSec: z.number().int().nullable(),
})
export type WebhookListing = z.infer<typeof WebhookListing>

export const WebhookIdInput = GetWebhookRequest
export const WebhookCreateInput = CreateWebhookRequest
export const WebhookUpdateInput = UpdateWebhookRequest
export const WebhookToggleInput = ToggleWebhookRequest
export const WebhookDeleteInput = DeleteWebhookRequest

/** Create a webhook on every watched wallet: the person gives the URL and picks types. */
export const WebhookFromWatchlistInput = CreateWebhookRequest.omit({
  accountAddresses: true,
}).extend({
  transactionTypes: CreateWebhookRequest.shape.transactionTypes.default(['ANY']),
  webhookType: WebhookType.default('enhanced'),
})

/** One line of webhook mode's log, e.g. "Webhook deliveries stopped at 14:02 UTC (…)". */
export const WebhookModeLine = z.object({
  atSec: z.number().int(),
  /** How watching learned of new transactions after this line. */
  mode: z.enum(['webhook', 'polling']),
  line: z.string(),
})
export type WebhookModeLine = z.infer<typeof WebhookModeLine>

/**
 * Webhook mode as the Activity page shows it (`webhooks:mode`): whether this server runs
 * it, how watching learns of new transactions now, and the newest lines of its log.
 */
export const WebhookModeStatus = z.object({
  isOn: z.boolean(),
  /** Null while off. */
  mode: z.enum(['webhook', 'polling']).nullable(),
  lastDeliverySec: z.number().int().nullable(),
  /** Newest first. */
  lines: z.array(WebhookModeLine),
})
export type WebhookModeStatus = z.infer<typeof WebhookModeStatus>
