import { z } from 'zod'
import { AlertRuleInput, AlertRuleOptions, AlertTrigger, HealthKind } from '../domain/alert-rules'

// Alerts as the app, the CLI's --json and outbound channels show them: one view of an
// alert and of its delivery on each channel.

export { AlertRuleInput, AlertRuleOptions, AlertTrigger, HealthKind }

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
  /** ISO-8601 UTC, when it is tried next (pending, or failed and retrying); null once settled. */
  nextAttemptAt: z.string().nullable(),
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

/** A stored rule, as `alerts list --json` prints it and the Alerts page lists it. */
export const AlertRuleView = z.object({
  id: z.number().int(),
  name: z.string(),
  trigger: AlertTrigger,
  options: AlertRuleOptions,
  scope: z.object({ wallets: z.array(z.string()), tags: z.array(z.string()) }),
  channels: z.array(z.string()),
  cooldownSec: z.number().int(),
  isMuted: z.boolean(),
  /** ISO-8601 UTC. */
  createdAt: z.string(),
})
export type AlertRuleView = z.infer<typeof AlertRuleView>

export const AlertRuleIdInput = z.strictObject({ id: z.number().int().positive() })

export const AlertMuteInput = z.strictObject({
  id: z.number().int().positive(),
  isMuted: z.boolean(),
})

/** The most alerts one history page holds. */
export const MAX_ALERT_HISTORY = 500

export const AlertHistoryInput = z.strictObject({
  limit: z.number().int().min(1).max(MAX_ALERT_HISTORY).default(50),
  /** The page after this alert (older ones). */
  beforeId: z.number().int().positive().optional(),
})

export const AlertHistoryPage = z.object({
  alerts: z.array(AlertView),
  /** Alerts not seen in the app yet (the bell's count). */
  unread: z.number().int(),
})
export type AlertHistoryPage = z.infer<typeof AlertHistoryPage>

export const AlertMarkReadInput = z.strictObject({ upToId: z.number().int().positive() })

/** The longest stretch of the past a rule is tried on. */
export const MAX_TRY_DAYS = 365

/** Try a saved rule (by id) or one being written, on the mirror's last `days` days. */
export const AlertTryInput = z.strictObject({
  rule: z.union([AlertRuleIdInput, AlertRuleInput]),
  days: z.number().int().min(1).max(MAX_TRY_DAYS),
})
export type AlertTryInput = z.input<typeof AlertTryInput>

/** The most would-be alerts a trial lists (it counts them all). */
export const MAX_TRY_LISTED = 200

/** How often a rule would have fired on the past, and what it would have said. */
export const AlertTrial = z.object({
  days: z.number().int(),
  /** Alerts it would have sent, after its cool-down gathered bursts. */
  fired: z.number().int(),
  /** Matches before gathering (a cluster kept quiet within its window is none). */
  matches: z.number().int(),
  transactionsExamined: z.number().int(),
  snapshotsExamined: z.number().int(),
  /** The first MAX_TRY_LISTED of them, oldest first. */
  alerts: z.array(
    z.object({
      wallet: z.string().nullable(),
      signature: z.string().nullable(),
      /**
       * ISO-8601 UTC: when it would have been sent (the match's time, or the end of the
       * rule's cool-down for one that gathered matches).
       */
      at: z.string(),
      text: z.string(),
      matchCount: z.number().int(),
    }),
  ),
})
export type AlertTrial = z.infer<typeof AlertTrial>
