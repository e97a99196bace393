import type { Asset } from '@shared/api/das'
import type { MintRow } from '../db/ingest/mint-upsert'
import type { MintStore } from '../db/stores/mint-store'
import type { WalletCall } from './service-caller'

/** getAssetBatch takes up to 1,000 ids: 10 credits name a thousand mints. */
const BATCH_IDS = 1_000

/** How long a mint DAS could not name is not asked again. */
export const DAS_UNNAMED_MEMO_SEC = 24 * 60 * 60

/**
 * Names the mints a wallet's history and transfers mention that the mint cache has no
 * symbol for: tokens it no longer holds (no balances snapshot named them) and tokens the
 * balances answer left unnamed. One getAssetBatch call per thousand such mints; a mint
 * DAS could not name either is not asked again for a day (`unnamedByDas`). Without it the
 * History view and exports would show bare mint addresses where a symbol belongs.
 */
export async function fillUnknownMints(
  call: WalletCall,
  mints: MintStore,
  walletId: number,
  nowSec: number,
  signal?: AbortSignal,
  unnamedByDas?: Map<string, number>,
): Promise<number> {
  const unknown = (await mints.unknownMints(walletId)).filter(
    (mint) => nowSec - (unnamedByDas?.get(mint) ?? -Infinity) >= DAS_UNNAMED_MEMO_SEC,
  )
  let named = 0
  for (let i = 0; i < unknown.length; i += BATCH_IDS) {
    const ids = unknown.slice(i, i + BATCH_IDS)
    const assets = await call('das.getAssetBatch', { ids }, signal)
    // An id DAS has no asset for is null in the answer: nothing to name it by.
    const rows = assets.filter((asset) => asset !== null).map((asset) => mintRow(asset, nowSec))
    named += await mints.save(rows)
    const symbolOf = new Map(rows.map((r) => [r.mint, r.symbol]))
    for (const mint of ids) if (!symbolOf.get(mint)) unnamedByDas?.set(mint, nowSec)
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
