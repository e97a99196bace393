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

/** One item of the service's answers the app could not read, kept aside with its reason. */
export const KeptAsideView = z.object({
  wallet: z.string(),
  label: z.string().nullable(),
  /** history | transfers | balances */
  stream: z.string(),
  /** The operation whose answer held it, e.g. `wallet.history`. */
  operation: z.string(),
  /** Its signature or mint, else `json:` and a hash of its JSON. */
  key: z.string(),
  /** What was wrong, naming the field. */
  reason: z.string(),
  /** When it was first and last read, ISO-8601 UTC. */
  firstSeen: z.string(),
  lastSeen: z.string(),
  /** How many answers carried it. */
  seenCount: z.number().int(),
  /** When a later version read it and wrote it (ISO-8601 UTC); null while kept aside. */
  written: z.string().nullable(),
  /** The item exactly as the service sent it. */
  raw: z.unknown(),
})
export type KeptAsideView = z.infer<typeof KeptAsideView>

/** `health:kept-aside` (and `heliograph doctor`): what is kept aside, and the line health says. */
export const KeptAsideReport = z.object({
  keptAside: z.array(KeptAsideView),
  /** The service-shape condition's line, or null when nothing is kept aside. */
  line: z.string().nullable(),
})
export type KeptAsideReport = z.infer<typeof KeptAsideReport>

export const KeptAsideInput = z
  .object({
    /** Also list the items a later version read and wrote. */
    includeWritten: z.boolean().default(false),
  })
  .default({ includeWritten: false })
