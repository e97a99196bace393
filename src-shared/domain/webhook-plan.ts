import { z } from 'zod'
import { getOperation, type OperationName } from '../api/operations'
import { creditsPerCall } from '../api/prices'
import { countText } from './display-text'

/** What a person can do to webhooks; each is one service call of 100 credits. */
export const WebhookAction = z.enum([
  'list',
  'get',
  'create',
  'update',
  'delete',
  'enable',
  'disable',
])
export type WebhookAction = z.infer<typeof WebhookAction>

/** What an action will cost, said before it runs. */
export const WebhookPlan = z.object({
  action: WebhookAction,
  /** The service operation it calls, e.g. `webhooks.toggle`. */
  operation: z.string(),
  credits: z.number().int(),
  /** The cost in words, for a button or a confirmation: "Disable — 100 credits". */
  words: z.string(),
})
export type WebhookPlan = z.infer<typeof WebhookPlan>

/** The service operation each action calls: enable and disable are the PATCH toggle. */
const OPERATION_OF: Record<WebhookAction, OperationName> = {
  list: 'webhooks.list',
  get: 'webhooks.get',
  create: 'webhooks.create',
  update: 'webhooks.update',
  delete: 'webhooks.delete',
  enable: 'webhooks.toggle',
  disable: 'webhooks.toggle',
}

/** How an action is named on its button. */
const LABEL_OF: Record<WebhookAction, string> = {
  list: 'Refresh',
  get: 'Read',
  create: 'Create',
  update: 'Save changes',
  delete: 'Delete',
  enable: 'Enable',
  disable: 'Disable',
}

/**
 * What an action will cost, said before it runs: one call at the operation's price.
 *
 * @example
 * planWebhookAction('disable').words // 'Disable — 100 credits'
 */
export function planWebhookAction(action: WebhookAction): WebhookPlan {
  const operation = OPERATION_OF[action]
  const credits = creditsPerCall(getOperation(operation).priceKey)
  return {
    action,
    operation,
    credits,
    words: `${LABEL_OF[action]} — ${countText(credits, 'credit')}`,
  }
}
