import { z } from 'zod'
import { listOrEmpty } from './answer-edge'
import { WalletAddress } from './base58'
import { WebhookTransactionType, WebhookType } from './enums'

// Webhook management under {rest_url}/v0/webhooks (docs/service.md, Webhooks): list, get,
// create, update, delete and the PATCH toggle. 100 credits per management call.

/** Webhook limits: 5 webhooks on the free plan, 50 on paid plans, 100,000 addresses each. */
export const WEBHOOK_LIMITS = {
  freePlanWebhooks: 5,
  paidPlanWebhooks: 50,
  addressesPerWebhook: 100_000,
} as const

/** Webhook id: a UUIDv4. */
const WebhookId = z.uuidv4()

/**
 * Webhook (docs/service.md, Webhooks); `encoding` and `txnStatus` values are undocumented.
 * Read at the edge: the SDK and the published schema leave `active` out (it defaults to
 * true), and the service's lists of types and kinds grow, so a type or kind the app does
 * not know stays as its text.
 */
export const Webhook = z.object({
  webhookID: z.string(),
  wallet: z.string(),
  webhookURL: z.string(),
  // Applies to enhanced webhooks only, so other kinds may omit it.
  transactionTypes: listOrEmpty(z.string()),
  accountAddresses: listOrEmpty(z.string()),
  authHeader: z.string().optional(),
  active: z.boolean().default(true),
  webhookType: z.string().optional(),
  // Values undocumented.
  encoding: z.string().optional(),
  txnStatus: z.string().optional(),
})
export type Webhook = z.infer<typeof Webhook>

const webhookFields = {
  webhookURL: z.url({ protocol: /^https?$/ }),
  transactionTypes: z.array(WebhookTransactionType).min(1),
  accountAddresses: z.array(WalletAddress).min(1).max(WEBHOOK_LIMITS.addressesPerWebhook),
  webhookType: WebhookType,
  authHeader: z.string().min(1).optional(),
  encoding: z.string().min(1).optional(),
  txnStatus: z.string().min(1).optional(),
}

/** GET /v0/webhooks: no parameters. */
export const ListWebhooksRequest = z.strictObject({})
export type ListWebhooksRequest = z.input<typeof ListWebhooksRequest>

/** List response: array of webhooks. */
export const ListWebhooksResponse = z.array(Webhook)
export type ListWebhooksResponse = z.infer<typeof ListWebhooksResponse>

/** GET /v0/webhooks/{webhookID}. */
export const GetWebhookRequest = z.strictObject({ webhookID: WebhookId })
export type GetWebhookRequest = z.input<typeof GetWebhookRequest>

/** The webhook read. */
export const GetWebhookResponse = Webhook

/** POST /v0/webhooks body. */
export const CreateWebhookRequest = z.strictObject(webhookFields)
export type CreateWebhookRequest = z.input<typeof CreateWebhookRequest>

/** The created webhook. */
export const CreateWebhookResponse = Webhook

/** PUT /v0/webhooks/{webhookID}: the id plus the fields to change. */
export const UpdateWebhookRequest = z.strictObject({
  webhookID: WebhookId,
  ...z.strictObject(webhookFields).partial().shape,
})
export type UpdateWebhookRequest = z.input<typeof UpdateWebhookRequest>

/** The updated webhook. */
export const UpdateWebhookResponse = Webhook

/** DELETE /v0/webhooks/{webhookID}. */
export const DeleteWebhookRequest = z.strictObject({ webhookID: WebhookId })
export type DeleteWebhookRequest = z.input<typeof DeleteWebhookRequest>

/** Delete response: body undocumented; an empty body reads as null, a JSON object is tolerated. */
export const DeleteWebhookResponse = z.union([z.null(), z.object({}), z.boolean()])
export type DeleteWebhookResponse = z.infer<typeof DeleteWebhookResponse>

/** PATCH /v0/webhooks/{webhookID} body `{ active }` with the id from the path: enables or disables. */
export const ToggleWebhookRequest = z.strictObject({ webhookID: WebhookId, active: z.boolean() })
export type ToggleWebhookRequest = z.input<typeof ToggleWebhookRequest>

/** The toggled webhook. */
export const ToggleWebhookResponse = Webhook
