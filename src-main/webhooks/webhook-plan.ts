import { getOperation, type OperationName } from '@shared/api/operations'
import { creditsPerCall } from '@shared/api/prices'
import { countText } from '@shared/domain/count-text'
import type { WebhookAction, WebhookPlan } from '@shared/ipc/webhook-schemas'

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
