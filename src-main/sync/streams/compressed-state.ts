import { COMPRESSION_MAX_LIMIT } from '@shared/api/compression'
import type { OperationOutput } from '@shared/api/operations'
import type { CompressedState } from '../../db/mirror-writer'
import type { StreamContext } from './stream-context'

/** Exact integer text of an integer amount the service sends as a JSON number. */
function integerText(n: number): string {
  return BigInt(n).toString()
}

/**
 * Mirrors a wallet's compressed state — compressed SOL (getCompressedBalanceByOwner), its
 * compressed token balances (getCompressedTokenBalancesByOwnerV2) and compressed accounts
 * (getCompressedAccountsByOwner), every page — as one snapshot. Only for a wallet with
 * compressed activity in the mirror: for every other one these calls would be spent on
 * empty answers. Resolves to the calls made (0 when skipped).
 *
 * @example
 * await syncCompressedState(ctx) // 3 calls for a wallet with a few compressed accounts
 */
export async function syncCompressedState(ctx: StreamContext): Promise<number> {
  if (!(await ctx.writer.hasCompressedActivity(ctx.walletId))) return 0
  let calls = 1
  const balance = await ctx.call('compression.getCompressedBalanceByOwner', { owner: ctx.address })
  const tokens: CompressedState['tokens'][number][] = []
  for (let cursor: string | null = null; ;) {
    const page: OperationOutput<'compression.getCompressedTokenBalancesByOwnerV2'> = await ctx.call(
      'compression.getCompressedTokenBalancesByOwnerV2',
      {
        owner: ctx.address,
        limit: COMPRESSION_MAX_LIMIT,
        ...(cursor === null ? {} : { cursor }),
      },
    )
    calls++
    for (const t of page.value.items)
      tokens.push({ mint: t.mint, amountRaw: integerText(t.balance) })
    cursor = page.value.cursor
    if (cursor === null || page.value.items.length === 0) break
  }
  const accounts: CompressedState['accounts'][number][] = []
  for (let cursor: string | null = null; ;) {
    const page: OperationOutput<'compression.getCompressedAccountsByOwner'> = await ctx.call(
      'compression.getCompressedAccountsByOwner',
      {
        owner: ctx.address,
        limit: COMPRESSION_MAX_LIMIT,
        ...(cursor === null ? {} : { cursor }),
      },
    )
    calls++
    for (const a of page.value.items) {
      accounts.push({
        hash: a.hash,
        address: a.address,
        lamportsRaw: integerText(a.lamports),
        tree: a.tree,
        leafIndex: a.leafIndex,
        slotCreated: a.slotCreated,
      })
    }
    cursor = page.value.cursor
    if (cursor === null || page.value.items.length === 0) break
  }
  await ctx.writer.applyCompressedSnapshot(ctx.walletId, ctx.nowSec(), {
    lamportsRaw: integerText(balance.value),
    tokens,
    accounts,
  })
  return calls
}
