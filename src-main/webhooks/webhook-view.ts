import type { WebhookState, WebhookView } from '@shared/ipc/webhook-schemas'
import type { StoredWebhook } from '../db/stores/webhook-store'

/**
 * A webhook's state: the service reports only `active`, so an inactive webhook this app
 * did not disable was turned off by the service (its deliveries kept failing).
 */
export function webhookStateOf(stored: StoredWebhook): WebhookState {
  if (stored.webhook.active) return 'active'
  return stored.disabledHereAtSec !== null ? 'disabled' : 'auto-disabled'
}

/** A kept webhook as the page and the CLI show it; the auth header only as set or not. */
export function webhookViewOf(stored: StoredWebhook): WebhookView {
  const { webhook } = stored
  return {
    webhookID: webhook.webhookID,
    state: webhookStateOf(stored),
    // The interface names enhanced the default kind.
    webhookType: webhook.webhookType ?? 'enhanced',
    webhookURL: webhook.webhookURL,
    accountAddresses: webhook.accountAddresses,
    transactionTypes: webhook.transactionTypes ?? [],
    isAuthHeaderSet: stored.isAuthHeaderSet,
    encoding: webhook.encoding ?? null,
    txnStatus: webhook.txnStatus ?? null,
    reenabledAtSec: stored.reenabledAtSec,
    fetchedAtSec: stored.fetchedAtSec,
  }
}
