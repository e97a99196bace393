import { describe, expect, it } from 'vitest'
import { BALANCE_AT_NATIVE_SOL_MINT, NATIVE_SOL_MINT } from '@shared/api/base58'
import { currencyNames } from '../../../src-main/export/currency-names'

const MOSS_TOKEN = 'MoSsTokenMint111111111111111111111111111111'
const MOSS_NFT_A = 'MoSsNftA11111111111111111111111111111111111'
const MOSS_NFT_B = 'MoSsNftB11111111111111111111111111111111111'
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
const FAKE_SOL = 'FakeSo1111111111111111111111111111111111111'

describe('currency names of tax layouts', () => {
  const names = currencyNames([
    { mint: USDC, symbol: 'USDC' },
    { mint: MOSS_TOKEN, symbol: 'MOSS' },
    { mint: MOSS_NFT_A, symbol: 'MOSS' },
    { mint: MOSS_NFT_B, symbol: 'moss' },
    { mint: FAKE_SOL, symbol: 'SOL' },
    { mint: NATIVE_SOL_MINT, symbol: 'SOL' },
  ])

  it('keeps a symbol that names one mint', () => {
    expect(names(USDC, 'USDC')).toBe('USDC')
  })

  it('gives mints that share a symbol (in any case) names that tell them apart by address', () => {
    const moss = [MOSS_TOKEN, MOSS_NFT_A, MOSS_NFT_B].map((m) => names(m, 'MOSS'))
    expect(new Set(moss.map((n) => n.toUpperCase())).size).toBe(3)
    expect(moss[0]).toBe('MOSS-MoSsT')
    expect(moss[1]).toBe('MOSS-MoSsNftA')
    expect(moss[2]).toBe('moss-MoSsNftB')
  })

  it('keeps SOL for the native asset under both of its pseudo-mints; a token calling itself SOL is told apart', () => {
    expect(names(NATIVE_SOL_MINT, 'SOL')).toBe('SOL')
    expect(names(BALANCE_AT_NATIVE_SOL_MINT, null)).toBe('SOL')
    expect(names(FAKE_SOL, 'SOL')).toBe('SOL-Fake')
  })

  it('names a mint without a symbol by its address, and a mint the table missed without a clash', () => {
    expect(names('NoSymbo11111111111111111111111111111111111', null)).toBe(
      'NoSymbo11111111111111111111111111111111111',
    )
    expect(names('LateMint1111111111111111111111111111111111', 'USDC')).toBe('USDC-Late')
    expect(names('Fresh11111111111111111111111111111111111111', 'FRSH')).toBe('FRSH')
    expect(names('Fresh22222222222222222222222222222222222222', 'FRSH')).toBe('FRSH-Fres')
  })
})
