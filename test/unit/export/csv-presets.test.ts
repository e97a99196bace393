import { describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { InvalidInputError } from '@shared/ipc/ipc-errors'
import { layoutFor, type BalanceChangeRow } from '../../../src-main/export/csv-presets'

const WALLET = 'Wa11et1111111111111111111111111111111111111'
const OTHER = 'Other11111111111111111111111111111111111111'
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'

function change(over: Partial<BalanceChangeRow>): BalanceChangeRow {
  return {
    transactionId: 1,
    blockTimeSec: 1_793_491_200,
    slot: 380_000_000,
    signature: 'sig1',
    wallet: WALLET,
    walletLabel: 'Desk',
    mint: NATIVE_SOL_MINT,
    symbol: 'SOL',
    amountText: '-1.000005',
    amountRaw: '-1000005000',
    decimals: 9,
    feeText: '0.000005',
    feePayer: WALLET,
    isFailed: 0,
    ...over,
  }
}

function byHeader(header: readonly string[], record: string[]): Record<string, string> {
  return Object.fromEntries(header.map((h, i) => [h, record[i] ?? '']))
}

describe('full layout: the fee is charged once, on the fee payer’s SOL row', () => {
  const layout = layoutFor('balance-changes', 'full')

  it('puts the fee on the SOL row even when it is not the first', () => {
    const rows = [
      change({ mint: USDC, symbol: 'USDC', amountText: '10', amountRaw: '10000000', decimals: 6 }),
      change({}),
    ]
    const [usdc, sol] = layout.records(rows).map((r) => byHeader(layout.header, r))
    expect(usdc?.['Fee (SOL)']).toBe('')
    expect(sol?.['Fee (SOL)']).toBe('0.000005')
    expect(sol?.Amount).toBe('-1.000005')
    expect(sol?.Direction).toBe('out')
    expect(usdc?.Direction).toBe('in')
  })

  it('puts the fee on the first row when there is no SOL row, and nowhere when another wallet paid', () => {
    const rows = [
      change({ mint: USDC, symbol: 'USDC', amountText: '-3', amountRaw: '-3000000', decimals: 6 }),
      change({ mint: 'Bonk', symbol: 'BONK', amountText: '4', amountRaw: '4', decimals: 0 }),
    ]
    const own = layout.records(rows).map((r) => byHeader(layout.header, r)['Fee (SOL)'])
    expect(own).toEqual(['0.000005', ''])
    const paidByOther = layout.records(rows.map((r) => ({ ...r, feePayer: OTHER })))
    expect(paidByOther.map((r) => byHeader(layout.header, r)['Fee (SOL)'])).toEqual(['', ''])
  })
})

describe('Koinly and CoinTracker: sends, receives, swaps and fees as the tools expect', () => {
  const koinly = layoutFor('balance-changes', 'koinly')
  const coinTracker = layoutFor('balance-changes', 'cointracker')

  it('writes a send without the fee that the SOL change includes, and the fee apart', () => {
    const [row] = koinly.records([change({})]).map((r) => byHeader(koinly.header, r))
    expect(row).toMatchObject({
      'Sent Amount': '1',
      'Sent Currency': 'SOL',
      'Fee Amount': '0.000005',
      'Fee Currency': 'SOL',
      'Received Amount': '',
      TxHash: 'sig1',
    })
  })

  it('writes a swap (one outflow, one inflow) as one trade row', () => {
    const rows = [
      change({ amountText: '-2.000005', amountRaw: '-2000005000' }),
      change({
        mint: USDC,
        symbol: 'USDC',
        amountText: '300.5',
        amountRaw: '300500000',
        decimals: 6,
      }),
    ]
    const records = coinTracker.records(rows).map((r) => byHeader(coinTracker.header, r))
    expect(records).toEqual([
      {
        Date: '11/01/2026 00:00:00',
        'Received Quantity': '300.5',
        'Received Currency': 'USDC',
        'Sent Quantity': '2',
        'Sent Currency': 'SOL',
        'Fee Amount': '0.000005',
        'Fee Currency': 'SOL',
        Tag: '',
      },
    ])
  })

  it('writes several movements as one row each with the fee on the first only', () => {
    const rows = [
      change({ mint: USDC, symbol: 'USDC', amountText: '-1', amountRaw: '-1000000', decimals: 6 }),
      change({ mint: 'Bonk', symbol: null, amountText: '-7', amountRaw: '-7', decimals: 0 }),
      change({ mint: 'Jup', symbol: 'JUP', amountText: '2', amountRaw: '2', decimals: 0 }),
    ]
    const records = koinly.records(rows).map((r) => byHeader(koinly.header, r))
    expect(
      records.map((r) => [
        r['Sent Amount'],
        r['Sent Currency'],
        r['Received Amount'],
        r['Fee Amount'],
      ]),
    ).toEqual([
      ['1', 'USDC', '', '0.000005'],
      ['7', 'Bonk', '', ''],
      ['', '', '2', ''],
    ])
  })

  it('writes a failed transaction as its fee alone', () => {
    const rows = [change({ amountText: '-0.000005', amountRaw: '-5000', isFailed: 1 })]
    const [k] = koinly.records(rows).map((r) => byHeader(koinly.header, r))
    expect(k).toMatchObject({
      'Sent Amount': '0.000005',
      'Sent Currency': 'SOL',
      Label: 'cost',
      'Fee Amount': '',
    })
    expect(k?.Description).toContain('failed')
    const [c] = coinTracker.records(rows).map((r) => byHeader(coinTracker.header, r))
    // CoinTracker imports no row of a fee alone: the fee is what was sent.
    expect(c).toMatchObject({
      'Sent Quantity': '0.000005',
      'Sent Currency': 'SOL',
      'Received Quantity': '',
      'Fee Amount': '',
      'Fee Currency': '',
      Tag: '',
    })
  })

  it('adds the fee back to a receipt whose SOL change it reduced', () => {
    const [row] = koinly
      .records([change({ amountText: '0.499995', amountRaw: '499995000' })])
      .map((r) => byHeader(koinly.header, r))
    expect(row).toMatchObject({ 'Received Amount': '0.5', 'Fee Amount': '0.000005' })
  })

  it('refuses a tax layout for holdings', () => {
    expect(() => layoutFor('balances', 'koinly')).toThrow(InvalidInputError)
  })
})
