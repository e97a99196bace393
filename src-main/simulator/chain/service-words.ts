import { collectionInfo } from './views'
import { counterpartyAddress } from './counterparties'
import { formatRawAmount, SOL_MINT_INDEX, type MintInfo } from './mints'
import type { SimChain, SimWallet, TxView } from './sim-chain'

// What the service says of a transaction in an enhanced event, beyond its transfers: the
// program or marketplace it ran through (`source`), its sentence (`description`) and, for
// an NFT sale, the sale itself (`events.nft`), worded as the service's published payloads
// word them ("A sold Fox #7637 to B for 72 SOL on MAGIC_EDEN.").

/** The parts of an enhanced event that say what the transaction was. */
export interface ServiceWords {
  source: string
  description: string
  events: Record<string, unknown>
}

/** The program or marketplace each kind runs through; the rest are the system program's. */
const SOURCES: Partial<Record<TxView['kind'], string>> = {
  swap: 'JUPITER',
  failed: 'JUPITER',
  nftBuy: 'MAGIC_EDEN',
  cnftMint: 'BUBBLEGUM',
  compress: 'LIGHT_PROTOCOL',
}

/** The service's words for transaction `tx` of `wallet`. */
export function serviceWords(chain: SimChain, wallet: SimWallet, tx: TxView): ServiceWords {
  const source = SOURCES[tx.kind] ?? 'SYSTEM_PROGRAM'
  const amountOf = (leg: TxView['legs'][number]): string => {
    const mint = chain.mints[leg.mint] as MintInfo
    return `${formatRawAmount(leg.raw, mint.decimals)} ${mint.symbol}`
  }
  const out = tx.legs.find((l) => l.direction === 'out')
  const inflow = tx.legs.find((l) => l.direction === 'in')
  if (tx.kind === 'nftBuy' && tx.collectible && out) {
    const c = collectionInfo(chain.seed, tx.collectible.collection)
    const name = `${c.name} #${tx.collectible.serial}`
    const seller = counterpartyAddress(chain.seed, out.counterparty)
    const price = out.mint === SOL_MINT_INDEX ? Number(out.raw) : 0
    const description = `${seller} sold ${name} to ${wallet.address} for ${amountOf(out)} on ${source}.`
    return {
      source,
      description,
      events: {
        nft: {
          description,
          type: 'NFT_SALE',
          source,
          amount: price,
          fee: Number(tx.feeLamports),
          feePayer: wallet.address,
          signature: tx.signature,
          slot: tx.slot,
          timestamp: tx.timestamp,
          saleType: 'INSTANT_SALE',
          buyer: wallet.address,
          seller,
          staker: '',
          nfts: [{ mint: tx.collectible.assetId, tokenStandard: 'NonFungible' }],
        },
      },
    }
  }
  const description =
    out && inflow
      ? `${wallet.address} swapped ${amountOf(out)} for ${amountOf(inflow)}.`
      : out
        ? `${wallet.address} transferred ${amountOf(out)} to ${counterpartyAddress(chain.seed, out.counterparty)}.`
        : inflow
          ? `${counterpartyAddress(chain.seed, inflow.counterparty)} transferred ${amountOf(inflow)} to ${wallet.address}.`
          : ''
  return { source, description, events: {} }
}
