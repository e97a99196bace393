import { sql, type RawBuilder } from 'kysely'

/**
 * The one rule for naming an address in the review views, as a SQL expression over an
 * address column: the label the person gave a watched wallet wins, then the name the
 * service gave the address; null when neither is known. Both lookups are on unique keys.
 *
 * @example
 * db.selectFrom('transfers as t').select(addressNameOf('t.counterparty').as('counterparty_name'))
 */
export function addressNameOf(column: string): RawBuilder<string | null> {
  const address = sql.ref(column)
  return sql<string | null>`coalesce(
    (select w.label from wallets as w where w.address = ${address}),
    (select n.name from address_names as n where n.address = ${address} and n.status = 'named')
  )`
}
