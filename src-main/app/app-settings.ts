import { planMonthlyCredits } from '@shared/domain/credit-prices'
import { DEFAULT_NAMES_REFRESH_DAYS } from '@shared/ipc/settings-schemas'
import type {
  AppSettings,
  CustomRates,
  DataSource,
  KeyNotice,
  RatePlan,
  WatchCadence,
} from '@shared/ipc/settings-schemas'
import type { DisplayTimeZone } from '@shared/domain/display-text'
import type { SettingsStore } from '../db/stores/settings-store'
import { DEFAULT_SERVICE_URLS } from '../service/service-settings'

/** The app's settings, kept in the home mirror (everything but the key). */
export interface StoredSettings {
  walletRestBaseUrl: string
  v0RestBaseUrl: string
  jsonRpcUrl: string
  plan: RatePlan
  customRates: CustomRates | null
  /** The Custom plan's monthly credits, where the plans' published ones are quoted. */
  customMonthlyCredits: number | null
  dailyBudget: number | null
  monthlyBudget: number | null
  /**
   * The monthly budget is the plan's monthly credits, moving with the plan: a new data
   * folder's default, until the person sets a budget of their own. Folders made before
   * this default keep theirs (false).
   */
  monthlyBudgetFollowsPlan: boolean
  watch: WatchCadence
  /** Fit to budget: slow watching to last the month's credits rather than run out (default on). */
  fitToBudget: boolean
  /** Days before a name asked of the service is asked again. */
  namesRefreshDays: number
  /** The clock the app shows dates in. */
  timeZone: DisplayTimeZone
  /**
   * The data source the person chose; null follows the key (own data with a key, demo
   * data without one).
   */
  dataSource: DataSource | null
  /**
   * The key was removed because a service URL moved to a new origin; stays true until a key
   * is entered (or removed) again, so the renderer keeps asking for it.
   */
  isKeyClearedForNewOrigin: boolean
}

/**
 * How a new data folder watches: balances every minute, token-account lists hourly,
 * compressed balances every 10 minutes, the full check daily.
 */
export const DEFAULT_WATCH_CADENCE: WatchCadence = {
  isWatching: true,
  checkEverySec: 60,
  tokenAccountsEverySec: 3_600,
  compressedEverySec: 600,
  backstopEverySec: 86_400,
}

/**
 * Defaults for a new data folder: the real service's URLs, Free plan rates, no daily
 * budget and a monthly budget of the plan's monthly credits (a first sync or a load of
 * older history that would take more than a tenth of what is left asks first).
 */
const DEFAULT_SETTINGS: StoredSettings = {
  ...DEFAULT_SERVICE_URLS,
  plan: 'free',
  customRates: null,
  customMonthlyCredits: null,
  dailyBudget: null,
  monthlyBudget: planMonthlyCredits('free'),
  monthlyBudgetFollowsPlan: true,
  watch: DEFAULT_WATCH_CADENCE,
  fitToBudget: true,
  namesRefreshDays: DEFAULT_NAMES_REFRESH_DAYS,
  timeZone: 'local',
  dataSource: null,
  isKeyClearedForNewOrigin: false,
}

const KEY = 'app'

function withDefaults(stored: Partial<StoredSettings> | undefined): StoredSettings {
  return withPlanBudget({
    ...DEFAULT_SETTINGS,
    ...stored,
    // Settings stored before the monthly budget followed the plan keep the budget they had.
    monthlyBudgetFollowsPlan:
      stored === undefined ? true : (stored.monthlyBudgetFollowsPlan ?? false),
    watch: watchWithDefaults(stored?.watch),
  })
}

/** The settings with the monthly budget at the plan's credits while it follows the plan. */
function withPlanBudget(settings: StoredSettings): StoredSettings {
  if (!settings.monthlyBudgetFollowsPlan) return settings
  return {
    ...settings,
    monthlyBudget: planMonthlyCredits(settings.plan, settings.customMonthlyCredits),
  }
}

/**
 * The month's credits a load of history is weighed against: the monthly budget, else the
 * plan's monthly credits; null when neither is known.
 */
export function monthlyAllowanceOf(settings: StoredSettings): number | null {
  return settings.monthlyBudget ?? planMonthlyCredits(settings.plan, settings.customMonthlyCredits)
}

/**
 * The stored cadence over the defaults. Cadences saved before watching moved to balance
 * looks had a shortest and a longest interval: the shortest becomes the balance look.
 */
function watchWithDefaults(stored: Partial<WatchCadence> | undefined): WatchCadence {
  const legacy = stored as { minIntervalSec?: number } | undefined
  const { isWatching, checkEverySec, tokenAccountsEverySec, compressedEverySec, backstopEverySec } =
    { ...DEFAULT_SETTINGS.watch, ...stored }
  return {
    isWatching,
    checkEverySec: stored?.checkEverySec ?? legacy?.minIntervalSec ?? checkEverySec,
    tokenAccountsEverySec,
    compressedEverySec,
    backstopEverySec,
  }
}

/** Reads the stored settings, filling anything missing with defaults. */
export async function readSettings(store: SettingsStore): Promise<StoredSettings> {
  return withDefaults((await store.read(KEY)) as Partial<StoredSettings> | undefined)
}

/**
 * Merges `patch` into the stored settings and returns the result. A monthly budget other
 * than the one in force is the person's own from then on; one sent unchanged (a settings
 * form saves every field) keeps following the plan.
 */
export async function writeSettings(
  store: SettingsStore,
  patch: Partial<StoredSettings>,
  nowSec: number,
): Promise<StoredSettings> {
  const before = await readSettings(store)
  const isOwnBudget =
    patch.monthlyBudgetFollowsPlan === undefined &&
    patch.monthlyBudget !== undefined &&
    patch.monthlyBudget !== before.monthlyBudget
  const next = withPlanBudget({
    ...before,
    ...patch,
    ...(isOwnBudget ? { monthlyBudgetFollowsPlan: false } : {}),
  })
  await store.write(KEY, next, nowSec)
  return next
}

/** Why the renderer must ask for the key again, or null (Settings and the app's banner show it). */
export function keyNoticeOf(
  stored: StoredSettings,
  key: { apiKey: string | null; isKeyUnreadable: boolean; isKeyNeeded: boolean },
): KeyNotice | null {
  if (key.apiKey !== null) return null
  if (key.isKeyUnreadable) return 'unreadable'
  if (stored.isKeyClearedForNewOrigin) return 'cleared-for-new-origin'
  return key.isKeyNeeded ? 'missing' : null
}

/** The renderer's view of the settings: the key reduced to a hint of its last 4 characters. */
export function publicSettings(
  stored: StoredSettings,
  facts: {
    dataSource: DataSource
    apiKey: string | null
    isKeyUnreadable: boolean
    isKeyNeeded: boolean
    keyStorage: AppSettings['keyStorage']
    dataDir: string | null
  },
): AppSettings {
  return {
    dataSource: facts.dataSource,
    walletRestBaseUrl: stored.walletRestBaseUrl,
    v0RestBaseUrl: stored.v0RestBaseUrl,
    jsonRpcUrl: stored.jsonRpcUrl,
    plan: stored.plan,
    customRates: stored.customRates,
    customMonthlyCredits: stored.customMonthlyCredits,
    dailyBudget: stored.dailyBudget,
    monthlyBudget: stored.monthlyBudget,
    monthlyBudgetFollowsPlan: stored.monthlyBudgetFollowsPlan,
    watch: stored.watch,
    fitToBudget: stored.fitToBudget,
    namesRefreshDays: stored.namesRefreshDays,
    timeZone: stored.timeZone,
    apiKeyHint: facts.apiKey ? `…${facts.apiKey.slice(-4)}` : null,
    keyStorage: facts.keyStorage,
    keyNotice: keyNoticeOf(stored, facts),
    dataDir: facts.dataDir,
  }
}
