import { sql, type Kysely } from 'kysely'
import { isPostgres } from './engine-column-types'

// Frozen. The feed's type and token filters within chosen wallets (a wallet filter, a
// tag) read each wallet's own rows of that type or token in the feed's order, instead of
// walking the wallet's every row for a type it rarely has (0017's index), or the token's
// changes across every wallet for a small wallet's few (0018's). A page then costs a page
// of reads, however rare the combination.
// The new indexes get statistics at once: beside analysed ones, SQLite would take an
// index without any for a wallet's whole history (it assumes a few rows per key).

const INDEXES = {
  // With the direction flags: a direction beside a type is read from the index alone.
  transactions_wallet_kind_feed: sql`transactions (wallet_id, (coalesce(kind, 'UNKNOWN')), slot, id, has_leg_in, has_leg_out)`,
  balance_changes_wallet_mint_feed: sql`balance_changes (wallet_id, mint, slot, transaction_id)`,
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, on] of Object.entries(INDEXES))
    await sql`create index ${sql.id(name)} on ${on}`.execute(db)
  if (isPostgres(db)) {
    await sql`analyze transactions, balance_changes`.execute(db)
    return
  }
  // Sampled, as the app's own statistics are: milliseconds on ten million rows.
  await sql`pragma analysis_limit = 1000`.execute(db)
  for (const name of Object.keys(INDEXES)) await sql`analyze ${sql.id(name)}`.execute(db)
}
