import { z } from 'zod'
import { Base58Hash, WalletAddress } from './base58'
import { Integer, IntegerAmount } from './numbers'

// DAS JSON-RPC (docs/service.md, DAS). Params are strict
// because the service rejects unknown fields. Results drop unknown fields.

/** Values of an asset's `interface` field (its standard: V1_NFT, FungibleToken, …). */
const ASSET_INTERFACES = [
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

/** An asset's standard (its `interface` field). */
const AssetInterface = z.enum(ASSET_INTERFACES)

/** Asset `content`; metadata and last_indexed_slot can be absent in listings. */
export const AssetContent = z.object({
  last_indexed_slot: Integer.optional(),
  $schema: z.string(),
  json_uri: z.string(),
  files: z.array(z.object({ uri: z.string(), cdn_uri: z.string(), mime: z.string() })),
  metadata: z
    .object({
      attributes: z.array(z.object({ value: z.string(), trait_type: z.string() })),
      description: z.string(),
      name: z.string(),
      symbol: z.string(),
    })
    .optional(),
})
export type AssetContent = z.infer<typeof AssetContent>

/** Asset (docs/service.md, DAS). Fields the service marks "omitted when …", "appears in listings" or type-specific are optional. */
export const Asset = z.object({
  interface: AssetInterface,
  id: z.string(),
  content: AssetContent,
  authorities: z.array(z.object({ address: z.string(), scopes: z.array(z.string()) })),
  compression: z.object({
    eligible: z.boolean(),
    compressed: z.boolean(),
    data_hash: z.string(),
    creator_hash: z.string(),
    asset_hash: z.string(),
    tree: z.string(),
    seq: Integer,
    leaf_id: Integer,
  }),
  grouping: z.array(z.object({ group_key: z.string(), group_value: z.string() })),
  royalty: z.object({
    royalty_model: z.string(),
    // Nullable; the type of a non-null value is not documented; an address in practice.
    target: z.string().nullable(),
    percent: z.number(),
    basis_points: Integer,
    primary_sale_happened: z.boolean(),
    locked: z.boolean(),
  }),
  creators: z.array(z.object({ address: z.string(), share: Integer, verified: z.boolean() })),
  ownership: z.object({
    frozen: z.boolean(),
    delegated: z.boolean(),
    delegate: z.string().nullable(),
    ownership_model: z.string(),
    owner: z.string(),
  }),
  // Present for NFTs; fungible assets may omit it (type-specific).
  supply: z
    .object({ print_max_supply: Integer, print_current_supply: Integer, edition_nonce: Integer })
    .optional(),
  token_info: z
    .object({
      symbol: z.string(),
      supply: IntegerAmount,
      decimals: Integer,
      token_program: z.string(),
      price_info: z.object({ price_per_token: z.number(), currency: z.string() }).optional(),
      mint_authority: z.string().optional(),
      freeze_authority: z.string().optional(),
    })
    .optional(),
  inscription: z
    .object({
      order: Integer,
      size: Integer,
      contentType: z.string(),
      encoding: z.string(),
      validationHash: z.string(),
      inscriptionDataAccount: z.string(),
      authority: z.string(),
    })
    .optional(),
  // Contents not documented.
  spl20: z.record(z.string(), z.unknown()).optional(),
  plugins: z.record(z.string(), z.unknown()).optional(),
  is_agent: z.boolean().optional(),
  agent_token: z.string().optional(),
  asset_signer: z.string().optional(),
  mutable: z.boolean().optional(),
  burnt: z.boolean().optional(),
})
export type Asset = z.infer<typeof Asset>

/**
 * Listing envelope of getAssetsByOwner/ByAuthority. `page` is absent when the
 * caller pages with before/after/cursor (the two styles cannot be combined), and the
 * cursor style returns `cursor` (= last asset id) instead. Uncertain: the interface shows only the page form.
 */
export const AssetList = z.object({
  last_indexed_slot: Integer,
  total: Integer,
  limit: Integer,
  page: Integer.optional(),
  cursor: z.string().nullable().optional(),
  before: z.string().nullable().optional(),
  after: z.string().nullable().optional(),
  // Every item the listing holds, when asked with options.showGrandTotal.
  grand_total: Integer.optional(),
  items: z.array(Asset),
})
export type AssetList = z.infer<typeof AssetList>

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

/** getAssetBatch result: array of assets. */
export const GetAssetBatchResult = z.array(Asset)
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

/** Token account of getTokenAccounts. */
export const TokenAccount = z.object({
  address: z.string(),
  mint: z.string(),
  owner: z.string(),
  amount: IntegerAmount,
  delegated_amount: IntegerAmount,
  frozen: z.boolean(),
  // "present in the response schema with no concrete type", as the service describes it.
  burnt: z.unknown().optional(),
})
export type TokenAccount = z.infer<typeof TokenAccount>

/**
 * getTokenAccounts result. `cursor` is typed string; null/absent is accepted
 * on the last page and in page-number mode. Uncertain: the interface shows one page only.
 */
export const GetTokenAccountsResult = z.object({
  last_indexed_slot: Integer,
  total: Integer,
  limit: Integer,
  page: Integer.optional(),
  cursor: z.string().nullable().optional(),
  token_accounts: z.array(TokenAccount),
})
export type GetTokenAccountsResult = z.infer<typeof GetTokenAccountsResult>
