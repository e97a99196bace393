import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { WalletBalance } from '@shared/api/wallet-rest'
import { ServiceError } from '../../service/service-errors'
import type { StreamContext } from './stream-context'

/** getAssetBatch takes up to 1,000 ids. */
const BATCH_IDS = 1_000

/** How long a mint DAS had no price for is not asked again (its price updates hourly at best). */
export const DAS_UNPRICED_MEMO_SEC = 24 * 60 * 60

/** Currencies DAS prices in that read as US dollars. */
const USD_CURRENCIES = new Set(['USD', 'USDC'])

/**
 * The balances with a price for each token the balances answer left unpriced where DAS
 * has one (`token_info.price_info`), its value that price times the balance, to the cent
 * as the balances answer rounds it. One getAssetBatch call (10 credits) asks for every
 * such token at once; a mint DAS could not price either is not asked again for a day
 * (`ctx.unpricedByDas`). Asking is a courtesy: its failure leaves the tokens unpriced.
 */
export async function pricedByDas(
  ctx: StreamContext,
  balances: readonly WalletBalance[],
): Promise<WalletBalance[]> {
  const memo = ctx.unpricedByDas
  const now = ctx.nowSec()
  const wanted = [
    ...new Set(
      balances
        .filter((b) => b.pricePerToken === null && b.mint !== NATIVE_SOL_MINT)
        .map((b) => b.mint)
        .filter((mint) => now - (memo?.get(mint) ?? -Infinity) >= DAS_UNPRICED_MEMO_SEC),
    ),
  ]
  if (wanted.length === 0) return [...balances]
  const prices = new Map<string, number>()
  for (let i = 0; i < wanted.length; i += BATCH_IDS) {
    const ids = wanted.slice(i, i + BATCH_IDS)
    try {
      const assets = await ctx.call('das.getAssetBatch', { ids })
      for (const asset of assets) {
        const info = asset?.token_info?.price_info
        if (asset && info && USD_CURRENCIES.has(info.currency.toUpperCase()))
          prices.set(asset.id, info.price_per_token)
      }
    } catch (error) {
      // The service's trouble leaves them unpriced; a cancel or a spent budget stops the sync.
      if (error instanceof ServiceError && !ctx.signal.aborted) continue
      throw error
    }
    for (const mint of ids) if (!prices.has(mint)) memo?.set(mint, now)
  }
  return balances.map((b) => {
    const price = b.pricePerToken === null ? prices.get(b.mint) : undefined
    if (price === undefined) return b
    return { ...b, pricePerToken: price, usdValue: Math.round(b.balance * price * 100) / 100 }
  })
}
