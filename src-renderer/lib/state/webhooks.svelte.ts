import type { WebhookAction, WebhookPlan } from '@shared/domain/webhook-plan'
import type { WebhookListing } from '@shared/ipc/webhook-schemas'
import { client } from './connection.svelte'

/** A service call waiting for the person's yes: what it does, and its cost in words. */
export interface PendingCall {
  /** What will happen, in a sentence. */
  title: string
  /** The cost on the confirm button: "Disable — 100 credits". */
  words: string
  run: () => Promise<void>
}

export const webhooks = $state<{
  listing: WebhookListing | null
  plans: Partial<Record<WebhookAction, WebhookPlan>>
  pending: PendingCall | null
  isRunning: boolean
  error: string | null
}>({ listing: null, plans: {}, pending: null, isRunning: false, error: null })

const ACTIONS: WebhookAction[] = ['list', 'get', 'create', 'update', 'delete', 'enable', 'disable']

/** Reads the list as last fetched (free, offline) and each action's cost. */
export async function loadWebhooks(): Promise<void> {
  const plans = await Promise.all(ACTIONS.map((action) => client.call('webhooks:plan', { action })))
  webhooks.plans = Object.fromEntries(plans.map((p) => [p.action, p]))
  webhooks.listing = await client.call('webhooks:cached')
}

/** An action's cost in words, "Disable — 100 credits"; with `label`, under another name. */
export function costWords(action: WebhookAction, label?: string): string {
  const plan = webhooks.plans[action]
  if (!plan) return label ?? action
  if (label === undefined) return plan.words
  return `${label} — ${plan.words.split(' — ')[1] ?? ''}`
}

/** Asks for a yes before a paid call; nothing is sent until {@link confirmPending}. */
export function askToRun(call: PendingCall): void {
  webhooks.error = null
  webhooks.pending = call
}

/** Runs the call waiting for a yes, then re-reads the kept list. */
export async function confirmPending(): Promise<void> {
  const call = webhooks.pending
  if (!call) return
  webhooks.isRunning = true
  try {
    await call.run()
    webhooks.listing = await client.call('webhooks:cached')
  } catch (e) {
    webhooks.error = e instanceof Error ? e.message : String(e)
  } finally {
    webhooks.pending = null
    webhooks.isRunning = false
  }
}
