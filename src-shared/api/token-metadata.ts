import { z } from 'zod'
import { WalletAddress } from './base58'
import { listOrEmpty } from './answer-edge'
import { Integer, IntegerAmount } from './numbers'

// POST {rest_url}/v0/token-metadata (docs/service.md, Token metadata). Deprecated in favour of DAS.
// Each part carries an `error` string, empty when fine. When a part failed its
// payload cannot be there, so the payload objects are accepted as null (inferred, uncertain).

/**
 * POST /v0/token-metadata body: at most 100 mint accounts.
 * @deprecated The service replaced token-metadata with the DAS methods.
 */
export const TokenMetadataRequest = z.strictObject({
  mintAccounts: z.array(WalletAddress).min(1).max(100),
  includeOffChain: z.boolean().optional(),
  disableCache: z.boolean().optional(),
})
/** @deprecated Use DAS getAssetBatch. */
export type TokenMetadataRequest = z.input<typeof TokenMetadataRequest>

/** A creator's share in percent: a number in captured answers, text in the interface text. */
const CreatorShare = z.union([z.number(), z.string()])

/** On-chain account info part. */
const OnChainAccountInfo = z.object({
  accountInfo: z
    .object({
      key: z.string(),
      isSigner: z.boolean(),
      isWritable: z.boolean(),
      lamports: IntegerAmount,
      data: z.object({
        parsed: z.object({
          info: z.object({
            decimals: Integer,
            // A mint without an authority names none (null), as jsonParsed does.
            freezeAuthority: z.string().nullable(),
            isInitialized: z.boolean(),
            mintAuthority: z.string().nullable(),
            supply: z.string(),
          }),
          type: z.string(),
        }),
        program: z.string(),
        space: Integer,
      }),
      owner: z.string(),
      executable: z.boolean(),
      rentEpoch: IntegerAmount,
    })
    .nullable(),
  error: z.string(),
})

/** On-chain metadata part. */
const OnChainMetadata = z.object({
  metadata: z
    .object({
      key: z.string(),
      mint: z.string(),
      updateAuthority: z.string(),
      data: z.object({
        name: z.string(),
        symbol: z.string(),
        uri: z.string(),
        sellerFeeBasisPoints: Integer,
        creators: listOrEmpty(
          z.object({ address: z.string(), share: CreatorShare, verified: z.boolean() }),
        ),
      }),
      tokenStandard: z.string().nullable(),
      primarySaleHappened: z.boolean(),
      isMutable: z.boolean(),
      editionNonce: Integer.nullable(),
      // Null where the NFT has none, as a captured answer shows (collectionDetails).
      collection: z.object({ key: z.string(), verified: z.boolean() }).nullish(),
      collectionDetails: z.object({ size: Integer }).nullish(),
      uses: z.object({ useMethod: z.string(), remaining: Integer, total: Integer }).nullish(),
    })
    .nullable(),
  error: z.string(),
})

/** Off-chain metadata part, fetched from the metadata uri (with includeOffChain). */
const OffChainMetadata = z.object({
  metadata: z
    .object({
      name: z.string(),
      symbol: z.string(),
      // Whatever the metadata file holds: a trait's value is text or a number.
      attributes: listOrEmpty(
        z.object({ traitType: z.string(), value: z.union([z.string(), z.number()]) }),
      ),
      sellerFeeBasisPoints: Integer.optional(),
      image: z.string().optional(),
      properties: z
        .object({
          category: z.string().nullish(),
          files: listOrEmpty(z.object({ uri: z.string(), type: z.string() })),
          creators: listOrEmpty(z.object({ address: z.string(), share: CreatorShare })),
        })
        .optional(),
    })
    .nullable(),
  uri: z.string(),
  error: z.string(),
})

/** Legacy token-list entry; most mints are not in the old list, hence nullable (uncertain). */
const LegacyMetadata = z
  .object({
    chainId: Integer,
    address: z.string(),
    symbol: z.string(),
    name: z.string(),
    decimals: Integer,
    logoURI: z.string(),
    tags: z.array(z.string()),
    extensions: z.record(z.string(), z.unknown()),
  })
  .nullable()

/**
 * Token metadata record, one per requested mint.
 * @deprecated The service replaced token-metadata with the DAS methods.
 */
export const TokenMetadataRecord = z.object({
  account: z.string(),
  onChainAccountInfo: OnChainAccountInfo,
  onChainMetadata: OnChainMetadata,
  // Only filled when includeOffChain=true.
  offChainMetadata: OffChainMetadata.optional(),
  legacyMetadata: LegacyMetadata,
})
/** @deprecated Use DAS assets. */
export type TokenMetadataRecord = z.infer<typeof TokenMetadataRecord>

/**
 * Token-metadata response: array of records.
 * @deprecated The service replaced token-metadata with the DAS methods.
 */
export const TokenMetadataResponse = z.array(TokenMetadataRecord)
/** @deprecated Use DAS getAssetBatch. */
export type TokenMetadataResponse = z.infer<typeof TokenMetadataResponse>
