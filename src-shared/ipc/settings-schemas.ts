import { z } from 'zod'
import { ServiceUrl } from '../domain/service-url'

/** Where the data comes from: the built-in simulator (no key), or the real service. */
export const DataSource = z.enum(['demo', 'service'])
export type DataSource = z.infer<typeof DataSource>

/** A plan of the service (docs/service.md, Rate limits), custom numbers, or unpaced. */
export const RatePlan = z.enum(['free', 'developer', 'business', 'professional', 'custom', 'off'])
export type RatePlan = z.infer<typeof RatePlan>

/** Requests per second per endpoint class, for the custom plan. */
export const CustomRates = z.object({
  rpc: z.number().positive().max(10_000),
  'das-enhanced': z.number().positive().max(10_000),
  photon: z.number().positive().max(10_000),
  'validity-proof': z.number().positive().max(10_000),
})
export type CustomRates = z.infer<typeof CustomRates>

const Credits = z.number().int().min(0).max(10_000_000_000).nullable()

/**
 * How the app keeps the API key. `basic-text` is Electron's warning case: no OS keyring, a
 * fixed password. `unavailable`: the system offers no way to encrypt it now, so a key can
 * be neither stored nor read.
 */
export const KeyStorage = z.enum(['safe-storage', 'basic-text', 'file-0600', 'unavailable'])
export type KeyStorage = z.infer<typeof KeyStorage>

/**
 * Why the renderer must ask for the key again. `unreadable`: a key is stored but cannot be
 * read (the keyring is locked, gone or was reset, or the file is damaged); entering it
 * again replaces it. `cleared-for-new-origin`: a service URL moved to a host the key never
 * went to, so the key was removed until the person enters it for that host.
 */
/**
 * Why the key must be entered: it could not be read, it was removed before a move to a new
 * host, or the person's own data is shown and no key was ever entered (`missing`).
 */
export const KeyNotice = z.enum(['unreadable', 'cleared-for-new-origin', 'missing'])
export type KeyNotice = z.infer<typeof KeyNotice>

const DAY_SEC = 86_400
const Seconds = (min: number, max: number) => z.number().int().min(min).max(max)

/**
 * How watching spends credits. Every `checkEverySec` one balance look covers all watched
 * wallets and their token accounts (1 credit per 100 accounts); token accounts are listed
 * again every `tokenAccountsEverySec` (a new token someone sends appears only there);
 * compressed balances of wallets with compressed state are compared every
 * `compressedEverySec`; and every `backstopEverySec` each wallet's history is checked in
 * full, catching what no balance shows.
 */
export const WatchCadence = z
  .object({
    isWatching: z.boolean(),
    checkEverySec: Seconds(15, DAY_SEC),
    tokenAccountsEverySec: Seconds(60, 7 * DAY_SEC),
    compressedEverySec: Seconds(60, 7 * DAY_SEC),
    backstopEverySec: Seconds(3_600, 30 * DAY_SEC),
  })
  .refine((c) => c.checkEverySec <= c.backstopEverySec, {
    message: 'the full check cannot be more frequent than the balance check',
    path: ['backstopEverySec'],
  })
export type WatchCadence = z.infer<typeof WatchCadence>

/** The settings the renderer sees. Never the API key itself: only its last 4 characters. */
/** How often the service is asked again for the names of addresses: monthly by default. */
export const DEFAULT_NAMES_REFRESH_DAYS = 30

/** Days between asking again for a name (identity, batch-identity): one to a year. */
export const NamesRefreshDays = z.number().int().min(1).max(365)

/** The clock dates are shown in, everywhere in the app: the computer's time zone or UTC. */
export const DisplayTimeZone = z.enum(['local', 'utc'])

export const AppSettings = z.object({
  dataSource: DataSource,
  walletRestBaseUrl: z.string(),
  v0RestBaseUrl: z.string(),
  jsonRpcUrl: z.string(),
  plan: RatePlan,
  customRates: CustomRates.nullable(),
  dailyBudget: Credits,
  monthlyBudget: Credits,
  watch: WatchCadence,
  namesRefreshDays: NamesRefreshDays,
  timeZone: DisplayTimeZone,
  /** "…4f2a" when a key is stored, else null. */
  apiKeyHint: z.string().nullable(),
  /** How a key is (or would be) kept here. */
  keyStorage: KeyStorage,
  keyNotice: KeyNotice.nullable(),
  /** The data folder; null for a team account that is not an admin. */
  dataDir: z.string().nullable(),
})
export type AppSettings = z.infer<typeof AppSettings>

/**
 * Input of `settings:update`: any editable subset. A service URL on an origin the key does
 * not go to yet clears the stored key (the answer's `keyNotice` says so).
 */
export const SettingsUpdate = z
  .object({
    walletRestBaseUrl: ServiceUrl,
    v0RestBaseUrl: ServiceUrl,
    jsonRpcUrl: ServiceUrl,
    plan: RatePlan,
    customRates: CustomRates.nullable(),
    dailyBudget: Credits,
    monthlyBudget: Credits,
    watch: WatchCadence,
    namesRefreshDays: NamesRefreshDays,
    timeZone: DisplayTimeZone,
  })
  .partial()
  .strict()
export type SettingsUpdate = z.input<typeof SettingsUpdate>

/** Input of `settings:set-api-key`. The key goes to main and never comes back. */
export const SetApiKeyInput = z.object({
  apiKey: z
    .string()
    .trim()
    .min(8, 'The API key looks too short (at least 8 characters).')
    .max(200, 'The API key looks too long (at most 200 characters).')
    .regex(/^[\x21-\x7e]+$/, 'The API key may only contain printable characters without spaces.'),
})

/**
 * Input of `settings:set-data-source`: the person's explicit choice between the demo
 * mirror (built-in simulator, its own data file) and their own mirror (needs a stored key).
 */
export const SetDataSourceInput = z.object({ source: DataSource })

/** Input of `data:delete-all`: the word DELETE, typed by the person, as confirmation. */
export const DeleteAllInput = z.object({ confirm: z.literal('DELETE', 'Type DELETE to confirm.') })
