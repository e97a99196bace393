import { z } from 'zod'
import { ServiceUrl } from '../domain/service-url'

/** Where the data comes from: the built-in simulator (no key), or the real service. */
export const DataSource = z.enum(['demo', 'service'])
export type DataSource = z.infer<typeof DataSource>

/** A plan of the service (docs/service.md, Rate limits), custom numbers, or unpaced. */
export const RatePlan = z.enum(['free', 'developer', 'business', 'professional', 'custom', 'off'])
export type RatePlan = z.infer<typeof RatePlan>

/** One class's requests per second on the Custom plan, refused in words naming the class. */
const RequestsPerSecond = (name: string) =>
  z
    .number(`${name} requests per second (Custom plan) must be a number.`)
    .positive(`${name} requests per second (Custom plan) must be more than 0.`)
    .max(10_000, `${name} requests per second (Custom plan) can be at most 10,000.`)

/**
 * Requests per second per endpoint class, for the custom plan: the same four limits the
 * service's plans publish (RPC / DAS & enhanced / Photon / getValidityProof).
 */
export const CustomRates = z.object({
  rpc: RequestsPerSecond('RPC'),
  'das-enhanced': RequestsPerSecond('DAS and enhanced'),
  photon: RequestsPerSecond('Photon'),
  'validity-proof': RequestsPerSecond('Validity proof'),
})
export type CustomRates = z.infer<typeof CustomRates>

/** The monthly credits a Custom plan includes (null: not said), as the plans publish theirs. */
export const CustomMonthlyCredits = z
  .number('Monthly credits (Custom plan) must be a number.')
  .int('Monthly credits (Custom plan) must be a whole number.')
  .positive('Monthly credits (Custom plan) must be more than 0.')
  .max(10_000_000_000, 'Monthly credits (Custom plan) can be at most 10,000,000,000.')
  .nullable()

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
    message: 'The full check cannot be more frequent than the balance check.',
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
  customMonthlyCredits: CustomMonthlyCredits,
  dailyBudget: Credits,
  monthlyBudget: Credits,
  /**
   * The monthly budget is the plan's monthly credits and moves with the plan (a new data
   * folder's default), until the person sets one of their own.
   */
  monthlyBudgetFollowsPlan: z.boolean(),
  watch: WatchCadence,
  /** Slow watching to last the month's credits when the projection exceeds them. */
  fitToBudget: z.boolean(),
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
 * An API key as the person pastes it. Keys come in many shapes (the simulator's are short),
 * so any non-empty key is taken; whitespace is refused rather than trimmed, because a
 * space or line break inside means more than the key was pasted. Printable ASCII only: the
 * key travels in an HTTP header and a query string.
 */
export const ApiKey = z
  .string()
  .refine((key) => key.trim() !== '', 'The API key is empty.')
  .refine(
    (key) => key.trim() === '' || !/\s/.test(key),
    'The API key contains a space or line break; paste only the key.',
  )
  .refine(
    (key) => /\s/.test(key) || /^[\x21-\x7e]*$/.test(key),
    'The API key may only contain printable ASCII characters (letters, digits, signs).',
  )
  .refine((key) => key.length <= 200, 'The API key looks too long (at most 200 characters).')

/**
 * Input of `settings:update`: any editable subset. A service URL on an origin the key does
 * not go to yet clears the stored key (the answer's `keyNotice` says so), unless the same
 * update carries `apiKey`: the person typed the key for the new URLs, which is their
 * consent to send it there (the key is then stored, and their own data chosen, as
 * `settings:set-api-key` does).
 */
export const SettingsUpdate = z
  .object({
    walletRestBaseUrl: ServiceUrl,
    v0RestBaseUrl: ServiceUrl,
    jsonRpcUrl: ServiceUrl,
    plan: RatePlan,
    customRates: CustomRates.nullable(),
    customMonthlyCredits: CustomMonthlyCredits,
    dailyBudget: Credits,
    monthlyBudget: Credits,
    /** True: the monthly budget is the plan's monthly credits again (a budget sent with it is ignored). */
    monthlyBudgetFollowsPlan: z.boolean(),
    watch: WatchCadence,
    fitToBudget: z.boolean(),
    namesRefreshDays: NamesRefreshDays,
    timeZone: DisplayTimeZone,
    apiKey: ApiKey,
  })
  .partial()
  .strict()
export type SettingsUpdate = z.input<typeof SettingsUpdate>

/** Input of `settings:set-api-key`. The key goes to main and never comes back. */
export const SetApiKeyInput = z.object({ apiKey: ApiKey })

/**
 * Input of `settings:set-data-source`: the person's explicit choice between the demo
 * mirror (built-in simulator, its own data file) and their own mirror (needs a stored key).
 */
export const SetDataSourceInput = z.object({ source: DataSource })

/** Input of `data:delete-all`: the word DELETE, typed by the person, as confirmation. */
export const DeleteAllInput = z.object({ confirm: z.literal('DELETE', 'Type DELETE to confirm.') })
