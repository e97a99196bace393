import type { z } from 'zod'
import type {
  Asset,
  AssetListAnswer,
  GetAssetBatchParams,
  GetAssetsByAuthorityParams,
  GetAssetsByOwnerParams,
  GetTokenAccountsParams,
  GetTokenAccountsAnswer,
  TokenAccount,
} from '@shared/api/das'
import { DAS_MAX_LIMIT } from '@shared/api/das'
import { walletTokenAccounts } from '../chain/accounts'
import type { MintInfo } from '../chain/mints'
import { rawToNumber, SOL_MINT_INDEX } from '../chain/mints'
import type { SimChain, SimWallet, TxView } from '../chain/sim-chain'
import { collectibleAsset, collectionInfo, fungibleAsset, ownedCollectibles } from '../chain/views'
import { COLLECTION_COUNT } from '../chain/history'
import type { HandlerContext } from './handler-context'

// DAS JSON-RPC (docs/service.md, DAS): page (1-based) or keyset paging by asset
// id (cursor/before/after), never both; limit ≤ 1000, default 1000. `total` counts the items
// of the answer, as the service's listings do; `grand_total` (showGrandTotal) counts all.

type SortBy = NonNullable<z.output<typeof GetAssetsByOwnerParams>['sortBy']>

interface Listed {
  asset: Asset
  /** Acquisition order, for created/recent_action/updated sorting. */
  order: number
}

function sortListed(items: Listed[], sortBy: SortBy | undefined): Listed[] {
  const field = sortBy?.sortBy ?? 'none'
  const desc = sortBy?.sortDirection === 'desc'
  if (field === 'none') return items
  const sorted = [...items].sort((a, b) =>
    field === 'id'
      ? a.asset.id < b.asset.id
        ? -1
        : a.asset.id > b.asset.id
          ? 1
          : 0
      : a.order - b.order,
  )
  return desc ? sorted.reverse() : sorted
}

function pageListing(
  chain: SimChain,
  all: Listed[],
  p: {
    page?: number
    limit?: number
    cursor?: string
    before?: string
    after?: string
    sortBy?: SortBy
  },
  grandTotal: boolean,
): AssetListAnswer & Record<string, unknown> {
  const limit = p.limit ?? DAS_MAX_LIMIT
  const keyset = p.cursor !== undefined || p.before !== undefined || p.after !== undefined
  let items: Asset[]
  const base: Record<string, unknown> = {}
  if (keyset) {
    // Keyset paging runs over ids ascending; cursor = last asset id of the page.
    const byId = sortListed(all, { sortBy: 'id', sortDirection: 'asc' }).map((l) => l.asset)
    const lower = p.cursor ?? p.after
    const filtered = byId.filter(
      (a) => (lower === undefined || a.id > lower) && (p.before === undefined || a.id < p.before),
    )
    items = filtered.slice(0, limit)
    base.cursor =
      items.length === limit && filtered.length > limit
        ? (items[items.length - 1]?.id ?? null)
        : null
    if (p.before !== undefined) base.before = p.before
    if (p.after !== undefined) base.after = p.after
  } else {
    const page = p.page ?? 1
    items = sortListed(all, p.sortBy)
      .map((l) => l.asset)
      .slice((page - 1) * limit, page * limit)
    base.page = page
  }
  return {
    last_indexed_slot: chain.currentSlot(),
    total: items.length,
    limit,
    ...base,
    ...(grandTotal ? { grand_total: all.length } : {}),
    items,
  }
}

function ownerListing(
  chain: SimChain,
  wallet: SimWallet | undefined,
  owner: string,
  options: z.output<typeof GetAssetsByOwnerParams>['options'],
): Listed[] {
  const listed: Listed[] = wallet
    ? ownedCollectibles(chain, wallet).map((tx: TxView) => ({
        asset: collectibleAsset(chain, wallet, tx),
        order: tx.index,
      }))
    : []
  if (options?.showFungible && wallet) {
    const balances = chain.balancesNow(wallet)
    for (const m of chain.mintsOf(wallet)) {
      if (m === SOL_MINT_INDEX) continue
      const raw = balances[m] ?? 0n
      if (raw === 0n && !options.showZeroBalance) continue
      listed.push({
        asset: fungibleAsset(chain, owner, chain.mints[m] as MintInfo, raw),
        order: Number.MAX_SAFE_INTEGER - 1000 + m,
      })
    }
  }
  return listed
}

export function getAssetsByOwner(
  p: z.output<typeof GetAssetsByOwnerParams>,
  ctx: HandlerContext,
): AssetListAnswer {
  const { chain } = ctx
  const options = p.options ?? p.displayOptions
  const wallet = chain.walletByAddress(p.ownerAddress)
  const result = pageListing(
    chain,
    ownerListing(chain, wallet, p.ownerAddress, options),
    p,
    options?.showGrandTotal ?? false,
  )
  if (options?.showNativeBalance) {
    const sol = chain.mints[SOL_MINT_INDEX] as MintInfo
    const lamports = wallet ? (chain.balancesNow(wallet)[SOL_MINT_INDEX] ?? 0n) : 0n
    result.nativeBalance = {
      lamports: Number(lamports),
      price_per_sol: sol.priceUsd,
      total_price: Math.round(rawToNumber(lamports, 9) * sol.priceUsd * 100) / 100,
    }
  }
  return result
}

export function getAssetsByAuthority(
  p: z.output<typeof GetAssetsByAuthorityParams>,
  ctx: HandlerContext,
): AssetListAnswer {
  const { chain } = ctx
  let collection = -1
  for (let c = 0; c < COLLECTION_COUNT; c++)
    if (collectionInfo(chain.seed, c).authority === p.authorityAddress) collection = c
  const listed: Listed[] = []
  if (collection >= 0) {
    for (const wallet of chain.wallets) {
      for (const tx of ownedCollectibles(chain, wallet)) {
        if (tx.collectible?.collection === collection) {
          listed.push({
            asset: collectibleAsset(chain, wallet, tx),
            order: wallet.id * 2 ** 32 + tx.index,
          })
        }
      }
    }
  }
  return pageListing(chain, listed, p, p.options?.showGrandTotal ?? false)
}

export function getAssetBatch(
  p: z.output<typeof GetAssetBatchParams>,
  ctx: HandlerContext,
): Asset[] {
  const { chain } = ctx
  const assets: Asset[] = []
  for (const id of p.ids) {
    const origin = chain.assetOrigin(id)
    if (origin) {
      assets.push(collectibleAsset(chain, origin.wallet, origin.tx))
      continue
    }
    const mint = chain.mintByAddressOrNull(id)
    // Unknown ids are left out: the shared result schema has no null entries.
    if (mint) assets.push(fungibleAsset(chain, '', mint, 0n))
  }
  return assets
}

/** Every token account of a wallet in the DAS shape (the same list account reads use). */
function tokenAccountsOf(
  chain: SimChain,
  wallet: SimWallet,
  showZeroBalance: boolean,
): TokenAccount[] {
  return walletTokenAccounts(chain, wallet, { includeClosed: showZeroBalance }).map((a) => ({
    address: a.address,
    mint: a.mintAddress,
    owner: wallet.address,
    amount: Number(a.amountRaw),
    delegated_amount: 0,
    frozen: false,
  }))
}

export function getTokenAccounts(
  p: z.output<typeof GetTokenAccountsParams>,
  ctx: HandlerContext,
): GetTokenAccountsAnswer {
  const { chain } = ctx
  const showZero = p.options?.showZeroBalance ?? false
  const owners =
    p.owner !== undefined
      ? [chain.walletByAddress(p.owner)].filter((w): w is SimWallet => w !== undefined)
      : chain.wallets
  let all = owners.flatMap((w) => tokenAccountsOf(chain, w, showZero))
  if (p.mint !== undefined) all = all.filter((a) => a.mint === p.mint)
  const limit = p.limit ?? DAS_MAX_LIMIT
  const keyset = p.cursor !== undefined || p.before !== undefined || p.after !== undefined
  if (keyset) {
    const sorted = [...all].sort((a, b) => (a.address < b.address ? -1 : 1))
    const lower = p.cursor ?? p.after
    const filtered = sorted.filter(
      (a) =>
        (lower === undefined || a.address > lower) &&
        (p.before === undefined || a.address < p.before),
    )
    const items = filtered.slice(0, limit)
    return {
      last_indexed_slot: chain.currentSlot(),
      total: items.length,
      limit,
      cursor:
        items.length === limit && filtered.length > limit
          ? (items[items.length - 1]?.address ?? null)
          : null,
      token_accounts: items,
    }
  }
  const page = p.page ?? 1
  const items = all.slice((page - 1) * limit, page * limit)
  return {
    last_indexed_slot: chain.currentSlot(),
    total: items.length,
    limit,
    page,
    token_accounts: items,
  }
}
