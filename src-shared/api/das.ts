import { z } from 'zod'
import {
  EndCursor,
  itemByItemAnswer,
  keyField,
  KeptAsideItem,
  knownOrNull,
  listOrEmpty,
  needed,
  readItems,
} from './answer-edge'
import { Base58Hash, WalletAddress } from './base58'
import { Integer, IntegerAmount } from './numbers'

// DAS JSON-RPC (docs/service.md, DAS). Params are strict because the service rejects
// unknown fields. Results are read at the edge (answer-edge.ts): the SDK's types leave
// most of an asset optional, so what is absent reads as "none" (an empty list, null), a
// standard or model the app does not know stays as its text, and a listing's asset that
// cannot be read is kept aside.

/** Values of an asset's `interface` field the interface text lists (its standard: V1_NFT, FungibleToken, …). */
export const ASSET_INTERFACES = [
  'V1_NFT',
  'V1_PRINT',
  'LEGACY_NFT',
  'V2_NFT',
  'FungibleAsset',
  'FungibleToken',
  'Custom',
  'Identity',
  'Executable',
  'ProgrammableNFT',
  'MplCoreAsset',
  'MplBubblegumV2',
  'MplCoreCollection',
  'MplCoreGroup',
] as const

/**
 * An asset's standard (its `interface` field). The SDK types it as any string (and spells
 * one `Legacy_NFT`), so a standard the app does not list stays as its text.
 */
const AssetInterface = z.string().min(1)

/** A file of an asset's content; the SDK leaves each of its fields optional. */
const AssetFile = z.object({
  uri: z.string().optional(),
  cdn_uri: z.string().optional(),
  mime: z.string().optional(),
})

/** An attribute's value: text in the interface, numbers and flags in real metadata. */
const AttributeValue = z.union([z.string(), z.number(), z.boolean()]).nullable()

/**
 * Asset `content`; metadata and last_indexed_slot can be absent in listings, and files
 * (and a file's fields) are absent for assets without any.
 */
export const AssetContent = z.object({
  last_indexed_slot: Integer.optional(),
  $schema: z.string().optional(),
  json_uri: z.string().optional(),
  files: listOrEmpty(AssetFile),
  metadata: z
    .object({
      attributes: listOrEmpty(
        z.object({ value: AttributeValue.optional(), trait_type: z.string().optional() }),
      ),
      description: z.string().optional(),
      name: z.string().optional(),
      symbol: z.string().optional(),
    })
    .optional(),
})
export type AssetContent = z.infer<typeof AssetContent>

/** An asset without content reads as one with no files and no metadata. */
const NO_CONTENT: AssetContent = { files: [] }

/** A token's price as DAS gives it (`token_info.price_info`). */
export const PriceInfo = z.object({
  price_per_token: z.number(),
  currency: z.string(),
  total_price: z.number().optional(),
})

/**
 * Asset (docs/service.md, DAS). The SDK types every part but the id, interface and
 * ownership as optional: a list the answer leaves out reads as empty, content as none.
 */
export const Asset = z.object({
  interface: AssetInterface,
  id: z.string().min(1),
  content: AssetContent.nullish().transform((content) => content ?? NO_CONTENT),
  authorities: listOrEmpty(z.object({ address: z.string(), scopes: z.array(z.string()) })),
  compression: z
    .object({
      eligible: z.boolean(),
      compressed: z.boolean(),
      data_hash: z.string(),
      creator_hash: z.string(),
      asset_hash: z.string(),
      tree: z.string(),
      seq: Integer,
      leaf_id: Integer,
    })
    .optional(),
  grouping: listOrEmpty(
    z.object({
      group_key: z.string(),
      // Null for a collection the indexer has not verified (showUnverifiedCollections).
      group_value: knownOrNull(z.string()),
    }),
  ),
  royalty: z
    .object({
      royalty_model: z.string(),
      // The type of a non-null value is not documented; an address in practice.
      target: knownOrNull(z.string()),
      percent: z.number(),
      basis_points: Integer,
      primary_sale_happened: z.boolean(),
      locked: z.boolean(),
    })
    .optional(),
  creators: listOrEmpty(z.object({ address: z.string(), share: Integer, verified: z.boolean() })),
  ownership: z.object({
    frozen: z.boolean(),
    delegated: z.boolean(),
    delegate: knownOrNull(z.string()),
    ownership_model: z.string(),
    owner: z.string(),
  }),
  // Present for NFTs; fungible assets leave it out or send null (type-specific).
  supply: z
    .object({
      print_max_supply: Integer.nullish(),
      print_current_supply: Integer.nullish(),
      edition_nonce: Integer.nullish(),
    })
    .nullish(),
  token_info: z
    .object({
      symbol: z.string().optional(),
      balance: IntegerAmount.optional(),
      supply: IntegerAmount.optional(),
      decimals: Integer.optional(),
      token_program: z.string().optional(),
      associated_token_address: z.string().optional(),
      price_info: PriceInfo.optional(),
      mint_authority: z.string().optional(),
      freeze_authority: z.string().optional(),
    })
    .optional(),
  inscription: z
    .object({
      order: Integer.optional(),
      size: Integer.optional(),
      contentType: z.string().optional(),
      encoding: z.string().optional(),
      validationHash: z.string().optional(),
      inscriptionDataAccount: z.string().optional(),
      authority: z.string().optional(),
    })
    .nullish(),
  // Contents not documented; null on assets without one (captured answers).
  spl20: z.record(z.string(), z.unknown()).nullish(),
  plugins: z.record(z.string(), z.unknown()).optional(),
  is_agent: z.boolean().optional(),
  agent_token: z.string().optional(),
  asset_signer: z.string().optional(),
  mutable: z.boolean().optional(),
  burnt: z.boolean().optional(),
})
export type Asset = z.infer<typeof Asset>

/** The envelope fields of a DAS asset listing. */
const assetListFields = {
  last_indexed_slot: knownOrNull(Integer),
  total: Integer,
  limit: Integer,
  page: Integer.optional(),
  cursor: EndCursor,
  before: z.string().nullish(),
  after: z.string().nullish(),
  // Every item the listing holds, when asked with options.showGrandTotal.
  grand_total: Integer.optional(),
}

/**
 * Listing envelope of getAssetsByOwner/ByAuthority. `page` is absent when the
 * caller pages with before/after/cursor (the two styles cannot be combined), and the
 * cursor style returns `cursor` (= last asset id) instead. Uncertain: the interface shows
 * only the page form. Each asset is read alone; one the edge cannot read is kept aside.
 */
export type AssetList = z.output<z.ZodObject<typeof assetListFields>> & {
  items: Asset[]
  keptAside: KeptAsideItem[]
}
/** A DAS asset listing as the service sends it. */
export type AssetListAnswer = z.input<z.ZodObject<typeof assetListFields>> & {
  items: z.input<typeof Asset>[]
  keptAside?: KeptAsideItem[] | undefined
}
export const AssetList = itemByItemAnswer<AssetList, AssetListAnswer>(
  z
    .object({
      ...assetListFields,
      items: z.array(z.unknown()),
      keptAside: z.array(KeptAsideItem).optional(),
    })
    .transform(({ items, keptAside = [], ...rest }): AssetList => {
      const read = readItems(Asset, items, keyField('id'))
      return { ...rest, items: read.items, keptAside: [...keptAside, ...read.keptAside] }
    }),
)

/** Sort field values: created, recent_action, updated, none, id. */
const AssetSortField = z.enum(['created', 'recent_action', 'updated', 'none', 'id'])
/** Sort direction values. */
const SortDirection = z.enum(['asc', 'desc'])

/** `sortBy` object: `{ sortBy, sortDirection }`. */
const AssetSortBy = z.strictObject({
  sortBy: AssetSortField,
  sortDirection: SortDirection.optional(),
})

/** Display options of listings (`options`). */
const AssetDisplayOptions = z.strictObject({
  showUnverifiedCollections: z.boolean().optional(),
  showCollectionMetadata: z.boolean().optional(),
  showGrandTotal: z.boolean().optional(),
  showFungible: z.boolean().optional(),
  showNativeBalance: z.boolean().optional(),
  showInscription: z.boolean().optional(),
  showZeroBalance: z.boolean().optional(),
})

/** Page size of DAS listings: at most 1000, the default. */
export const DAS_MAX_LIMIT = 1000

/** Paging inputs shared by DAS listings (docs/service.md, DAS). */
const dasPaging = {
  page: Integer.min(1).optional(),
  limit: Integer.min(1).max(DAS_MAX_LIMIT).optional(),
  before: z.string().min(1).optional(),
  after: z.string().min(1).optional(),
}

/** `page` cannot be combined with before/after/cursor. */
function pageNotCombinedWithCursors(p: {
  page?: number | undefined
  before?: string | undefined
  after?: string | undefined
  cursor?: string | undefined
}): boolean {
  return (
    p.page === undefined ||
    (p.before === undefined && p.after === undefined && p.cursor === undefined)
  )
}
const pageRule = { message: 'page cannot be combined with before, after or cursor', path: ['page'] }

/** getAssetBatch params: up to 1,000 asset ids. */
export const GetAssetBatchParams = z.strictObject({ ids: z.array(Base58Hash).min(1).max(1000) })
export type GetAssetBatchParams = z.input<typeof GetAssetBatchParams>

/** getAssetBatch result: array of assets, null where an id names no asset. */
export const GetAssetBatchResult = z.array(Asset.nullable())
export type GetAssetBatchResult = z.infer<typeof GetAssetBatchResult>

/** getAssetsByAuthority params (docs/service.md, DAS). */
export const GetAssetsByAuthorityParams = z
  .strictObject({
    authorityAddress: WalletAddress,
    ...dasPaging,
    sortBy: AssetSortBy.optional(),
    options: AssetDisplayOptions.optional(),
  })
  .refine(pageNotCombinedWithCursors, pageRule)
export type GetAssetsByAuthorityParams = z.input<typeof GetAssetsByAuthorityParams>

/** getAssetsByAuthority result: listing envelope. */
export const GetAssetsByAuthorityResult = AssetList
export type GetAssetsByAuthorityResult = AssetList

/** getAssetsByOwner params; `displayOptions` is an alias of `options`. */
export const GetAssetsByOwnerParams = z
  .strictObject({
    ownerAddress: WalletAddress,
    ...dasPaging,
    cursor: z.string().min(1).optional(),
    sortBy: AssetSortBy.optional(),
    options: AssetDisplayOptions.optional(),
    displayOptions: AssetDisplayOptions.optional(),
  })
  .refine(pageNotCombinedWithCursors, pageRule)
  .refine((p) => p.options === undefined || p.displayOptions === undefined, {
    message: 'give options or its alias displayOptions, not both',
    path: ['displayOptions'],
  })
export type GetAssetsByOwnerParams = z.input<typeof GetAssetsByOwnerParams>

/** getAssetsByOwner result: listing envelope. */
export const GetAssetsByOwnerResult = AssetList
export type GetAssetsByOwnerResult = AssetList

/** getTokenAccounts params: owner and/or mint plus paging (docs/service.md, DAS). */
export const GetTokenAccountsParams = z
  .strictObject({
    owner: WalletAddress.optional(),
    mint: WalletAddress.optional(),
    ...dasPaging,
    cursor: z.string().min(1).optional(),
    options: z.strictObject({ showZeroBalance: z.boolean().optional() }).optional(),
  })
  .refine((p) => p.owner !== undefined || p.mint !== undefined, {
    message: 'give owner, mint or both',
    path: ['owner'],
  })
  .refine(pageNotCombinedWithCursors, pageRule)
export type GetTokenAccountsParams = z.input<typeof GetTokenAccountsParams>

/**
 * Token account of getTokenAccounts. The SDK types every field as optional; the address,
 * mint, owner and amount are what an account is, so one without them is kept aside.
 */
export const TokenAccount = z.object({
  address: needed(z.string().min(1), 'address'),
  mint: needed(z.string().min(1), 'mint'),
  owner: needed(z.string().min(1), 'owner'),
  amount: needed(IntegerAmount, 'amount'),
  delegated_amount: knownOrNull(IntegerAmount),
  frozen: knownOrNull(z.boolean()),
  // "present in the response schema with no concrete type", as the service describes it.
  burnt: z.unknown().optional(),
})
export type TokenAccount = z.infer<typeof TokenAccount>

/** The envelope fields of getTokenAccounts; the SDK types each as optional. */
const tokenAccountsFields = {
  last_indexed_slot: knownOrNull(Integer),
  total: knownOrNull(Integer),
  limit: knownOrNull(Integer),
  page: Integer.optional(),
  // Null or absent on the last page and in page-number mode.
  cursor: EndCursor,
}

/** getTokenAccounts result: each account read alone, one the edge cannot read kept aside. */
export type GetTokenAccountsResult = z.output<z.ZodObject<typeof tokenAccountsFields>> & {
  token_accounts: TokenAccount[]
  keptAside: KeptAsideItem[]
}
/** The getTokenAccounts result as the service sends it. */
export type GetTokenAccountsAnswer = z.input<z.ZodObject<typeof tokenAccountsFields>> & {
  token_accounts?: z.input<typeof TokenAccount>[] | undefined
  keptAside?: KeptAsideItem[] | undefined
}
export const GetTokenAccountsResult = itemByItemAnswer<
  GetTokenAccountsResult,
  GetTokenAccountsAnswer
>(
  z
    .object({
      ...tokenAccountsFields,
      token_accounts: listOrEmpty(z.unknown()),
      keptAside: z.array(KeptAsideItem).optional(),
    })
    .transform(({ token_accounts, keptAside = [], ...rest }): GetTokenAccountsResult => {
      const read = readItems(TokenAccount, token_accounts, keyField('address'))
      return {
        ...rest,
        token_accounts: read.items,
        keptAside: [...keptAside, ...read.keptAside],
      }
    }),
)
