import { sql, type Kysely } from 'kysely'
import type { Database } from '../schema'

/** What the mirror knows of a 32- or 64-byte id, each answer found without a call. */
export interface MirrorKnowledge {
  isWatchedWallet: boolean
  /** A counterparty of a stored transfer, a named address or a funder. */
  isKnownWallet: boolean
  /** A mint in the mint cache or an NFT of a holdings snapshot. */
  isKnownAsset: boolean
  isKnownCompressedHash: boolean
  /** A transaction in a watched wallet's stored history. */
  isKnownSignature: boolean
}

/**
 * Looks an id up in the mirror's tables (each check an indexed or small-table read), so
 * a pasted text can be recognised for free and offline.
 */
export async function mirrorKnowledgeOf(
  db: Kysely<Database>,
  id: string,
): Promise<MirrorKnowledge> {
  const has = async (query: ReturnType<typeof sql<{ hit: number }>>): Promise<boolean> =>
    (await query.execute(db)).rows.length > 0
  return {
    isWatchedWallet: await has(sql`select 1 as hit from wallets where address = ${id} limit 1`),
    isKnownWallet: await has(sql`
      select 1 as hit from address_names where address = ${id}
      union all select 1 from wallet_funding where funder = ${id}
      union all select 1 from transfers where counterparty = ${id}
      limit 1`),
    isKnownAsset: await has(sql`
      select 1 as hit from mints where mint = ${id}
      union all select 1 from balance_snapshot_nfts where mint = ${id}
      limit 1`),
    isKnownCompressedHash: await has(
      sql`select 1 as hit from compressed_snapshot_accounts where hash = ${id} limit 1`,
    ),
    isKnownSignature: await has(
      sql`select 1 as hit from transactions where signature = ${id} limit 1`,
    ),
  }
}
