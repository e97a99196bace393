import { describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { summarizeTransaction } from '../../../src-main/app/activity-summary'
import { testAddress } from '../../helpers/wallets'

// A feed row's one line says what the transaction did for the wallet (its legs, the fee
// already left out), naming the counterparty as the mirror knows it.

const USDC = testAddress(20)
const NFT = testAddress(21)
const party = testAddress(40)
const leg = (
  mint: string,
  symbol: string | null,
  amountText: string,
  priceUsd: number | null = null,
) => ({
  mint,
  symbol,
  amountText,
  priceUsd,
})

describe('summarizeTransaction', () => {
  it('names what was received and from whom, by name where known, else the short address', () => {
    const tx = {
      kind: 'TRANSFER',
      isFailed: false,
      legs: [leg(USDC, 'USDC', '240', 1)],
      transfers: [
        {
          direction: 'in' as const,
          mint: USDC,
          counterparty: party,
          counterpartyName: 'sunny.sol',
        },
      ],
    }
    expect(summarizeTransaction(tx)).toBe('Received 240 USDC from sunny.sol')
    const unnamed = { ...tx, transfers: [{ ...tx.transfers[0]!, counterpartyName: null }] }
    expect(summarizeTransaction(unnamed)).toBe(
      `Received 240 USDC from ${party.slice(0, 4)}…${party.slice(-4)}`,
    )
  })

  it('says what was sent, swapped, bought and sold', () => {
    expect(
      summarizeTransaction({
        kind: 'TRANSFER',
        isFailed: false,
        legs: [leg(NATIVE_SOL_MINT, 'SOL', '-1.5')],
        transfers: [],
      }),
    ).toBe('Sent 1.5 SOL')
    expect(
      summarizeTransaction({
        kind: 'SWAP',
        isFailed: false,
        legs: [leg(NATIVE_SOL_MINT, 'SOL', '-1.5', 150), leg(USDC, 'USDC', '210.3', 1)],
        transfers: [],
      }),
    ).toBe('Swapped 1.5 SOL for 210.3 USDC')
    // Where the service named the program it ran through, the line says it.
    expect(
      summarizeTransaction({
        kind: 'SWAP',
        said: { source: 'JUPITER' },
        isFailed: false,
        legs: [leg(NATIVE_SOL_MINT, 'SOL', '-1.5', 150), leg(USDC, 'USDC', '210.3', 1)],
        transfers: [],
      }),
    ).toBe('Swapped 1.5 SOL for 210.3 USDC on Jupiter')
    expect(
      summarizeTransaction({
        kind: 'NFT_SALE',
        isFailed: false,
        legs: [leg(NFT, 'APE', '-1'), leg(NATIVE_SOL_MINT, 'SOL', '12', 150)],
        transfers: [],
      }),
    ).toBe('Sold 1 APE for 12 SOL')
    expect(
      summarizeTransaction({
        kind: 'NFT_SALE',
        isFailed: false,
        legs: [leg(NFT, null, '1'), leg(NATIVE_SOL_MINT, 'SOL', '-0.4', 150)],
        transfers: [],
      }),
    ).toBe(`Bought 1 ${NFT.slice(0, 4)}…${NFT.slice(-4)} for 0.4 SOL`)
  })

  it('marks a failed transaction, and one that moved nothing but its fee', () => {
    expect(summarizeTransaction({ kind: 'UNKNOWN', isFailed: true, legs: [], transfers: [] })).toBe(
      'Failed transaction (fee only)',
    )
    expect(
      summarizeTransaction({ kind: 'UNKNOWN', isFailed: false, legs: [], transfers: [] }),
    ).toBe('No balance change (fee only)')
  })
})
