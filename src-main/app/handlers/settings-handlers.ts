import { InvalidInputError, PermissionError } from '@shared/ipc/ipc-errors'
import type { AppSettings } from '@shared/ipc/settings-schemas'
import { publicSettings, readSettings, writeSettings, type StoredSettings } from '../app-settings'
import { callerRole } from '../../sync/spender'
import { shownDataDir } from '../data-dir'
import { isKeyGoingToNewOrigin } from '@shared/domain/key-origins'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/** Settings that say where the service is, and so where the API key is sent. */
const SERVICE_URL_KEYS = ['walletRestBaseUrl', 'v0RestBaseUrl', 'jsonRpcUrl'] as const

/**
 * Refuses a change of the service URLs to a team account that is not an admin: where the
 * key goes is the admin's decision (a move to a new host would also remove the key).
 */
function assertMayMoveKey(before: StoredSettings, next: StoredSettings): void {
  const role = callerRole()
  if (role === null || role === 'admin') return
  const moved = SERVICE_URL_KEYS.filter((k) => before[k] !== next[k])
  if (moved.length > 0)
    throw new PermissionError(
      `Your role (${role}) cannot change the service URLs (where the API key is sent) — ask an admin.`,
      { role, settings: moved },
    )
}

/**
 * Refuses a key carried by `settings:update` to a team account that is not an admin: the
 * key is the admin's, as `settings:set-api-key` is.
 */
function assertMayManageKey(): void {
  const role = callerRole()
  if (role === null || role === 'admin') return
  throw new PermissionError(`Your role (${role}) cannot manage the API key — ask an admin.`, {
    role,
    settings: ['apiKey'],
  })
}

/** The Custom plan paces to the person's numbers: without them it would pace to nothing. */
function assertCustomPlanHasRates(next: StoredSettings): void {
  if (next.plan === 'custom' && next.customRates === null)
    throw new InvalidInputError(
      'The Custom plan needs its requests per second for RPC, DAS and enhanced, Photon and validity proof calls.',
      { settings: ['customRates'] },
    )
}

/** Settings that change which service is called, or how fast: the session is rebuilt. */
const SERVICE_KEYS = [
  'walletRestBaseUrl',
  'v0RestBaseUrl',
  'jsonRpcUrl',
  'plan',
  'customRates',
] as const

/** Handlers of `settings:*`, `data:delete-all` and `demo:*`. */
export function settingsHandlers(ctx: HandlerContext) {
  const current = async (): Promise<AppSettings> =>
    publicSettings(await readSettings(ctx.settings), {
      dataSource: ctx.info.dataSource,
      apiKey: ctx.apiKey(),
      isKeyUnreadable: ctx.secretStore.isKeyUnreadable(),
      isKeyNeeded: ctx.isKeyNeeded(),
      keyStorage: ctx.secretStore.kind,
      dataDir: shownDataDir(ctx.info.dataDir),
    })
  const chooseSource = async (source: AppSettings['dataSource']): Promise<AppSettings> => {
    await writeSettings(ctx.settings, { dataSource: source }, ctx.nowSec())
    await ctx.switchDataSource(source)
    return current()
  }

  return {
    'settings:get': current,
    'settings:update': async ({ apiKey, ...patch }) => {
      if (apiKey !== undefined) assertMayManageKey()
      const before = await readSettings(ctx.settings)
      const next = { ...before, ...patch }
      assertMayMoveKey(before, next)
      assertCustomPlanHasRates(next)
      // The key is removed before the new URLs are stored, so no call can take it there…
      const isKeyCleared =
        apiKey === undefined && ctx.apiKey() !== null && isKeyGoingToNewOrigin(before, next)
      if (isKeyCleared) ctx.secretStore.clear()
      // …unless the person typed the key with these URLs: then it goes where they point. It
      // replaces the stored key before the URLs change, so the old key never follows them.
      if (apiKey !== undefined) ctx.secretStore.write(apiKey)
      const after = await writeSettings(
        ctx.settings,
        isKeyCleared || apiKey !== undefined
          ? { ...patch, isKeyClearedForNewOrigin: isKeyCleared }
          : patch,
        ctx.nowSec(),
      )
      const isServiceChange = SERVICE_KEYS.some(
        (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
      )
      // Entering a key is choosing one's own data, as `settings:set-api-key` does.
      if (apiKey !== undefined) await chooseSource('service')
      else if (isServiceChange && ctx.info.dataSource === 'service') await ctx.reconnect()
      const isBudgetLess = (b: number | null, a: number | null) =>
        b !== null && (a === null || a > b)
      if (
        isBudgetLess(before.dailyBudget, after.dailyBudget) ||
        isBudgetLess(before.monthlyBudget, after.monthlyBudget)
      ) {
        // A wallet the budget stopped is not left waiting for a Retry the person never asked for.
        await ctx.session.resumeBudgetStops()
      }
      return current()
    },
    // Entering a key is choosing one's own data; removing it goes back to demo data.
    'settings:set-api-key': async ({ apiKey }) => {
      ctx.secretStore.write(apiKey)
      await writeSettings(ctx.settings, { isKeyClearedForNewOrigin: false }, ctx.nowSec())
      return chooseSource('service')
    },
    'settings:clear-api-key': async () => {
      ctx.secretStore.clear()
      await writeSettings(ctx.settings, { isKeyClearedForNewOrigin: false }, ctx.nowSec())
      return chooseSource('demo')
    },
    // One's own data may be shown before a key exists: a watchlist can be made first.
    'settings:set-data-source': async ({ source }) => chooseSource(source),
    'data:delete-all': async () => {
      ctx.session.runtimeIfConnected()?.engine.cancel()
      await ctx.mirror.deleteAllData()
      await ctx.exports.clear()
      ctx.events.emit('watchlist:changed', [])
    },
    'demo:add-wallets': () => ctx.session.seedDemoWallets({ onlyFirstRun: false }),
    'demo:wallets': () => ctx.session.demoWalletAddresses(),
    'demo:make': () => ctx.session.makeDemoData(),
  } satisfies HandlerGroup
}
