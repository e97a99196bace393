import { sql, type Kysely } from 'kysely'
import { isPostgres } from './engine-column-types'

// Frozen. The walks that filter as they go find what they filter on in the index they
// walk, instead of looking up each row to read one column of it:
// - History by time (and its failed-only twin): the balance-change direction flags (0019);
// - the feed across all wallets and within chosen ones: the leg direction flags (0019);
// - History by mint: the change's amount, whose sign is the direction.
// A count of ten thousand rows of a direction then reads the index alone (on a
// 10,000,000-row desk, PostgreSQL: 90-190 ms, then 9; SQLite: up to 60 ms, then 3). The
// keys and their order are unchanged; the columns ride along (PostgreSQL: INCLUDE;
// SQLite, which has none: after the keys).

const INDEXES: { name: string; on: string; keys: string; with: string; where?: string }[] = [
  {
    name: 'transactions_wallet_time',
    on: 'transactions',
    keys: 'wallet_id, block_time_sec, slot, signature',
    with: 'has_change_in, has_change_out',
  },
  {
    name: 'transactions_wallet_failed_time',
    on: 'transactions',
    keys: 'wallet_id, block_time_sec, slot, signature',
    with: 'has_change_in, has_change_out',
    where: 'is_failed = 1',
  },
  {
    name: 'transactions_feed',
    on: 'transactions',
    keys: 'slot, id',
    with: 'has_leg_in, has_leg_out',
  },
  {
    name: 'transactions_wallet_feed',
    on: 'transactions',
    keys: 'wallet_id, slot, id',
    with: 'has_leg_in, has_leg_out',
  },
  {
    name: 'balance_changes_wallet_mint_time',
    on: 'balance_changes',
    keys: 'wallet_id, mint, block_time_sec, slot',
    with: 'amount',
  },
]

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db)
  for (const index of INDEXES) {
    const columns = postgres
      ? `(${index.keys}) include (${index.with})`
      : `(${index.keys}, ${index.with})`
    const where = index.where === undefined ? '' : ` where ${index.where}`
    await sql`drop index ${sql.id(index.name)}`.execute(db)
    await sql.raw(`create index ${index.name} on ${index.on} ${columns}${where}`).execute(db)
  }
  if (postgres) await sql`analyze transactions, balance_changes`.execute(db)
  else {
    await sql`pragma analysis_limit = 1000`.execute(db)
    for (const index of INDEXES) await sql`analyze ${sql.id(index.name)}`.execute(db)
  }
}
