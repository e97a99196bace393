import type { Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. What loading a wallet's history will cost, and what the person agreed to.
// - wallet_size_probes: the cheap look at a wallet before its first sync (the newest
//   signatures page, its token accounts, the DAS total, its funder when it has more than a
//   page), keyed by address: the add dialog looks before the wallet is watched. What the
//   estimates are priced from.
// - history_loads: a wallet's load of history under way: its first sync, or a load of
//   older history with the depth it goes to (both limits null: to the start). A row holds
//   the credits the person agreed to when the load asked first; it goes when the load is
//   done, or with its wallet.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await db.schema
    .createTable('wallet_size_probes')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('probed_at_sec', 'integer', (c) => c.notNull())
    // In the newest getSignaturesForAddress page (at most 1,000), and whether it was full.
    .addColumn('signatures', 'integer', (c) => c.notNull())
    .addColumn('has_more_signatures', 'integer', (c) => c.notNull())
    .addColumn('oldest_signature_sec', 'integer')
    .addColumn('newest_signature_sec', 'integer')
    // Null when the look could not read them.
    .addColumn('fungible_tokens', 'integer')
    .addColumn('nfts', 'integer')
    // Asked of a wallet with more than a page of signatures: when it was first funded, and
    // the whole answer (JSON), kept for its first sync, which then does not ask again.
    .addColumn('funded_at_sec', 'integer')
    .addColumn('funding_json', 'text')
    .addColumn('credits', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('history_loads')
    .addColumn('wallet_id', 'integer', (c) =>
      c.primaryKey().references('wallets.id').onDelete('cascade'),
    )
    // 'first-sync' | 'older'
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target_count', 'integer')
    .addColumn('target_since_sec', 'integer')
    .addColumn('approved_credits', 'integer')
    .addColumn('asked_at_sec', 'integer', (c) => c.notNull())
    .execute()
}
