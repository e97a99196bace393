import type { Kysely } from 'kysely'
import { balancesAnswerOrder, type WalletBalance, type WalletNft } from '@shared/api/wallet-rest'
import { latestSnapshot } from '../queries/balance-queries'
import type { Database } from '../schema'

/** A wallet's latest balances snapshot in the service's own shapes. */
export interface StoredHoldings {
  takenAtSec: number
  balances: WalletBalance[]
  nfts: WalletNft[]
}

/**
 * Reads back the latest holdings snapshot as the balances answer gave it, so a change
 * watching saw can be written as the next snapshot without asking again: the amounts are
 * new, the rest (prices, names, NFTs) carried over. Null before the first snapshot.
 */
export class HoldingsStore {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  async latest(walletId: number): Promise<StoredHoldings | null> {
    const snapshot = await latestSnapshot(this.#db, walletId)
    if (!snapshot) return null
    const items = await this.#db
      .selectFrom('balance_snapshot_items as i')
      .leftJoin('mints as m', 'm.mint', 'i.mint')
      .select([
        'i.mint',
        'i.balance',
        'i.decimals',
        'i.token_program',
        'i.price_usd',
        'i.usd_value',
        'm.symbol',
        'm.name',
        'm.logo_uri',
      ])
      .where('i.snapshot_id', '=', snapshot.id)
      .execute()
    const nfts = await this.#db
      .selectFrom('balance_snapshot_nfts')
      .select([
        'mint',
        'name',
        'image_uri',
        'collection_name',
        'collection_address',
        'is_compressed',
      ])
      .where('snapshot_id', '=', snapshot.id)
      .orderBy('mint')
      .execute()
    const balances: WalletBalance[] = []
    for (const i of items) {
      balances.push({
        mint: i.mint,
        balance: i.balance,
        decimals: i.decimals,
        tokenProgram: i.token_program,
        symbol: i.symbol,
        name: i.name,
        pricePerToken: i.price_usd,
        usdValue: i.usd_value,
        logoUri: i.logo_uri,
      })
    }
    return {
      takenAtSec: snapshot.taken_at_sec,
      balances: balances.sort(balancesAnswerOrder),
      nfts: nfts.map((n) => ({
        mint: n.mint,
        compressed: n.is_compressed === 1,
        name: n.name,
        imageUri: n.image_uri,
        collectionName: n.collection_name,
        collectionAddress: n.collection_address,
      })),
    }
  }
}
