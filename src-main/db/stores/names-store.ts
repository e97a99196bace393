import type BetterSqlite3 from 'better-sqlite3'
import type { Selectable } from 'kysely'
import type { AddressNamesTable, WalletFundingTable } from '../schema'

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
  readonly #sqlite: BetterSqlite3.Database
  readonly #s: ReturnType<typeof prepare>

  constructor(sqlite: BetterSqlite3.Database) {
    this.#sqlite = sqlite
    this.#s = prepare(sqlite)
  }

  /** The stored answer for an address, or null when it was never asked. */
  async name(address: string): Promise<AddressName | null> {
    const row = this.#s.name.get(address) as NameRow | undefined
    return row ? nameOf(row) : null
  }

  /** Stored names of these addresses (those never asked are absent). */
  async names(addresses: readonly string[]): Promise<Map<string, AddressName>> {
    const out = new Map<string, AddressName>()
    for (const a of new Set(addresses)) {
      const row = this.#s.name.get(a) as NameRow | undefined
      if (row) out.set(a, nameOf(row))
    }
    return out
  }

  /**
   * Counterparties in the stored transfers of any watched wallet that are not watched
   * themselves and were not asked since `askedSinceSec`: what a names pass still has to ask.
   */
  async counterpartiesToName(askedSinceSec: number): Promise<string[]> {
    return (this.#s.counterpartiesToName.all(askedSinceSec) as { address: string }[]).map(
      (r) => r.address,
    )
  }

  /** Stores answers (replacing earlier ones for the same addresses) in one transaction. */
  async saveNames(names: readonly AddressName[]): Promise<void> {
    this.#sqlite.transaction(() => {
      for (const n of names) {
        this.#s.saveName.run({
          address: n.address,
          status: n.status,
          name: n.name,
          type: n.type,
          category: n.category,
          tagsJson: JSON.stringify(n.tags),
          domainNamesJson: JSON.stringify(n.domainNames),
          fetchedAtSec: n.fetchedAtSec,
        })
      }
    })()
  }

  /** A wallet's stored funder, or null when never asked. */
  async funding(walletId: number): Promise<WalletFunding | null> {
    const row = this.#s.funding.get(walletId) as FundingRow | undefined
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
    this.#s.saveFunding.run({ walletId, ...f })
  }
}

type NameRow = Selectable<AddressNamesTable>
type FundingRow = Selectable<WalletFundingTable>

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

function prepare(sqlite: BetterSqlite3.Database) {
  return {
    name: sqlite.prepare('select * from address_names where address = ?'),
    counterpartiesToName: sqlite.prepare(`
      select distinct t.counterparty as address from transfers t
      where t.counterparty not in (select address from wallets)
        and not exists (
          select 1 from address_names n where n.address = t.counterparty and n.fetched_at_sec >= ?)
      order by t.counterparty`),
    saveName: sqlite.prepare(`
      insert into address_names (address, status, name, type, category, tags_json, domain_names_json, fetched_at_sec)
      values (@address, @status, @name, @type, @category, @tagsJson, @domainNamesJson, @fetchedAtSec)
      on conflict (address) do update set status = excluded.status, name = excluded.name,
        type = excluded.type, category = excluded.category, tags_json = excluded.tags_json,
        domain_names_json = excluded.domain_names_json, fetched_at_sec = excluded.fetched_at_sec`),
    funding: sqlite.prepare('select * from wallet_funding where wallet_id = ?'),
    saveFunding: sqlite.prepare(`
      insert into wallet_funding (wallet_id, status, funder, funder_name, funder_type, mint, symbol, amount_raw, decimals, signature, funded_at_sec, fetched_at_sec)
      values (@walletId, @status, @funder, @funderName, @funderType, @mint, @symbol, @amountRaw, @decimals, @signature, @fundedAtSec, @fetchedAtSec)
      on conflict (wallet_id) do update set status = excluded.status, funder = excluded.funder,
        funder_name = excluded.funder_name, funder_type = excluded.funder_type, mint = excluded.mint,
        symbol = excluded.symbol, amount_raw = excluded.amount_raw, decimals = excluded.decimals,
        signature = excluded.signature, funded_at_sec = excluded.funded_at_sec,
        fetched_at_sec = excluded.fetched_at_sec`),
  }
}
