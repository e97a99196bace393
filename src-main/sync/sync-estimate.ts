import { CREDIT_PRICES } from '@shared/api/prices'
import type { CostLine, CreditRange, HistoryLoadCost } from '@shared/domain/history-load-cost'
import type { SyncEstimate } from '@shared/ipc/sync-schemas'
import type { StreamRow } from '../db/mirror-writer'
import { DAS_MAX_LIMIT } from '@shared/api/das'
import { BALANCES_PAGE_LIMIT } from './streams/balances-stream'
import { HISTORY_PAGE_LIMIT } from './streams/history-stream'
import { isLookedUpTopFresh } from './streams/looked-up-top'
import { TRANSFERS_PAGE_LIMIT } from './streams/transfers-stream'

type Line = SyncEstimate['lines'][number]

/**
 * Estimates what a sync will cost before it runs, from the streams' state: a stream that
 * is up to date costs one call when nothing is new; a backfill costs one call per page up
 * to the depth limit; without a limit its size is unknown until it runs. The NFT holdings
 * (DAS getAssetsByOwner pages) cost a page per 1,000 assets: known from `nftCount`, the
 * latest snapshot's count, else known only after the first page. Given `nowSec`, what a
 * look-up read moments ago ("watch this wallet") is not priced again: the first sync
 * trusts those tops and that snapshot.
 *
 * @example
 * estimateSyncCredits(address, rows, 173).summary
 * // 'Backfill of up to 5,000 transactions: ≤ 5,000 credits for history; …'
 */
export function estimateSyncCredits(
  address: string,
  rows: Record<string, StreamRow>,
  nftCount: number | null = null,
  nowSec?: number,
  firstSync?: { cost: HistoryLoadCost; summary: string },
): SyncEstimate {
  // The backfills a first sync still has to do are priced by the history-load model.
  const priced = firstSync ? backfillPrices(firstSync.cost) : undefined
  const isFresh = (row: StreamRow | undefined): boolean =>
    nowSec !== undefined && row !== undefined && isLookedUpTopFresh(row, nowSec)
  const isSnapshotFresh = isFresh(rows.balances)
  const lines: Line[] = [
    pagedLine('history', rows.history, HISTORY_PAGE_LIMIT, CREDIT_PRICES.wallet, 'transactions', {
      isTopFresh: isFresh(rows.history),
      priced: priced?.history,
    }),
    pagedLine(
      'transfers',
      rows.transfers,
      TRANSFERS_PAGE_LIMIT,
      CREDIT_PRICES.wallet,
      'transfers',
      {
        isTopFresh: isFresh(rows.transfers),
        priced: priced?.transfers,
      },
    ),
    isSnapshotFresh
      ? { stream: 'balances', calls: 0, credits: 0, note: LOOKED_UP_NOTE }
      : {
          stream: 'balances',
          calls: 1,
          credits: CREDIT_PRICES.wallet,
          note: `one snapshot (${BALANCES_PAGE_LIMIT} tokens per call)`,
        },
    isSnapshotFresh
      ? { stream: 'nft-holdings', calls: 0, credits: 0, note: LOOKED_UP_NOTE }
      : holdingsLine(nftCount),
    pagedLine(
      'compressed-owner',
      rows['compressed-owner'],
      1000,
      CREDIT_PRICES.compression,
      'signatures',
      { priced: priced?.compressed },
    ),
    pagedLine(
      'compressed-token-owner',
      rows['compressed-token-owner'],
      1000,
      CREDIT_PRICES.compression,
      'signatures',
      { priced: priced?.compressed },
    ),
  ]
  // Holdings of unknown size are left out of the bound and said apart: no depth limit caps them.
  const streamLines = lines.filter((l) => l.stream !== 'nft-holdings')
  const holdings = lines.find((l) => l.stream === 'nft-holdings') as Line
  const isBounded = streamLines.every((l) => l.credits !== null)
  const maxCredits = isBounded ? lines.reduce((sum, l) => sum + (l.credits ?? 0), 0) : null
  const history = lines[0] as Line
  const head = history.note.charAt(0).toUpperCase() + history.note.slice(1)
  const unbounded = streamLines.filter((l) => l.credits === null).map((l) => l.stream)
  // A first sync's high figure counts its names too, which no stream line holds.
  if (firstSync)
    return {
      address,
      maxCredits: firstSync.cost.credits.high,
      lines,
      summary: firstSync.summary,
      isFirstSync: true,
    }
  const summary =
    maxCredits === null
      ? `${head}: the size of ${unbounded.join(' and ')} is unknown until fetched (${CREDIT_PRICES.wallet} credits per ${HISTORY_PAGE_LIMIT} items); set a depth limit to cap it.`
      : `${head}: ≤ ${fmt(history.credits ?? 0)} credits for history; ≤ ${fmt(maxCredits)} credits in all${holdings.credits === null ? ' but the NFT holdings' : ''}.`
  return { address, maxCredits, lines, summary: `${summary} ${holdingsSentence(holdings)}` }
}

/** Said of what a look-up fetched moments ago, which the first sync does not buy again. */
const LOOKED_UP_NOTE = 'none: the look-up fetched it moments ago'

/**
 * The NFT holdings line: a getAssetsByOwner page per 1,000 assets. The stream stops at the
 * first page shorter than 1,000, so n assets take ⌊n/1,000⌋ + 1 pages (⌈n/1,000⌉ but at a
 * multiple of 1,000, when one more, empty page says the list has ended).
 */
function holdingsLine(nftCount: number | null): Line {
  const perPage = `${CREDIT_PRICES.das} credits per ${fmt(DAS_MAX_LIMIT)} assets`
  if (nftCount === null)
    return {
      stream: 'nft-holdings',
      calls: null,
      credits: null,
      note: `${perPage}; the size is known after the first page`,
    }
  const calls = Math.floor(nftCount / DAS_MAX_LIMIT) + 1
  return {
    stream: 'nft-holdings',
    calls,
    credits: calls * CREDIT_PRICES.das,
    note: `${fmt(nftCount)} NFTs at the last snapshot (${perPage})`,
  }
}

function holdingsSentence(line: Line): string {
  return line.credits === null
    ? `NFT holdings: ${line.note}.`
    : `NFT holdings: ${fmt(line.credits)} credits for ${line.note}.`
}

function pagedLine(
  stream: Line['stream'],
  row: StreamRow | undefined,
  pageSize: number,
  price: number,
  noun: string,
  { isTopFresh = false, priced }: { isTopFresh?: boolean; priced?: PricedBackfill } = {},
): Line {
  // Complete with its top just read by a look-up: the first sync asks nothing.
  if (row?.isBackfillComplete && isTopFresh) {
    return { stream, calls: 0, credits: 0, note: LOOKED_UP_NOTE }
  }
  // Complete (even if empty): the next sync asks only for what is new.
  if (row?.isBackfillComplete) {
    return {
      stream,
      calls: 1,
      credits: price,
      note: `new ${noun} only (one call when nothing is new)`,
    }
  }
  if (priced !== undefined) {
    // At most what the model's high figure says: an estimate, not a count of pages.
    return {
      stream,
      calls: Math.ceil(priced.credits.high / price),
      credits: priced.credits.high,
      note: priced.note,
    }
  }
  const stored = row?.itemsStored ?? 0
  if (row?.depthLimitCount != null) {
    const remaining = Math.max(0, row.depthLimitCount - stored)
    const calls = Math.max(1, Math.ceil(remaining / pageSize))
    return {
      stream,
      calls,
      credits: calls * price,
      note: `backfill of up to ${fmt(row.depthLimitCount)} ${noun}`,
    }
  }
  const since = row?.depthLimitSinceSec
  const what =
    since != null
      ? `backfill back to ${new Date(since * 1000).toISOString().slice(0, 10)}`
      : `full backfill of all ${noun}`
  return { stream, calls: null, credits: null, note: what }
}

/** A backfill as the history-load model prices it. */
interface PricedBackfill {
  credits: CreditRange
  note: string
}

/** The model's figures per stream: the compressed line covers both signature streams. */
function backfillPrices(
  cost: HistoryLoadCost,
): Record<'history' | 'transfers' | 'compressed', PricedBackfill> {
  const line = (part: CostLine['part']): CostLine =>
    cost.lines.find((l) => l.part === part) as CostLine
  const compressed = line('compressed')
  return {
    history: line('history'),
    transfers: line('transfers'),
    compressed: {
      credits: {
        low: Math.ceil(compressed.credits.low / 2),
        high: Math.ceil(compressed.credits.high / 2),
      },
      note: compressed.note,
    },
  }
}

function fmt(n: number): string {
  return n.toLocaleString('en-US')
}
