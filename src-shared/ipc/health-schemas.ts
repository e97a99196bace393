import { z } from 'zod'
import { HealthKind } from '../domain/alert-rules'

/** One active health condition, with the words the banner and `status` show. */
export const HealthConditionView = z.object({
  kind: HealthKind,
  /** When it began: ISO-8601 UTC, and UTC seconds. */
  since: z.string(),
  sinceSec: z.number().int(),
  /** What happened, e.g. "The service rejected the API key (HTTP 401)". */
  detail: z.string(),
  /** "Syncing stopped: the service rejected the API key (since 12:03 UTC)." */
  headline: z.string(),
  /** What to do about it. */
  action: z.string(),
  /** Whether it stops syncing (else it slows it or warns). */
  isSyncStopped: z.boolean(),
})
export type HealthConditionView = z.infer<typeof HealthConditionView>

/** Watching slowed to last the month's credits (fit to budget), with the line that says so. */
export const BudgetFitView = z.object({
  baseCheckEverySec: z.number().int(),
  checkEverySec: z.number().int(),
  line: z.string(),
})
export type BudgetFitView = z.infer<typeof BudgetFitView>

/** `health:status` and the `health:changed` event: what stops or slows syncing now. */
export const HealthStatus = z.object({
  conditions: z.array(HealthConditionView),
  budgetFit: BudgetFitView.nullable(),
})
export type HealthStatus = z.infer<typeof HealthStatus>
