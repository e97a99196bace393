import { SIM_IMAGE_HOST } from '../sim-images'
import type { CompressedAccount } from '@shared/api/compression'
import type { Asset } from '@shared/api/das'
import type { SignatureInfo } from '@shared/api/rpc'
import { balancesAnswerOrder } from '@shared/api/wallet-rest'
import type {
  BalanceChange,
  HistoryEntry,
  TransferEntry,
  WalletBalance,
  WalletNft,
} from '@shared/api/wallet-rest'
import { tokenProgramId } from './accounts'
import { counterpartyAddress } from './counterparties'
import { encodeEntity } from './entity-ids'
import { COLLECTION_COUNT } from './history'
import type { MintInfo } from './mints'
import { rawToNumber, SOL_MINT_INDEX } from './mints'
import type { SimChain, SimWallet, TxView } from './sim-chain'

// Chain facts in the service's shapes (src-shared/api types). The HTTP routes and the
// /__sim/truth endpoints both use these, so truth and answers cannot disagree.

const COLLECTION_NAMES = [
  'Sunforged Sigils',
  'Quiet Lanterns',
  'Tidal Glyphs',
  'Paper Comets',
  'Moss Golems',
  'Neon Herons',
]

/** Light protocol's compressed token program (owner of compressed token accounts). */
const COMPRESSED_TOKEN_PROGRAM = 'cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m'

interface CollectionInfo {
  readonly index: number
  readonly name: string
  readonly address: string
  readonly authority: string
}

export function collectionInfo(seed: number, index: number): CollectionInfo {
  return {
    index,
    name: COLLECTION_NAMES[index % COLLECTION_COUNT] ?? 'Collection',
    address: encodeEntity(seed, 'collection', index, 0),
    authority: encodeEntity(seed, 'authority', index, 0),
  }
}

/** Mint address, decimals and symbol of a change or leg (NFTs: asset id, 0 decimals). */
function mintFacts(
  chain: SimChain,
  mint: number,
  assetId: string | undefined,
): { address: string; decimals: number; symbol: string | null } {
  if (mint < 0) return { address: assetId ?? '', decimals: 0, symbol: null }
  const info = chain.mints[mint] as MintInfo
  return { address: info.address, decimals: info.decimals, symbol: info.symbol }
}

/** History entry: balance changes include the fee when the wallet paid it. */
export function historyEntry(chain: SimChain, wallet: SimWallet, tx: TxView): HistoryEntry {
  const balanceChanges: BalanceChange[] = tx.changes.map((c) => {
    const m = mintFacts(chain, c.mint, c.assetId)
    return { mint: m.address, amount: rawToNumber(c.raw, m.decimals), decimals: m.decimals }
  })
  return {
    signature: tx.signature,
    slot: tx.slot,
    timestamp: tx.timestamp,
    fee: rawToNumber(tx.feeLamports, 9),
    feePayer: tx.feePayer < 0 ? wallet.address : counterpartyAddress(chain.seed, tx.feePayer),
    balanceChanges,
    error: tx.error
      ? `${tx.error.message} (instruction ${tx.error.instruction}, custom program error ${tx.error.code})`
      : null,
  }
}

/** Transfers of one transaction, in leg order. Failed transactions move nothing. */
export function transferEntries(chain: SimChain, tx: TxView): TransferEntry[] {
  if (tx.error) return []
  return tx.legs.map((leg) => {
    const m = mintFacts(chain, leg.mint, leg.assetId)
    return {
      signature: tx.signature,
      timestamp: tx.timestamp,
      direction: leg.direction,
      counterparty: counterpartyAddress(chain.seed, leg.counterparty),
      mint: m.address,
      amount: rawToNumber(leg.raw, m.decimals),
      amountRaw: leg.raw.toString(),
      decimals: m.decimals,
      symbol: m.symbol,
    }
  })
}

/** Balance entry of a fungible mint. */
function balanceEntry(mint: MintInfo, raw: bigint): WalletBalance {
  const balance = rawToNumber(raw, mint.decimals)
  return {
    mint: mint.address,
    balance,
    decimals: mint.decimals,
    tokenProgram: mint.tokenProgram,
    symbol: mint.symbol,
    name: mint.name,
    pricePerToken: mint.priceUsd,
    usdValue: Math.round(balance * mint.priceUsd * 100) / 100,
    logoUri: mint.logoUri,
  }
}

/**
 * The wallet's fungible holdings in balances order: SOL first, then by USD value descending
 * (docs/service.md, Wallet REST); zero balances only of mints the wallet has traded or received.
 */
export function sortedHoldings(
  chain: SimChain,
  wallet: SimWallet,
  options: { showNative: boolean; showZeroBalance: boolean },
): WalletBalance[] {
  const raw = chain.balancesNow(wallet)
  const entries: WalletBalance[] = []
  for (const m of chain.mintsOf(wallet)) {
    if (m === SOL_MINT_INDEX) continue
    const amount = raw[m] ?? 0n
    if (amount === 0n && !options.showZeroBalance) continue
    entries.push(balanceEntry(chain.mints[m] as MintInfo, amount))
  }
  if (options.showNative)
    entries.push(balanceEntry(chain.mints[SOL_MINT_INDEX] as MintInfo, raw[SOL_MINT_INDEX] ?? 0n))
  return entries.sort(balancesAnswerOrder)
}

/** Display name of a collectible. */
function collectibleName(chain: SimChain, tx: TxView): string {
  const c = collectionInfo(chain.seed, tx.collectible?.collection ?? 0)
  return `${c.name} #${tx.collectible?.serial ?? 0}`
}

function imageUri(assetId: string): string {
  return `${SIM_IMAGE_HOST}${assetId}.png`
}

/** NFT entry of balances (with showNfts). */
export function nftEntry(chain: SimChain, tx: TxView): WalletNft {
  const c = collectionInfo(chain.seed, tx.collectible?.collection ?? 0)
  const assetId = tx.collectible?.assetId ?? ''
  return {
    mint: assetId,
    compressed: tx.collectible?.kind === 'cnft',
    name: collectibleName(chain, tx),
    imageUri: imageUri(assetId),
    collectionName: c.name,
    collectionAddress: c.address,
  }
}

/** The wallet's collectibles, oldest first: NFTs and compressed NFTs by acquisition. */
export function ownedCollectibles(chain: SimChain, wallet: SimWallet): TxView[] {
  const state = chain.collectibles(wallet)
  return [...state.nfts, ...state.cnfts].sort((a, b) => a - b).map((i) => chain.tx(wallet, i))
}

/** DAS asset of an NFT or compressed NFT. */
export function collectibleAsset(chain: SimChain, wallet: SimWallet, tx: TxView): Asset {
  const collectible = tx.collectible
  const assetId = collectible?.assetId ?? ''
  const c = collectionInfo(chain.seed, collectible?.collection ?? 0)
  const compressed = collectible?.kind === 'cnft'
  const name = collectibleName(chain, tx)
  const tree = encodeEntity(chain.seed, 'tree', 1, 0)
  return {
    interface: compressed ? 'V1_NFT' : 'ProgrammableNFT',
    id: assetId,
    content: {
      $schema: 'https://schema.metaplex.com/nft1.0.json',
      json_uri: `https://assets.heliograph-sim.invalid/${assetId}.json`,
      files: [{ uri: imageUri(assetId), cdn_uri: imageUri(assetId), mime: 'image/png' }],
      metadata: {
        attributes: [
          { trait_type: 'Collection', value: c.name },
          { trait_type: 'Serial', value: String(collectible?.serial ?? 0) },
        ],
        description: `${name}, a simulated collectible.`,
        name,
        symbol: c.name.slice(0, 4).toUpperCase(),
      },
    },
    authorities: [{ address: c.authority, scopes: ['full'] }],
    compression: {
      eligible: false,
      compressed,
      data_hash: compressed ? encodeEntity(chain.seed, 'dataHash', wallet.id, tx.index) : '',
      creator_hash: compressed
        ? encodeEntity(chain.seed, 'dataHash', wallet.id, tx.index + 0x40000000)
        : '',
      asset_hash: compressed
        ? encodeEntity(chain.seed, 'dataHash', wallet.id, tx.index + 0x20000000)
        : '',
      tree: compressed ? tree : '',
      seq: compressed ? tx.index + 1 : 0,
      leaf_id: compressed ? tx.index : 0,
    },
    grouping: [{ group_key: 'collection', group_value: c.address }],
    royalty: {
      royalty_model: 'creators',
      target: null,
      percent: 0.05,
      basis_points: 500,
      primary_sale_happened: true,
      locked: false,
    },
    creators: [{ address: c.authority, share: 100, verified: true }],
    ownership: {
      frozen: false,
      delegated: false,
      delegate: null,
      ownership_model: 'single',
      owner: wallet.address,
    },
    supply: {
      print_max_supply: 0,
      print_current_supply: 0,
      edition_nonce: collectible?.serial ?? 0,
    },
    mutable: true,
    burnt: false,
  }
}

/** DAS asset of a fungible mint held by a wallet (getAssetsByOwner with showFungible). */
export function fungibleAsset(
  chain: SimChain,
  owner: string,
  mint: MintInfo,
  raw: bigint,
): Asset & { token_info: NonNullable<Asset['token_info']> & { balance: number } } {
  return {
    interface: 'FungibleToken',
    id: mint.address,
    content: {
      $schema: 'https://schema.metaplex.com/nft1.0.json',
      json_uri: '',
      files: [{ uri: mint.logoUri, cdn_uri: mint.logoUri, mime: 'image/svg+xml' }],
      metadata: { attributes: [], description: mint.name, name: mint.name, symbol: mint.symbol },
    },
    authorities: [],
    compression: {
      eligible: false,
      compressed: false,
      data_hash: '',
      creator_hash: '',
      asset_hash: '',
      tree: '',
      seq: 0,
      leaf_id: 0,
    },
    grouping: [],
    royalty: {
      royalty_model: 'creators',
      target: null,
      percent: 0,
      basis_points: 0,
      primary_sale_happened: false,
      locked: false,
    },
    creators: [],
    ownership: { frozen: false, delegated: false, delegate: null, ownership_model: 'token', owner },
    token_info: {
      symbol: mint.symbol,
      balance: Number(raw),
      supply: Number(mint.supplyRaw),
      decimals: mint.decimals,
      token_program: tokenProgramId(mint.tokenProgram),
      price_info: { price_per_token: mint.priceUsd, currency: 'USDC' },
    },
    mutable: false,
    burnt: false,
  }
}

/** A compressed account the simulated chain holds: it always carries data. */
export type SimCompressedAccount = CompressedAccount & {
  data: NonNullable<CompressedAccount['data']>
}

/** The compressed account a compression transaction opened. */
export function compressedAccount(
  chain: SimChain,
  wallet: SimWallet,
  tx: TxView,
): {
  account: SimCompressedAccount
  tokenData: { amount: number; mint: string; owner: string; delegate: string; tlv: string } | null
} {
  const c = tx.compressed
  const hasToken = c?.tokenMint !== null && c?.tokenMint !== undefined
  const data = Buffer.from(`sim:${wallet.id}:${tx.index}`).toString('base64')
  const account: SimCompressedAccount = {
    hash: encodeEntity(chain.seed, 'compressedHash', wallet.id, tx.index),
    lamports: hasToken ? 0 : Number(c?.lamports ?? 0n),
    leafIndex: wallet.id * 1_048_576 + tx.index,
    owner: hasToken ? COMPRESSED_TOKEN_PROGRAM : wallet.address,
    seq: tx.index + 1,
    slotCreated: tx.slot,
    tree: encodeEntity(chain.seed, 'tree', 0, 0),
    address: hasToken ? null : encodeEntity(chain.seed, 'compressedAddress', wallet.id, tx.index),
    data: {
      data,
      dataHash: encodeEntity(chain.seed, 'dataHash', wallet.id, tx.index + 0x10000000),
      discriminator: hasToken ? 2 : 1,
    },
  }
  const tokenData =
    hasToken && c
      ? {
          amount: Number(c.tokenRaw),
          mint: (chain.mints[c.tokenMint ?? 0] as MintInfo).address,
          owner: wallet.address,
          delegate: '',
          tlv: '',
        }
      : null
  return { account, tokenData }
}

/** Standard Solana RPC signature info of a transaction. */
export function signatureInfo(tx: TxView): SignatureInfo {
  return {
    signature: tx.signature,
    slot: tx.slot,
    err: tx.error ? { InstructionError: [tx.error.instruction, { Custom: tx.error.code }] } : null,
    // Solana prefixes each memo with its length in brackets.
    memo: tx.memo === undefined ? null : `[${tx.memo.length}] ${tx.memo}`,
    blockTime: tx.timestamp,
    confirmationStatus: 'finalized',
  }
}
