import { sql, type Kysely } from 'kysely'

// Frozen. The feed's type and token filters read their own order instead of walking the
// whole feed past rows that do not match: a rare type (NFT sales) or token was a walk of
// most of a million rows for a page. Rows from before types were derived have no kind and
// read as UNKNOWN, so the type index is on that reading.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index transactions_kind_feed on transactions ((coalesce(kind, 'UNKNOWN')), slot, id)`.execute(
    db,
  )
  await sql`create index balance_changes_mint_feed on balance_changes (mint, slot, transaction_id)`.execute(
    db,
  )
}
