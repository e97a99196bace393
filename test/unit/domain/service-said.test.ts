import { describe, expect, it } from 'vitest'
import { nftSaleText, sourceName, typeName } from '@shared/domain/service-said'
import { testAddress } from '../../helpers/wallets'

// The service's own words for a transaction, as History, the feed and alerts show them.

const WALLET = testAddress(1)
const OTHER = testAddress(2)
const short = (a: string) => `${a.slice(0, 4)}…${a.slice(-4)}`

describe('what the service said, in words', () => {
  it('names a program or marketplace, and nothing for the plain system program', () => {
    expect(sourceName('MAGIC_EDEN')).toBe('Magic Eden')
    expect(sourceName('JUPITER')).toBe('Jupiter')
    expect(sourceName('SYSTEM_PROGRAM')).toBeNull()
    expect(sourceName('UNKNOWN')).toBeNull()
    expect(sourceName(null)).toBeNull()
  })

  it('words a type, known to the app or not', () => {
    expect(typeName('NFT_SALE')).toBe('NFT sale')
    expect(typeName('SWAP')).toBe('Swap')
    expect(typeName('COMPRESSED_NFT_MINT')).toBe('Compressed NFT mint')
  })

  it('says an NFT sale from the wallet’s side: bought or sold, the price, where, with whom', () => {
    const sale = {
      priceLamports: '72000000000',
      buyer: WALLET,
      seller: OTHER,
      marketplace: 'MAGIC_EDEN',
    }
    expect(nftSaleText(sale, WALLET)).toBe(`Bought for 72 SOL on Magic Eden from ${short(OTHER)}`)
    expect(nftSaleText(sale, OTHER)).toBe(`Sold for 72 SOL on Magic Eden to ${short(WALLET)}`)
    expect(nftSaleText({ ...sale, priceLamports: null, marketplace: null }, testAddress(3))).toBe(
      'NFT sale',
    )
  })
})
