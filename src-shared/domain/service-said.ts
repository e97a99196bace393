import { lamportsText } from './display-text'
import { shortAddress } from './wallet-address'

// What the service says of a transaction when it parses it (an enhanced transaction): its
// type, the program or marketplace it ran through, its own sentence and an NFT sale's
// price, buyer and seller. History, the feed and alerts show these words where the service
// gave them, and the app's derived type only where it gave none.

/** Sources that say nothing a person needs: every transaction runs through them. */
const PLAIN_SOURCES = new Set(['SYSTEM_PROGRAM', 'UNKNOWN', ''])

/**
 * A source as a person reads it, or null for the plain system program.
 *
 * @example
 * sourceName('MAGIC_EDEN') // 'Magic Eden'
 */
export function sourceName(source: string | null): string | null {
  if (source === null || PLAIN_SOURCES.has(source.trim().toUpperCase())) return null
  return source
    .trim()
    .toLowerCase()
    .split(/[_\s]+/)
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ')
}

/**
 * A transaction type as a person reads it.
 *
 * @example
 * typeName('NFT_SALE') // 'NFT sale'
 */
export function typeName(kind: string): string {
  const words = kind
    .trim()
    .toLowerCase()
    .split(/_+/)
    .filter((w) => w !== '')
  const shown = words.map((w) => (w === 'nft' || w === 'sol' ? w.toUpperCase() : w)).join(' ')
  return shown.charAt(0).toUpperCase() + shown.slice(1)
}

/** An NFT sale as the service reports it: the price in lamports, the two sides, where. */
export interface NftSaleFacts {
  priceLamports: string | null
  buyer: string | null
  seller: string | null
  marketplace: string | null
}

/**
 * An NFT sale in one line from the wallet's side.
 *
 * @example
 * nftSaleText({ priceLamports: '72000000000', buyer: W, seller: S, marketplace: 'MAGIC_EDEN' }, W)
 * // 'Bought for 72 SOL on Magic Eden from S…xyz'
 */
export function nftSaleText(sale: NftSaleFacts, walletAddress: string): string {
  const isBuyer = sale.buyer === walletAddress
  const isSeller = sale.seller === walletAddress
  const verb = isBuyer ? 'Bought' : isSeller ? 'Sold' : 'NFT sale'
  const price = sale.priceLamports === null ? '' : ` for ${lamportsText(sale.priceLamports)}`
  const place = sourceName(sale.marketplace)
  const party = isBuyer ? sale.seller : isSeller ? sale.buyer : null
  const with_ = party ? ` ${isBuyer ? 'from' : 'to'} ${shortAddress(party)}` : ''
  return `${verb}${price}${place ? ` on ${place}` : ''}${with_}`
}
