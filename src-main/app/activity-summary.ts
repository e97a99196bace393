import type BetterSqlite3 from 'better-sqlite3'
import { decimalText } from '@shared/domain/exact-amount'
import { shortAddress } from '@shared/domain/wallet-address'

/**
 * One line for a notification about new transactions, e.g. "+12.5 USDC to Trading
 * wallet" or "3 new transactions · −0.2 SOL from Trading wallet": the mint that moved
 * the most (by USD where prices are known, else by amount) over the new transactions.
 */
export function summarizeNewActivity(
  sqlite: BetterSqlite3.Database,
  walletId: number,
  walletName: string,
  afterSlot: number,
  count: number,
): string {
  const rows = sqlite
    .prepare(
      `select b.mint, sum(b.amount) as amount, m.symbol, m.price_usd as price from balance_changes b
       left join mints m on m.mint = b.mint
       where b.wallet_id = ? and b.slot > ? group by b.mint`,
    )
    .all(walletId, afterSlot) as {
    mint: string
    amount: number
    symbol: string | null
    price: number | null
  }[]
  const weight = (r: (typeof rows)[number]): number => Math.abs(r.amount) * (r.price ?? 1)
  const top = rows.filter((r) => r.amount !== 0).sort((a, b) => weight(b) - weight(a))[0]
  const prefix = count > 1 ? `${count} new transactions · ` : ''
  if (!top) return `${prefix || 'New transaction · '}on ${walletName}`.replace(' · on', ' on')
  const amount = decimalText(Number(top.amount.toPrecision(12)))
  const symbol = top.symbol ?? shortAddress(top.mint)
  return top.amount > 0
    ? `${prefix}+${amount} ${symbol} to ${walletName}`
    : `${prefix}−${amount.replace(/^-/, '')} ${symbol} from ${walletName}`
}
