import { sql, type Kysely } from 'kysely'

// Frozen. The feed pages transactions newest first by (slot, id). Across every wallet it
// walks transactions_feed (0016); for chosen wallets (a filter, a tag) it reads each
// wallet's newest rows on this index and merges them, so a small wallet beside a whale
// costs a page, not a walk past the whale's rows.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index transactions_wallet_feed on transactions (wallet_id, slot, id)`.execute(db)
}
