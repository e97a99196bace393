import type { z } from 'zod'
import { MAX_UNREAD_COUNT, type FeedPage, type FeedPageInput } from '@shared/ipc/feed-schemas'
import type { Mirror } from '../db/mirror'
import { transactionSummary, transactionWords } from '@shared/domain/transaction-words'

/**
 * A page of the feed as the app, the CLI and the renderer show it: the mirror's rows with
 * their one-line summaries (the words alerts say too), amounts with symbols and USD values
 * where a price is known.
 */
export async function readFeedPage(
  mirror: Mirror,
  input: z.output<typeof FeedPageInput>,
): Promise<FeedPage> {
  const page = await mirror.feed.page({ ...input, unreadCap: MAX_UNREAD_COUNT })
  return {
    rows: page.rows.map((row) => {
      const amounts = row.legs.map((leg) => ({
        mint: leg.mint,
        symbol: leg.symbol,
        amount: leg.amountText,
        usd: leg.priceUsd === null ? null : Math.abs(Number(leg.amountText)) * leg.priceUsd,
      }))
      return {
        signature: row.signature,
        wallet: row.walletAddress,
        walletLabel: row.walletLabel,
        slot: row.slot,
        time: row.blockTimeSec === null ? null : new Date(row.blockTimeSec * 1000).toISOString(),
        kind: row.kind ?? 'UNKNOWN',
        summary: transactionSummary(row),
        amounts,
        // The value of what the summary names: the largest leg's, as alerts say it.
        usd: transactionWords(row).usd,
        isFailed: row.isFailed,
        isUnread: row.isUnread,
        key: row.key,
      }
    }),
    nextCursor: page.nextCursor,
    unreadCount: page.unreadCount,
    isUnreadCapped: page.isUnreadCapped,
  }
}
