import type { z } from 'zod'
import type { TokenMetadataRecord, TokenMetadataRequest } from '@shared/api/token-metadata'
import type {
  CreateWebhookRequest,
  DeleteWebhookRequest,
  GetWebhookRequest,
  ListWebhooksRequest,
  ToggleWebhookRequest,
  UpdateWebhookRequest,
  Webhook,
} from '@shared/api/webhooks'
import { formatRawAmount } from '../chain/mints'
import type { MintInfo } from '../chain/mints'
import { collectibleAsset } from '../chain/views'
import type { HandlerContext } from './handler-context'

// The v0 REST endpoints: deprecated token metadata and webhook management
// (list, get, create, update, delete, toggle): docs/service.md, Token metadata and Webhooks.

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'

function missingRecord(account: string): TokenMetadataRecord {
  return {
    account,
    onChainAccountInfo: { accountInfo: null, error: 'account not found' },
    onChainMetadata: { metadata: null, error: 'metadata account not found' },
    legacyMetadata: null,
  }
}

function mintRecord(
  mint: MintInfo,
  includeOffChain: boolean,
  authority: string,
): TokenMetadataRecord {
  const program = mint.tokenProgram === 'token-2022' ? TOKEN_2022_PROGRAM : TOKEN_PROGRAM
  const uri = `https://assets.heliograph-sim.invalid/tokens/${mint.symbol}.json`
  return {
    account: mint.address,
    onChainAccountInfo: {
      accountInfo: {
        key: mint.address,
        isSigner: false,
        isWritable: false,
        lamports: 1_461_600,
        data: {
          parsed: {
            info: {
              decimals: mint.decimals,
              freezeAuthority: '',
              isInitialized: true,
              mintAuthority: authority,
              supply: mint.supplyRaw.toString(),
            },
            type: 'mint',
          },
          program: mint.tokenProgram,
          space: 82,
        },
        owner: program,
        executable: false,
        rentEpoch: 0,
      },
      error: '',
    },
    onChainMetadata: {
      metadata: {
        key: 'MetadataV1',
        mint: mint.address,
        updateAuthority: authority,
        data: { name: mint.name, symbol: mint.symbol, uri, sellerFeeBasisPoints: 0, creators: [] },
        tokenStandard: 'Fungible',
        primarySaleHappened: false,
        isMutable: true,
        editionNonce: 255,
        collection: { key: '', verified: false },
        collectionDetails: { size: 0 },
        uses: { useMethod: 'Single', remaining: 0, total: 0 },
      },
      error: '',
    },
    ...(includeOffChain
      ? {
          offChainMetadata: {
            metadata: {
              name: mint.name,
              symbol: mint.symbol,
              attributes: [],
              sellerFeeBasisPoints: 0,
              image: mint.logoUri,
              properties: {
                category: 'currency',
                files: [{ uri: mint.logoUri, type: 'image/svg+xml' }],
                creators: [],
              },
            },
            uri,
            error: '',
          },
        }
      : {}),
    legacyMetadata: {
      chainId: 101,
      address: mint.address,
      symbol: mint.symbol,
      name: mint.name,
      decimals: mint.decimals,
      logoURI: mint.logoUri,
      tags: [],
      extensions: { supply: formatRawAmount(mint.supplyRaw, mint.decimals) },
    },
  }
}

export function postTokenMetadata(
  q: z.output<typeof TokenMetadataRequest>,
  ctx: HandlerContext,
): TokenMetadataRecord[] {
  const { chain } = ctx
  const authority = ctx.keys.ownerAddress('mint-authority')
  return q.mintAccounts.map((account) => {
    const mint = chain.mintByAddressOrNull(account)
    if (mint) return mintRecord(mint, q.includeOffChain ?? false, authority)
    const origin = chain.assetOrigin(account)
    if (origin && origin.tx.collectible?.kind === 'nft') {
      const asset = collectibleAsset(chain, origin.wallet, origin.tx)
      const name = asset.content.metadata?.name ?? ''
      return {
        account,
        onChainAccountInfo: { accountInfo: null, error: '' },
        onChainMetadata: {
          metadata: {
            key: 'MetadataV1',
            mint: account,
            updateAuthority: asset.authorities[0]?.address ?? '',
            data: {
              name,
              symbol: asset.content.metadata?.symbol ?? '',
              uri: asset.content.json_uri ?? '',
              sellerFeeBasisPoints: 500,
              creators: [],
            },
            tokenStandard: 'ProgrammableNonFungible',
            primarySaleHappened: true,
            isMutable: true,
            editionNonce: 254,
            collection: { key: asset.grouping[0]?.group_value ?? '', verified: true },
            collectionDetails: { size: 0 },
            uses: { useMethod: 'Single', remaining: 0, total: 0 },
          },
          error: '',
        },
        legacyMetadata: null,
      }
    }
    return missingRecord(account)
  })
}

export function listWebhooks(
  _q: z.output<typeof ListWebhooksRequest>,
  ctx: HandlerContext,
): Webhook[] {
  return ctx.webhooks.list(ctx.key)
}

export function getWebhook(q: z.output<typeof GetWebhookRequest>, ctx: HandlerContext): Webhook {
  return ctx.webhooks.get(ctx.key, q.webhookID)
}

export function createWebhook(
  q: z.output<typeof CreateWebhookRequest>,
  ctx: HandlerContext,
): Webhook {
  return ctx.webhooks.create(ctx.key, q)
}

export function updateWebhook(
  q: z.output<typeof UpdateWebhookRequest>,
  ctx: HandlerContext,
): Webhook {
  return ctx.webhooks.update(ctx.key, q)
}

export function deleteWebhook(q: z.output<typeof DeleteWebhookRequest>, ctx: HandlerContext): null {
  return ctx.webhooks.remove(ctx.key, q.webhookID)
}

export function toggleWebhook(
  q: z.output<typeof ToggleWebhookRequest>,
  ctx: HandlerContext,
): Webhook {
  return ctx.webhooks.toggle(ctx.key, q.webhookID, q.active)
}
