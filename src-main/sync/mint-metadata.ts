import type BetterSqlite3 from 'better-sqlite3'
import type { Asset } from '@shared/api/das'
import type { SyncEngine } from './sync-engine'

/** getAssetBatch takes up to 1,000 ids (interface 8): 10 credits name a thousand mints. */
const BATCH_IDS = 1_000

/**
 * Names the mints a wallet's history and transfers mention that the mint cache does not
 * know yet (tokens it no longer holds, so no balances snapshot named them): one
 * getAssetBatch call per thousand unknown mints, once per mint. Without it the History
 * view and exports would show bare mint addresses where a symbol belongs.
 */
export async function fillUnknownMints(
  engine: SyncEngine,
  sqlite: BetterSqlite3.Database,
  wallet: { id: number; address: string },
  nowSec: number,
  signal?: AbortSignal,
): Promise<number> {
  const unknown = (
    sqlite
      .prepare(
        `select mint from (select distinct mint from balance_changes where wallet_id = ?
           union select distinct mint from transfers where wallet_id = ?)
         where mint not in (select mint from mints)`,
      )
      .all(wallet.id, wallet.id) as { mint: string }[]
  ).map((r) => r.mint)
  const upsert = sqlite.prepare(
    `insert into mints (mint, symbol, name, decimals, logo_uri, token_program, price_usd, updated_at_sec)
     values (@mint, @symbol, @name, @decimals, @logoUri, @tokenProgram, @priceUsd, @updatedAtSec)
     on conflict (mint) do nothing`,
  )
  let named = 0
  for (let i = 0; i < unknown.length; i += BATCH_IDS) {
    const ids = unknown.slice(i, i + BATCH_IDS)
    const assets = await engine.callFor(wallet.address, 'das.getAssetBatch', { ids }, signal)
    sqlite.transaction((list: Asset[]) => {
      for (const asset of list) {
        named += upsert.run(mintRow(asset, nowSec)).changes
      }
    })(assets)
  }
  return named
}

function mintRow(asset: Asset, nowSec: number) {
  const info = asset.token_info
  const file = asset.content.files[0]
  return {
    mint: asset.id,
    symbol: info?.symbol || asset.content.metadata?.symbol || null,
    name: asset.content.metadata?.name || null,
    decimals: info?.decimals ?? null,
    logoUri: file ? file.cdn_uri || file.uri : null,
    tokenProgram: info?.token_program ?? null,
    priceUsd: info?.price_info?.price_per_token ?? null,
    updatedAtSec: nowSec,
  }
}
