import type { KeptAsideItem } from '@shared/api/answer-edge'
import { DAS_MAX_LIMIT, type Asset } from '@shared/api/das'
import { CREDIT_PRICES } from '@shared/api/prices'
import type { WalletBalance, WalletNft } from '@shared/api/wallet-rest'
import { newItemsOf } from '@shared/ipc/sync-schemas'
import { pricedByDas } from './das-prices'
import { keptAsidePatch } from './kept-aside-pages'
import { isLookedUpTopFresh, lookedUpTopMark } from './looked-up-top'
import type { StreamContext, StreamResult } from './stream-context'

/** Balances page size: the interface's maximum (4.1). */
export const BALANCES_PAGE_LIMIT = 100

/** DAS interfaces of fungible assets: those come with prices from the balances pages. */
const FUNGIBLE_INTERFACES: ReadonlySet<Asset['interface']> = new Set([
  'FungibleAsset',
  'FungibleToken',
])

/**
 * Takes a holdings snapshot: every balances page (the service sorts by USD value, SOL
 * first), stored as one point in time, then every NFT the wallet owns, compressed ones
 * included, from DAS getAssetsByOwner (all pages; the balances answer carries at most
 * 100 NFTs, first page only), which replace the snapshot's NFTs in one more transaction.
 * A whole snapshot a look-up took moments ago ("watch this wallet") stands as this
 * sync's snapshot: taking it again would buy the same pages twice.
 */
export async function syncBalances(ctx: StreamContext): Promise<StreamResult> {
  const row = await ctx.writer.stream(ctx.walletId, 'balances')
  if (isLookedUpTopFresh(row, ctx.nowSec())) return { stream: 'balances', pages: 0, newItems: 0 }
  let balances: WalletBalance[] = []
  let firstNfts: WalletNft[] = []
  const keptAside: KeptAsideItem[] = []
  let page = 1
  for (;;) {
    const response = await ctx.call('wallet.balances', {
      wallet: ctx.address,
      page,
      limit: BALANCES_PAGE_LIMIT,
      // Free on the first page: it names the collections of the NFTs DAS lists below.
      ...(page === 1 ? { showNfts: true } : {}),
    })
    balances.push(...response.balances)
    keptAside.push(...response.keptAside)
    if (page === 1) firstNfts = response.nfts ?? []
    ctx.report({
      stream: 'balances',
      phase: 'snapshot',
      pages: page,
      items: balances.length,
      estimatedRemainingPages: null,
      estimatedRemainingCredits: null,
    })
    if (!response.pagination.hasMore) break
    page += 1
  }
  // A token the balances answer does not price may have a price in DAS (token_info).
  balances = await pricedByDas(ctx, balances)
  // Stored at once with the NFTs the balances answer carries, so the pages paid for are
  // kept even if the sync stops before the holdings pages below.
  const takenAtSec = ctx.nowSec()
  const snapshotId = await ctx.writer.applyBalancesSnapshot(
    ctx.walletId,
    takenAtSec,
    balances,
    firstNfts,
    {
      addPages: page,
      newestKey: String(takenAtSec),
      items: balances.length + firstNfts.length,
      // A snapshot is whole: the holdings the last one could not read say nothing now.
      ...keptAsidePatch('wallet.balances', keptAside, takenAtSec, { replaces: true }),
      ...(ctx.newsAtMs ? { forAlertsAtMs: ctx.newsAtMs() } : {}),
    },
  )
  const {
    nfts,
    pages: assetPages,
    keptAside: assetsAside,
  } = await ownedNfts(ctx, balances.length, firstNfts, page)
  // Complete and succeeded only here, once the snapshot holds every holdings page: a sync
  // stopped (or a worker killed) between the two writes leaves the stream to be taken
  // again whole, and a look-up that read just the first of several pages leaves the first
  // sync to take it whole.
  await ctx.writer.applySnapshotNfts(ctx.walletId, snapshotId, nfts, {
    addPages: assetPages,
    items: balances.length + nfts.length,
    isBackfillComplete: true,
    succeededAtSec: takenAtSec,
    ...keptAsidePatch('das.getAssetsByOwner', assetsAside, takenAtSec),
    ...lookedUpTopMark(ctx),
  })
  return {
    stream: 'balances',
    pages: page + assetPages,
    newItems: newItemsOf(row.itemsStored, balances.length + nfts.length),
  }
}

/**
 * Every NFT of the wallet from getAssetsByOwner, page by page. The first page asks for
 * the grand total, so the pages still to come (and their cost) are reported before they
 * are fetched.
 */
async function ownedNfts(
  ctx: StreamContext,
  tokenCount: number,
  namedByBalances: readonly WalletNft[],
  pagesBefore: number,
): Promise<{ nfts: WalletNft[]; pages: number; keptAside: KeptAsideItem[] }> {
  // DAS gives a collection's address only; the balances answer names those it lists.
  const collectionNames = new Map(
    namedByBalances.map((n) => [n.collectionAddress, n.collectionName]),
  )
  const nfts: WalletNft[] = []
  const keptAside: KeptAsideItem[] = []
  for (let page = 1; ; page++) {
    const list = await ctx.call('das.getAssetsByOwner', {
      ownerAddress: ctx.address,
      page,
      limit: DAS_MAX_LIMIT,
      ...(page === 1 ? { options: { showGrandTotal: true } } : {}),
    })
    for (const asset of list.items) {
      if (!FUNGIBLE_INTERFACES.has(asset.interface)) nfts.push(nftOf(asset, collectionNames))
    }
    keptAside.push(...list.keptAside)
    const total = list.grand_total
    const remaining =
      total === undefined ? null : Math.max(0, Math.ceil(total / DAS_MAX_LIMIT) - page)
    // A large collection's cost shows once the first page has told its size.
    ctx.report({
      stream: 'balances',
      phase: 'snapshot',
      pages: pagesBefore + page,
      items: tokenCount + nfts.length,
      estimatedRemainingPages: remaining,
      estimatedRemainingCredits: remaining === null ? null : remaining * CREDIT_PRICES.das,
    })
    if (list.items.length + list.keptAside.length < DAS_MAX_LIMIT)
      return { nfts, pages: page, keptAside }
  }
}

function nftOf(asset: Asset, collectionNames: ReadonlyMap<string, string>): WalletNft {
  const collectionAddress =
    asset.grouping.find((g) => g.group_key === 'collection')?.group_value || ''
  const file = asset.content.files[0]
  return {
    mint: asset.id,
    compressed: asset.compression?.compressed ?? false,
    name: asset.content.metadata?.name ?? '',
    imageUri: file?.cdn_uri || file?.uri || '',
    collectionName: collectionNames.get(collectionAddress) ?? '',
    collectionAddress,
  }
}
