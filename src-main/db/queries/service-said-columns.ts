import { NftSaleEvent } from '@shared/api/webhook-delivery'
import type { NftSale, ServiceSaid } from '@shared/ipc/review-schemas'

/** The columns of `transactions` that hold what the service said of a transaction (0022). */
export const SERVICE_SAID_COLUMNS = ['t.source', 't.description', 't.nft_event_json'] as const

/** Those columns as History and the feed show them. */
export function serviceSaidOf(row: {
  source: string | null
  description: string | null
  nft_event_json: string | null
}): ServiceSaid {
  return {
    source: row.source,
    description: row.description,
    nftSale: nftSaleOf(row.nft_event_json),
  }
}

/** The stored NFT sale event, or null when there is none or it no longer reads. */
function nftSaleOf(json: string | null): NftSale | null {
  if (json === null) return null
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    return null
  }
  const event = NftSaleEvent.safeParse(value)
  if (!event.success) return null
  const e = event.data
  return {
    priceLamports: e.amount === undefined ? null : String(e.amount),
    buyer: e.buyer || null,
    seller: e.seller || null,
    marketplace: e.source || null,
  }
}
