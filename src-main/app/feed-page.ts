import type { z } from 'zod'
import { MAX_UNREAD_COUNT, type FeedPage, type FeedPageInput } from '@shared/ipc/feed-schemas'
import type { Mirror } from '../db/mirror'
import { summarizeTransaction } from './activity-summary'

/**
 * A page of the feed as the app, the CLI and the renderer show it: the mirror's rows with
 * their one-line summaries, amounts with symbols and USD values where a price is known.
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
      const priced = amounts.flatMap((a) => (a.usd === null ? [] : [a.usd]))
      return {
        signature: row.signature,
        wallet: row.walletAddress,
        walletLabel: row.walletLabel,
        slot: row.slot,
        time: row.blockTimeSec === null ? null : new Date(row.blockTimeSec * 1000).toISOString(),
        kind: row.kind ?? 'UNKNOWN',
        summary: summarizeTransaction(row),
        said: row.said,
        amounts,
        usd: priced.length === 0 ? null : Math.max(...priced),
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
