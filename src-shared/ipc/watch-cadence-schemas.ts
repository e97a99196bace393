import { z } from 'zod'
import { RatePlan, WatchCadence } from './settings-schemas'

// `watch:cadence` and `watch:set-cadence`: the watching cadence with what each clock costs
// and how soon each kind of change is seen at it (`heliograph watch cadence`).

/** Input of `watch:set-cadence`: the clocks to change (the rest stay), and watching on or off. */
export const WatchCadenceChange = z
  .strictObject(WatchCadence.shape)
  .partial()
  .refine((c) => Object.values(c).some((v) => v !== undefined), {
    message: 'name at least one clock to change, or turn watching on or off',
  })
export type WatchCadenceChange = z.input<typeof WatchCadenceChange>

const Credits = z.number().min(0)

/** One clock of the cadence: how often as set, how often it runs now, what it costs a day. */
export const WatchClockView = z.object({
  clock: z.enum([
    'checkEverySec',
    'tokenAccountsEverySec',
    'compressedEverySec',
    'backstopEverySec',
  ]),
  everySec: z.number().int().positive(),
  /** Slower than set while webhook deliveries are trusted (the probe's floors). */
  runsEverySec: z.number().int().positive(),
  creditsPerDay: Credits,
})

/** One kind of change: what finds it and how soon, polling at the cadence and with webhooks. */
export const ChangeBoundView = z.object({
  change: z.string(),
  short: z.string(),
  foundBy: z.string(),
  clock: WatchClockView.shape.clock,
  withinSec: z.number().int().positive(),
  withWebhooks: z.string(),
})

/** The cadence as saved, what it costs for the current watchlist, and what it bounds. */
export const WatchCadenceView = z.object({
  cadence: WatchCadence,
  /** Slowed to last the month's credits (Settings: fit to budget), in words; null when not. */
  fittedLine: z.string().nullable(),
  /** How new transactions arrive now: polling, or webhook deliveries (a team server's). */
  mode: z.enum(['polling', 'webhook']),
  wallets: z.number().int().min(0),
  clocks: z.array(WatchClockView),
  changeSyncsPerDay: Credits,
  /** Webhook mode: deliveries and the routine look at the webhook. */
  webhooksPerDay: Credits,
  perDay: Credits,
  perMonth: Credits,
  /** Share of the monthly budget, else of the plan's credits; null when neither is known. */
  shareOfMonth: z.number().min(0).nullable(),
  shareOf: z.enum(['plan', 'monthly budget']),
  plan: RatePlan,
  changes: z.array(ChangeBoundView),
  /** How soon a new account someone else opens for a wallet is seen, in each mode. */
  newAccountSeen: z.string(),
})
export type WatchCadenceView = z.infer<typeof WatchCadenceView>
