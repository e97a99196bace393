import { formatCount } from '@shared/domain/display-text'

/**
 * What removing a wallet does, said before it is done: the watchlist entry and everything
 * stored for it go (the mirror's rows of a wallet are deleted with it); the credit ledger
 * keeps what was spent.
 *
 * @example
 * describeRemoval('Trading wallet', 1234)
 * // 'Stop watching Trading wallet and delete its stored history from this computer: 1,234 transactions, …'
 */
export function describeRemoval(name: string, transactionCount: number | null): string {
  const transactions =
    transactionCount === null
      ? 'its transactions'
      : `${formatCount(transactionCount)} transaction${transactionCount === 1 ? '' : 's'}`
  return (
    `Stop watching ${name} and delete its stored history from this computer: ${transactions}, ` +
    'its transfers, balances and sync progress. Credits already spent stay in the credit ' +
    'history. Watching it again downloads its history again.'
  )
}
