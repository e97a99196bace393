import type { Asset } from '@shared/api/das'
import type { MintRow } from '../db/ingest/mint-upsert'
import type { MintStore } from '../db/stores/mint-store'
import type { WalletCall } from './service-caller'

/** getAssetBatch takes up to 1,000 ids: 10 credits name a thousand mints. */
const BATCH_IDS = 1_000

/**
 * Names the mints a wallet's history and transfers mention that the mint cache does not
 * know yet (tokens it no longer holds, so no balances snapshot named them): one
 * getAssetBatch call per thousand unknown mints, once per mint. Without it the History
 * view and exports would show bare mint addresses where a symbol belongs.
 */
export async function fillUnknownMints(
  call: WalletCall,
  mints: MintStore,
  walletId: number,
  nowSec: number,
  signal?: AbortSignal,
): Promise<number> {
  const unknown = await mints.unknownMints(walletId)
  let named = 0
  for (let i = 0; i < unknown.length; i += BATCH_IDS) {
    const ids = unknown.slice(i, i + BATCH_IDS)
    const assets = await call('das.getAssetBatch', { ids }, signal)
    // An id DAS has no asset for is null in the answer: nothing to name it by.
    const found = assets.filter((asset) => asset !== null)
    named += await mints.save(found.map((asset) => mintRow(asset, nowSec)))
  }
  return named
}

function mintRow(asset: Asset, nowSec: number): MintRow {
  const info = asset.token_info
  const file = asset.content.files[0]
  return {
    mint: asset.id,
    symbol: info?.symbol || asset.content.metadata?.symbol || null,
    name: asset.content.metadata?.name || null,
    decimals: info?.decimals ?? null,
    logoUri: file?.cdn_uri || file?.uri || null,
    tokenProgram: info?.token_program ?? null,
    priceUsd: info?.price_info?.price_per_token ?? null,
    updatedAtSec: nowSec,
  }
}
