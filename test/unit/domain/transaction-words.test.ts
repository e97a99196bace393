import { describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import {
  transactionSummary,
  transactionWords,
  walletTransactionLine,
  type WordedLeg,
  type WordedTransaction,
} from '@shared/domain/transaction-words'
import { testAddress } from '../../helpers/wallets'

// One text for a transaction, the feed's row and the alerts' line alike: every leg named or
// counted by side, the USD figure the named legs' value, NFT trades in words with the NFT's
// name, and names from the chain as plain text.

const USDC = testAddress(20)
const NFT = testAddress(21)
const LUMN = testAddress(22)
const party = testAddress(40)
const short = (a: string) => `${a.slice(0, 4)}…${a.slice(-4)}`
const leg = (
  mint: string,
  symbol: string | null,
  amountText: string,
  priceUsd: number | null = null,
  extra: Partial<WordedLeg> = {},
): WordedLeg => ({ mint, symbol, amountText, priceUsd, decimals: 6, ...extra })
const tx = (
  legs: WordedLeg[],
  kind = 'TRANSFER',
  extra: Partial<WordedTransaction> = {},
): WordedTransaction => ({ kind, isFailed: false, legs, transfers: [], ...extra })

describe('transaction words', () => {
  it('names what was received and from whom, by name where known, else the short address', () => {
    const received = tx([leg(USDC, 'USDC', '240', 1)], 'TRANSFER', {
      transfers: [
        {
          direction: 'in' as const,
          mint: USDC,
          counterparty: party,
          counterpartyName: 'sunny.sol',
        },
      ],
    })
    expect(transactionSummary(received)).toBe('Received 240 USDC from sunny.sol')
    const unnamed = {
      ...received,
      transfers: [{ ...received.transfers[0]!, counterpartyName: null }],
    }
    expect(transactionSummary(unnamed)).toBe(`Received 240 USDC from ${short(party)}`)
    expect(walletTransactionLine('Treasury', received)).toBe(
      'Treasury received 240 USDC from sunny.sol (≈ $240.00)',
    )
  })

  it('says what was sent, swapped, bought and sold', () => {
    expect(transactionSummary(tx([leg(NATIVE_SOL_MINT, 'SOL', '-1.5')]))).toBe('Sent 1.5 SOL')
    expect(
      transactionSummary(
        tx([leg(NATIVE_SOL_MINT, 'SOL', '-1.5', 150), leg(USDC, 'USDC', '210.3', 1)], 'SWAP'),
      ),
    ).toBe('Swapped 1.5 SOL for 210.3 USDC')
    const nft = (amountText: string, name: string | null, symbol: string | null = 'APE') =>
      leg(NFT, symbol, amountText, null, { decimals: 0, name })
    expect(
      transactionSummary(tx([nft('-1', null), leg(NATIVE_SOL_MINT, 'SOL', '12', 150)], 'NFT_SALE')),
    ).toBe('Sold 1 APE for 12 SOL')
    expect(
      transactionSummary(
        tx([nft('1', null, null), leg(NATIVE_SOL_MINT, 'SOL', '-0.4', 150)], 'NFT_SALE'),
      ),
    ).toBe(`Bought 1 ${short(NFT)} for 0.4 SOL`)
    // With the NFT's name, the feed and the alert both say it.
    const bought = tx(
      [nft('1', 'Sunflower #12', 'SUNF'), leg(NATIVE_SOL_MINT, 'SOL', '-0.97', 150)],
      'NFT_SALE',
    )
    expect(transactionSummary(bought)).toBe('Bought Sunflower #12 for 0.97 SOL')
    expect(walletTransactionLine('Collector', bought)).toBe(
      'Collector bought Sunflower #12 for 0.97 SOL (≈ $145.50)',
    )
  })

  it('counts what it does not name by side, and values only what it names', () => {
    // Two legs of about $2.2k each and eight other tokens: the trade is worth $2.2k.
    const others = [
      ...['A', 'B', 'C', 'D', 'E', 'F'].map((s, i) => leg(testAddress(50 + i), s, '-3', 100)),
      ...['G', 'H'].map((s, i) => leg(testAddress(60 + i), s, '7', 200)),
    ]
    const swap = tx(
      [leg(LUMN, 'LUMN', '-5033', 0.44), leg(NATIVE_SOL_MINT, 'SOL', '14.96', 148.25), ...others],
      'SWAP',
    )
    const words = transactionWords(swap)
    expect(words.action).toBe('swapped 5,033 LUMN for 14.96 SOL and 6 more sent, 2 more received')
    expect(words.usd).toBeCloseTo(2217.82, 2)
    expect(walletTransactionLine('Trader', swap)).toBe(
      'Trader swapped 5,033 LUMN for 14.96 SOL and 6 more sent, 2 more received (≈ $2,217.82)',
    )
    // One way only: the rest are tokens of the same side.
    expect(
      transactionSummary(
        tx([leg(USDC, 'USDC', '-5', 1), leg(LUMN, 'LUMN', '-10', 0.44), leg(NFT, 'X', '-2')]),
      ),
    ).toBe('Sent 5 USDC and 2 more tokens')
  })

  it('names a priced leg before a larger unpriced one', () => {
    const words = transactionWords(
      tx([leg(testAddress(70), 'SPAM', '1000000'), leg(USDC, 'USDC', '5', 1)]),
    )
    expect(words.action).toBe('received 5 USDC and 1 more token')
    expect(words.usd).toBe(5)
  })

  it('shows names from the chain as plain, short text', () => {
    const hostile = tx([
      leg(USDC, '<!channel>\u202e\n', '5', 1),
      leg(LUMN, 'A'.repeat(100), '1', null),
    ])
    expect(transactionSummary(hostile)).toBe(`Received 5 <!channel> and 1 more token`)
    expect(transactionSummary(tx([leg(LUMN, 'A'.repeat(100), '1')]))).toBe(
      `Received 1 ${'A'.repeat(15)}…`,
    )
  })

  it('marks a failed transaction, and one that moved nothing but its fee', () => {
    expect(transactionSummary(tx([], 'UNKNOWN', { isFailed: true }))).toBe(
      'Failed transaction (fee only)',
    )
    expect(transactionSummary(tx([], 'UNKNOWN'))).toBe('No balance change (fee only)')
    expect(walletTransactionLine('Hot', tx([], 'UNKNOWN', { isFailed: true }))).toBe(
      'Hot: a failed transaction (fee only)',
    )
  })
})
