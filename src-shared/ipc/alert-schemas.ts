import { z } from 'zod'
import { AlertRuleInput, AlertTrigger, HealthKind } from '../domain/alert-rules'

// Alerts as the app, the CLI's --json and outbound channels show them: one view of an
// alert and of its delivery on each channel.

export { AlertRuleInput, AlertTrigger, HealthKind }

/** An alert's state on one channel. */
export const DeliveryState = z.enum(['pending', 'delivered', 'failed', 'gave-up'])
export type DeliveryState = z.infer<typeof DeliveryState>

/** One channel's delivery of an alert (the delivery log). */
export const AlertDeliveryView = z.object({
  channel: z.string(),
  state: DeliveryState,
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  /** ISO-8601 UTC, when it was delivered; null until then. */
  deliveredAt: z.string().nullable(),
})
export type AlertDeliveryView = z.infer<typeof AlertDeliveryView>

/** One movement an alert is about, for channels that show amounts. */
export const AlertAmount = z.object({
  mint: z.string(),
  symbol: z.string().nullable(),
  /** Exact decimal text, signed: positive came in. */
  amount: z.string(),
  usd: z.number().nullable(),
})
export type AlertAmount = z.infer<typeof AlertAmount>

/** What caused an alert, kept with it (the outbox row's detail). */
export const AlertDetail = z.object({
  /** Every transaction gathered into it, oldest first (empty for balance and health alerts). */
  signatures: z.array(z.string()),
  amounts: z.array(AlertAmount),
  /** The transaction's type, when one transaction caused it. */
  transactionKind: z.string().nullable(),
})
export type AlertDetail = z.infer<typeof AlertDetail>

/** One alert, as `alerts history --json` prints it and the Alerts page lists it. */
export const AlertView = z.object({
  id: z.number().int(),
  kind: z.enum(['rule', 'health']),
  /** The rule that fired; null for a health alert (or a rule since removed: name kept). */
  rule: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  healthKind: z.string().nullable(),
  wallet: z.string().nullable(),
  walletLabel: z.string().nullable(),
  signature: z.string().nullable(),
  /** ISO-8601 UTC. */
  firedAt: z.string(),
  text: z.string(),
  matchCount: z.number().int(),
  amounts: z.array(AlertAmount),
  isRead: z.boolean(),
  deliveries: z.array(AlertDeliveryView),
})
export type AlertView = z.infer<typeof AlertView>
