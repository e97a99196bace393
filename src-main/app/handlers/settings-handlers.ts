import { rmSync } from 'node:fs'
import { AppError } from '@shared/ipc/ipc-errors'
import type { AppSettings } from '@shared/ipc/settings-schemas'
import { listWatchedWallets } from '../../db/queries/watchlist-queries'
import { publicSettings, readSettings, writeSettings } from '../settings-store'
import type { HandlerContext } from './handler-context'
import type { HandlerTable } from './handler-table'

type SettingsChannels =
  | 'settings:get'
  | 'settings:update'
  | 'settings:set-api-key'
  | 'settings:clear-api-key'
  | 'settings:set-data-source'
  | 'data:delete-all'
  | 'demo:add-wallets'

/** Tables emptied by "delete all local data", children first. Settings and the key stay. */
const DATA_TABLES = [
  'balance_changes',
  'transactions',
  'transfers',
  'balance_snapshot_items',
  'balance_snapshot_nfts',
  'balance_snapshots',
  'compressed_signatures',
  'sync_streams',
  'watch_schedule',
  'token_accounts',
  'wallet_probe',
  'credit_ledger',
  'mints',
  'wallets',
]

/** Handlers of `settings:*`, `data:delete-all` and `demo:add-wallets`. */
export function settingsHandlers(ctx: HandlerContext): Pick<HandlerTable, SettingsChannels> {
  const { session } = ctx
  const current = async (): Promise<AppSettings> =>
    publicSettings(await readSettings(ctx.db), {
      apiKey: session.apiKey(),
      keyStorage: ctx.secretStore.kind,
      dataDir: ctx.info.dataDir,
    })
  const afterServiceChange = async (): Promise<AppSettings> => {
    ctx.info.dataSource = session.isDemo() ? 'demo' : 'service'
    await session.reconnect()
    return current()
  }

  return {
    'settings:get': current,
    'settings:update': async (patch) => {
      const before = await readSettings(ctx.db)
      const after = await writeSettings(ctx.db, patch)
      const isServiceChange = (
        ['walletRestBaseUrl', 'v0RestBaseUrl', 'jsonRpcUrl', 'plan', 'customRates'] as const
      ).some((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
      return isServiceChange ? afterServiceChange() : current()
    },
    'settings:set-api-key': async ({ apiKey }) => {
      ctx.secretStore.write(apiKey)
      return afterServiceChange()
    },
    'settings:clear-api-key': async () => {
      ctx.secretStore.clear()
      return afterServiceChange()
    },
    'settings:set-data-source': async () => {
      throw new AppError('Switching the data source is not available yet.')
    },
    'data:delete-all': async () => {
      ;(await session.runtime()).engine.cancel()
      await ctx.db.transaction().execute(async (tx) => {
        for (const table of DATA_TABLES) await tx.deleteFrom(table as never).execute()
      })
      rmSync(`${ctx.info.dataDir}/exports-pending`, { recursive: true, force: true })
      ctx.events.emit('watchlist:changed', [])
    },
    'demo:add-wallets': async () => {
      if (!session.isDemo())
        throw new AppError('Demo wallets exist only in demo mode (no API key set).')
      await session.seedDemoWallets({ onlyFirstRun: false })
      return listWatchedWallets(ctx.db)
    },
  }
}
