import type { Kysely, Selectable } from 'kysely'
import type { AddressNamesTable, Database } from '../schema'

/** What the service said an address is called, as stored. */
export interface AddressName {
  address: string
  status: 'named' | 'none' | 'unavailable'
  name: string | null
  type: string | null
  category: string | null
  tags: string[]
  domainNames: string[]
  fetchedAtSec: number
}

/** Who funded a wallet, as stored (fetched once: it cannot change). */
export interface WalletFunding {
  status: 'found' | 'none' | 'unavailable'
  funder: string | null
  funderName: string | null
  funderType: string | null
  mint: string | null
  symbol: string | null
  amountRaw: string | null
  decimals: number | null
  signature: string | null
  fundedAtSec: number | null
  fetchedAtSec: number
}

/**
 * Names the service knows for addresses (identity, batch-identity) and each wallet's
 * funder (funded-by), cached with when they were asked so that no address is asked twice
 * within a refresh period.
 */
export class NamesStore {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** The stored answer for an address, or null when it was never asked. */
  async name(address: string): Promise<AddressName | null> {
    return (await this.names([address])).get(address) ?? null
  }

  /** Stored names of these addresses (those never asked are absent). */
  async names(addresses: readonly string[]): Promise<Map<string, AddressName>> {
    const out = new Map<string, AddressName>()
    const unique = [...new Set(addresses)]
    for (let i = 0; i < unique.length; i += ADDRESSES_PER_QUERY) {
      const rows = await this.#db
        .selectFrom('address_names')
        .selectAll()
        .where('address', 'in', unique.slice(i, i + ADDRESSES_PER_QUERY))
        .execute()
      for (const row of rows) out.set(row.address, nameOf(row))
    }
    return out
  }

  /**
   * Counterparties in the stored transfers of any watched wallet that are not watched
   * themselves and were not asked since `askedSinceSec`: what a names pass still has to ask.
   */
  async counterpartiesToName(askedSinceSec: number): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('transfers as t')
      .select('t.counterparty as address')
      .distinct()
      .where('t.counterparty', 'not in', (eb) => eb.selectFrom('wallets').select('address'))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('address_names as n')
              .select('n.address')
              .whereRef('n.address', '=', 't.counterparty')
              .where('n.fetched_at_sec', '>=', askedSinceSec),
          ),
        ),
      )
      .orderBy('t.counterparty')
      .execute()
    return rows.map((r) => r.address)
  }

  /** Stores answers (replacing earlier ones for the same addresses) in one statement. */
  async saveNames(names: readonly AddressName[]): Promise<void> {
    if (names.length === 0) return
    // One row per address: a later answer in the same batch wins, as it would one by one.
    const latest = [...new Map(names.map((n) => [n.address, n])).values()]
    await this.#db
      .insertInto('address_names')
      .values(
        latest.map((n) => ({
          address: n.address,
          status: n.status,
          name: n.name,
          type: n.type,
          category: n.category,
          tags_json: JSON.stringify(n.tags),
          domain_names_json: JSON.stringify(n.domainNames),
          fetched_at_sec: n.fetchedAtSec,
        })),
      )
      .onConflict((oc) =>
        oc.column('address').doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          name: eb.ref('excluded.name'),
          type: eb.ref('excluded.type'),
          category: eb.ref('excluded.category'),
          tags_json: eb.ref('excluded.tags_json'),
          domain_names_json: eb.ref('excluded.domain_names_json'),
          fetched_at_sec: eb.ref('excluded.fetched_at_sec'),
        })),
      )
      .execute()
  }

  /** A wallet's stored funder, or null when never asked. */
  async funding(walletId: number): Promise<WalletFunding | null> {
    const row = await this.#db
      .selectFrom('wallet_funding')
      .selectAll()
      .where('wallet_id', '=', walletId)
      .executeTakeFirst()
    if (!row) return null
    return {
      status: row.status,
      funder: row.funder,
      funderName: row.funder_name,
      funderType: row.funder_type,
      mint: row.mint,
      symbol: row.symbol,
      amountRaw: row.amount_raw,
      decimals: row.decimals,
      signature: row.signature,
      fundedAtSec: row.funded_at_sec,
      fetchedAtSec: row.fetched_at_sec,
    }
  }

  async saveFunding(walletId: number, f: WalletFunding): Promise<void> {
    await this.#db
      .insertInto('wallet_funding')
      .values({
        wallet_id: walletId,
        status: f.status,
        funder: f.funder,
        funder_name: f.funderName,
        funder_type: f.funderType,
        mint: f.mint,
        symbol: f.symbol,
        amount_raw: f.amountRaw,
        decimals: f.decimals,
        signature: f.signature,
        funded_at_sec: f.fundedAtSec,
        fetched_at_sec: f.fetchedAtSec,
      })
      .onConflict((oc) =>
        oc.column('wallet_id').doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          funder: eb.ref('excluded.funder'),
          funder_name: eb.ref('excluded.funder_name'),
          funder_type: eb.ref('excluded.funder_type'),
          mint: eb.ref('excluded.mint'),
          symbol: eb.ref('excluded.symbol'),
          amount_raw: eb.ref('excluded.amount_raw'),
          decimals: eb.ref('excluded.decimals'),
          signature: eb.ref('excluded.signature'),
          funded_at_sec: eb.ref('excluded.funded_at_sec'),
          fetched_at_sec: eb.ref('excluded.fetched_at_sec'),
        })),
      )
      .execute()
  }
}

/** How many addresses one `in (…)` list names: well under either engine's parameter limit. */
const ADDRESSES_PER_QUERY = 500

type NameRow = Selectable<AddressNamesTable>

function nameOf(row: NameRow): AddressName {
  return {
    address: row.address,
    status: row.status,
    name: row.name,
    type: row.type,
    category: row.category,
    tags: JSON.parse(row.tags_json) as string[],
    domainNames: JSON.parse(row.domain_names_json) as string[],
    fetchedAtSec: row.fetched_at_sec,
  }
}
