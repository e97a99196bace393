import { sql, type Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. Which ways a transaction moved the wallet's tokens, written with it, so that a
// direction filter reads one column of the transaction instead of looking up its balance
// changes row by row (the History count and the feed read thousands of rows):
// - has_change_in / has_change_out: a balance change above / below zero (History);
// - has_leg_in / has_leg_out: a leg, a mint's change with the fee the wallet paid left
//   out of its SOL, above / below zero (half a lamport for SOL) (the feed).
// Rows already stored get theirs from their balance changes here, as the writer derives
// them for new rows.

const SOL = 'So11111111111111111111111111111111111111112'
const HALF_LAMPORT = 5e-10
const FLAGS = ['has_change_in', 'has_change_out', 'has_leg_in', 'has_leg_out'] as const

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  for (const flag of FLAGS)
    await db.schema
      .alterTable('transactions')
      .addColumn(flag, 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
  const net = sql`(case when c.mint = ${sql.lit(SOL)} and t.fee_payer = w.address then c.amount + t.fee else c.amount end)`
  const epsilon = sql`(case when c.mint = ${sql.lit(SOL)} then ${sql.lit(HALF_LAMPORT)} else ${sql.lit(0)} end)`
  const any = (condition: ReturnType<typeof sql>) =>
    sql`max(case when ${condition} then 1 else 0 end)`
  await sql`
    update transactions set
      has_change_in = d.change_in, has_change_out = d.change_out,
      has_leg_in = d.leg_in, has_leg_out = d.leg_out
    from (
      select c.transaction_id as id,
        ${any(sql`c.amount > 0`)} as change_in,
        ${any(sql`c.amount < 0`)} as change_out,
        ${any(sql`${net} > ${epsilon}`)} as leg_in,
        ${any(sql`${net} < -${epsilon}`)} as leg_out
      from balance_changes as c
        join transactions as t on t.id = c.transaction_id
        join wallets as w on w.id = t.wallet_id
      group by c.transaction_id
    ) as d
    where d.id = transactions.id`.execute(db)
}
