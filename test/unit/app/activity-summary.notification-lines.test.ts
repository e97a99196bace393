import { describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { summarizeNewActivity } from '../../../src-main/app/activity-summary'

// Notifications name only the incoming leg of a swap and print amounts without
// separators (issue 13, item 17): a swap names both legs, amounts follow the one rule.

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'
const sol = (amount: number) => ({ mint: NATIVE_SOL_MINT, amount, symbol: 'SOL', priceUsd: 140 })
const usdc = (amount: number) => ({ mint: USDC, amount, symbol: 'USDC', priceUsd: 1 })

describe('notification lines for new activity', () => {
  it('a swap names both legs, the SOL leg without the fee the wallet paid', () => {
    const line = summarizeNewActivity(
      { label: 'Trading wallet', movements: [sol(-1.500005), usdc(210.3)], feesPaidSol: 0.000005 },
      'Trading wallet',
      1,
    )
    expect(line).toBe('Swapped 1.5 SOL for 210.3 USDC on Trading wallet')
  })

  it('several new transactions that swap say how many and still name both legs', () => {
    const line = summarizeNewActivity(
      {
        label: null,
        movements: [
          sol(-2.00001),
          usdc(280),
          { mint: BONK, amount: 5, symbol: null, priceUsd: null },
        ],
        feesPaidSol: 0.00001,
      },
      '7xKX…gAsU',
      3,
    )
    expect(line).toBe(
      '3 new transactions · swapped 2 SOL for 280 USDC and 1 more received on 7xKX…gAsU',
    )
  })

  it('prints amounts with grouping separators (−18595.522735 was printed bare)', () => {
    const line = summarizeNewActivity(
      { label: 'Whale', movements: [usdc(-18595.522735)], feesPaidSol: 0 },
      'Whale',
      1,
    )
    expect(line).toBe('−18,595.522735 USDC from Whale')
  })

  it('a receipt names what came in; a fee-only transaction names no amount', () => {
    expect(
      summarizeNewActivity({ label: 'A', movements: [usdc(12.5)], feesPaidSol: 0 }, 'A', 1),
    ).toBe('+12.5 USDC to A')
    expect(
      summarizeNewActivity(
        { label: 'A', movements: [sol(-0.000005)], feesPaidSol: 0.000005 },
        'A',
        1,
      ),
    ).toBe('New transaction on A')
  })
})
