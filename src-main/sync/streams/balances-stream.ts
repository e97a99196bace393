import type { WalletBalance, WalletNft } from '@shared/api/wallet-rest'
import type { StreamContext, StreamResult } from './stream-context'

/** Balances page size: the interface's maximum (4.1). */
export const BALANCES_PAGE_LIMIT = 100

/**
 * Takes a balances snapshot: every page (the service sorts by USD value, SOL first) plus
 * the NFTs, which come on the first page only (interface 4.1), stored together as one
 * point in time. A crash mid-way stores nothing; the next run fetches the snapshot again.
 */
export async function syncBalances(ctx: StreamContext): Promise<StreamResult> {
  const balances: WalletBalance[] = []
  let nfts: WalletNft[] = []
  let page = 1
  for (;;) {
    const response = await ctx.call('wallet.balances', {
      wallet: ctx.address,
      page,
      limit: BALANCES_PAGE_LIMIT,
      ...(page === 1 ? { showNfts: true } : {}),
    })
    balances.push(...response.balances)
    if (page === 1) nfts = response.nfts ?? []
    ctx.report({
      stream: 'balances',
      phase: 'snapshot',
      pages: page,
      items: balances.length,
      estimatedRemainingPages: null,
    })
    if (!response.pagination.hasMore) break
    page += 1
  }
  const takenAtSec = ctx.nowSec()
  await ctx.writer.applyBalancesSnapshot(ctx.walletId, takenAtSec, balances, nfts, {
    addPages: page,
    isBackfillComplete: true,
    newestKey: String(takenAtSec),
    succeededAtSec: takenAtSec,
  })
  return { stream: 'balances', pages: page, newItems: balances.length + nfts.length }
}
