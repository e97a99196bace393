import bs58 from 'bs58'
import { describe, expect, it } from 'vitest'
import {
  describeAddressProblem,
  shortAddress,
  WalletAddressInput,
  walletName,
} from '@shared/domain/wallet-address'
import { testAddress } from '../../helpers/wallets'

describe('wallet address validation', () => {
  it('accepts the native mint and generated 32-byte keys', () => {
    expect(describeAddressProblem('So11111111111111111111111111111111111111112')).toBeNull()
    for (let n = 0; n < 50; n++) expect(describeAddressProblem(testAddress(n))).toBeNull()
  })

  it('names the length when too short or too long', () => {
    expect(describeAddressProblem('abc')).toMatch(/3 characters long; an address has 32 to 44/)
    expect(describeAddressProblem('1'.repeat(45))).toMatch(/45 characters/)
  })

  it('names the characters base58 does not use', () => {
    const bad = `0O${testAddress(1).slice(2)}`
    expect(describeAddressProblem(bad)).toMatch(/'0', 'O'.*base58/)
  })

  it('rejects base58 text that does not decode to 32 bytes', () => {
    const thirtyOneBytes = bs58.encode(new Uint8Array(31).fill(200))
    expect(thirtyOneBytes.length).toBeGreaterThanOrEqual(32)
    expect(describeAddressProblem(thirtyOneBytes)).toMatch(/decodes to 31 bytes/)
  })

  it('trims input and reports the problem as the schema message', () => {
    const address = testAddress(7)
    expect(WalletAddressInput.parse(`  ${address}\n`)).toBe(address)
    const result = WalletAddressInput.safeParse('not-an-address')
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toMatch(/^Address is 14 characters long/)
  })

  it('shortens for display keeping both ends', () => {
    const address = testAddress(3)
    expect(shortAddress(address)).toBe(`${address.slice(0, 4)}…${address.slice(-4)}`)
    expect(shortAddress('abc')).toBe('abc')
  })

  it('names an unlabelled wallet one way: its short address (it was also "Unlabelled wallet")', () => {
    const address = testAddress(5)
    expect(walletName({ address, label: null })).toBe(shortAddress(address))
    expect(walletName({ address, label: 'Trading wallet' })).toBe('Trading wallet')
  })
})
