import { describe, expect, it } from 'vitest'
import {
  countText,
  creditsText,
  exactUsd,
  formatCount,
  formatDate,
  formatDateTime,
  formatPrice,
  formatRelative,
  formatUsd,
  lamportsText,
  solHeading,
  tokenAmountText,
  tokenLabel,
} from '../../../src-shared/domain/display-text'
import { chartChoiceGroups } from '../../../src-renderer/lib/format/chart-choices'

// Text a person reads, one module for the app, the CLI and the look-up desk: money to the
// cent with separators, counts with their nouns, one date format, token names before
// addresses, decimals applied, SOL said gross or net.

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'

describe('money', () => {
  it('is dollars to the cent with thousands separators', () => {
    expect(formatUsd(21557.99)).toBe('$21,557.99')
    expect(formatUsd(0.5)).toBe('$0.50')
    expect(formatUsd(-1234.5)).toBe('-$1,234.50')
    expect(formatUsd(1_234_567, { isCompact: true })).toBe('$1.2M')
    expect(formatUsd(9_999, { isCompact: true })).toBe('$9,999.00')
  })

  it('a price keeps every digit it has, at least cents', () => {
    expect(formatPrice(148.253)).toBe('$148.253')
    expect(formatPrice(0.00002143)).toBe('$0.00002143')
    expect(formatPrice(1)).toBe('$1.00')
    expect(formatPrice(12345.6)).toBe('$12,345.60')
  })

  it('the exact value for a tooltip has every digit, grouped', () => {
    expect(exactUsd(21557.987)).toBe('$21,557.987')
    expect(exactUsd(-3)).toBe('−$3')
  })
})

describe('counts and plurals', () => {
  it('one is singular, anything else plural, grouped', () => {
    expect(creditsText(1)).toBe('1 credit')
    expect(creditsText(1500)).toBe('1,500 credits')
    expect(creditsText(null)).toBe('price unknown')
    expect(countText(6, 'token')).toBe('6 tokens')
    expect(countText(0, 'asset')).toBe('0 assets')
    expect(countText(1, 'entry', 'entries')).toBe('1 entry')
    expect(formatCount(20141)).toBe('20,141')
  })
})

describe('token amounts', () => {
  it('applies decimals to smallest units and names the token by its symbol', () => {
    expect(tokenAmountText({ mint: USDC, symbol: 'USDC', raw: '21557990000', decimals: 6 })).toBe(
      '21,557.99 USDC',
    )
  })

  it('names a token without a symbol by its name, else by its short address', () => {
    expect(tokenLabel({ mint: USDC, name: 'USD Coin' })).toBe('USD Coin')
    expect(tokenLabel({ mint: USDC })).toBe('EPjF…Dt1v')
    expect(tokenAmountText({ mint: USDC, amount: '0.5' })).toBe('0.5 EPjF…Dt1v')
  })

  it('says smallest units when the decimals are not known', () => {
    expect(tokenAmountText({ mint: USDC, symbol: 'USDC', raw: '1234567' })).toBe(
      '1,234,567 smallest units of USDC',
    )
  })

  it('SOL from lamports, and which SOL figure a heading shows', () => {
    expect(lamportsText(1_500_000_000)).toBe('1.5 SOL')
    expect(lamportsText('2039280')).toBe('0.00203928 SOL')
    expect(solHeading('Change', 'net')).toBe('Change (SOL, net of fees)')
    expect(solHeading('Amount', 'gross')).toBe('Amount (SOL, before fees)')
  })
})

describe('dates', () => {
  // 2026-11-18 11:06:40 UTC
  const sec = 1_795_000_000

  it('one format, year first, UTC marked as UTC', () => {
    expect(formatDate(sec, 'utc')).toBe('2026-11-18')
    expect(formatDateTime(sec, 'utc')).toBe('2026-11-18 11:06 UTC')
    expect(formatDateTime(sec, 'utc', { withSeconds: true })).toBe('2026-11-18 11:06:40 UTC')
  })

  it('local time in the same format, without the UTC mark', () => {
    const d = new Date(sec * 1000)
    const pad = (n: number) => String(n).padStart(2, '0')
    expect(formatDateTime(sec, 'local')).toBe(
      `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`,
    )
  })

  it('relative times count from the now they are given', () => {
    expect(formatRelative(sec, sec + 180)).toBe('3 minutes ago')
    expect(formatRelative(sec, sec + 10)).toBe('now')
    expect(formatRelative(sec + 2 * 86_400, sec)).toBe('in 2 days')
  })
})

describe('chart token pickers', () => {
  const token = (mint: string, symbol: string | null) => ({
    mint,
    symbol,
    isNft: false,
    nftName: null,
    nftCollection: null,
  })
  const nft = (mint: string, name: string | null, collection: string | null) => ({
    mint,
    symbol: 'GATE',
    isNft: true,
    nftName: name,
    nftCollection: collection,
  })

  it('tokens by symbol, NFTs under their collection by their own names, no label twice', () => {
    const groups = chartChoiceGroups([
      token('So11111111111111111111111111111111111111112', 'SOL'),
      token(USDC, null),
      nft('Gate1111111111111111111111111111111111111111', 'Gate #698', 'Gates'),
      nft('Gate2222222222222222222222222222222222222222', 'Gate #6672', 'Gates'),
      nft('Gate3333333333333333333333333333333333333333', null, null),
      nft('Gate4444444444444444444444444444444444444444', null, null),
    ])
    expect(groups.map((g) => g.heading)).toEqual([null, 'NFTs · Gates', 'NFTs'])
    expect(groups[0]!.options.map((o) => o.label)).toEqual(['SOL', 'EPjF…Dt1v'])
    expect(groups[1]!.options.map((o) => o.label)).toEqual(['Gate #698', 'Gate #6672'])
    const labels = groups.flatMap((g) => g.options.map((o) => o.label))
    expect(new Set(labels).size).toBe(labels.length)
    expect(groups[2]!.options.map((o) => o.label)).toEqual(['GATE · Gate…3333', 'GATE · Gate…4444'])
  })
})
