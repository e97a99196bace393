import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { DEFAULT_SERVICE_URLS } from '../service/service-settings'
import type { AppSettings, CustomRates, RatePlan, WatchCadence } from '@shared/ipc/settings-schemas'
import type { Database } from '../db/schema'

/** The settings kept in the mirror's `settings` table (everything but the key). */
export interface StoredSettings {
  walletRestBaseUrl: string
  v0RestBaseUrl: string
  jsonRpcUrl: string
  plan: RatePlan
  customRates: CustomRates | null
  dailyBudget: number | null
  monthlyBudget: number | null
  watch: WatchCadence
  /** Whether the first-run demo wallets were offered already. */
  isDemoSeeded: boolean
}

/** Defaults for a new data folder: the real service's URLs, Free plan rates, no budget. */
export const DEFAULT_SETTINGS: StoredSettings = {
  ...DEFAULT_SERVICE_URLS,
  plan: 'free',
  customRates: null,
  dailyBudget: null,
  monthlyBudget: null,
  watch: { isWatching: true, minIntervalSec: 60, maxIntervalSec: 3_600 },
  isDemoSeeded: false,
}

const KEY = 'app'

function withDefaults(json: string | undefined): StoredSettings {
  const stored = json ? (JSON.parse(json) as Partial<StoredSettings>) : {}
  return { ...DEFAULT_SETTINGS, ...stored, watch: { ...DEFAULT_SETTINGS.watch, ...stored.watch } }
}

/** Reads the stored settings, filling anything missing with defaults. */
export async function readSettings(db: Kysely<Database>): Promise<StoredSettings> {
  const row = await db
    .selectFrom('settings')
    .select('value_json')
    .where('key', '=', KEY)
    .executeTakeFirst()
  return withDefaults(row?.value_json)
}

/**
 * The same, synchronously: the sync engine checks the budget before every call, and the
 * person may change it at any time, so it is read fresh each time (a microsecond query).
 */
export function readSettingsNow(sqlite: BetterSqlite3.Database): StoredSettings {
  const row = sqlite.prepare('select value_json from settings where key = ?').get(KEY) as
    { value_json: string } | undefined
  return withDefaults(row?.value_json)
}

/** Merges `patch` into the stored settings and returns the result. */
export async function writeSettings(
  db: Kysely<Database>,
  patch: Partial<StoredSettings>,
): Promise<StoredSettings> {
  const next = { ...(await readSettings(db)), ...patch }
  const value = JSON.stringify(next)
  await db
    .insertInto('settings')
    .values({ key: KEY, value_json: value })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ value_json: value, updated_at_sec: Math.floor(Date.now() / 1000) }),
    )
    .execute()
  return next
}

/** The renderer's view of the settings: the key reduced to a hint of its last 4 characters. */
export function publicSettings(
  stored: StoredSettings,
  facts: { apiKey: string | null; keyStorage: AppSettings['keyStorage']; dataDir: string },
): AppSettings {
  return {
    dataSource: facts.apiKey ? 'service' : 'demo',
    walletRestBaseUrl: stored.walletRestBaseUrl,
    v0RestBaseUrl: stored.v0RestBaseUrl,
    jsonRpcUrl: stored.jsonRpcUrl,
    plan: stored.plan,
    customRates: stored.customRates,
    dailyBudget: stored.dailyBudget,
    monthlyBudget: stored.monthlyBudget,
    watch: stored.watch,
    apiKeyHint: facts.apiKey ? `…${facts.apiKey.slice(-4)}` : null,
    keyStorage: facts.apiKey ? facts.keyStorage : null,
    dataDir: facts.dataDir,
  }
}
