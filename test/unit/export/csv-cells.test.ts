import { describe, expect, it } from 'vitest'
import {
  addDecimals,
  coinTrackerTime,
  exactAmount,
  feeSolText,
  isoUtc,
  koinlyTime,
  negateDecimal,
  signOfDecimal,
  textCell,
} from '../../../src-main/export/csv-cells'

describe('textCell: formula injection is neutralised in text cells', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])(
    'prefixes %j with an apostrophe',
    (value) => {
      expect(textCell(value)).toBe(`'${value}`)
    },
  )

  it('leaves ordinary text, inner specials and empty cells alone', () => {
    expect(textCell('Savings')).toBe('Savings')
    expect(textCell('a=b')).toBe('a=b')
    expect(textCell('')).toBe('')
    expect(textCell(null)).toBe('')
  })
})

describe('exact amounts', () => {
  it('writes raw integers beyond 2^53 exactly', () => {
    expect(exactAmount('123456789012345678901', 9, '123456789012.34568')).toBe(
      '123456789012.345678901',
    )
    expect(exactAmount('-1', 9, '-1e-9')).toBe('-0.000000001')
  })

  it('drops leading zeros of the raw integer and trailing zeros of the fraction', () => {
    expect(exactAmount('000150000', 6, '')).toBe('0.15')
    expect(exactAmount('-1000000000', 9, '')).toBe('-1')
    expect(exactAmount('-000', 9, '')).toBe('0')
    expect(exactAmount('0', 0, '')).toBe('0')
    expect(exactAmount('-007', 0, '')).toBe('-7')
    expect(exactAmount('12345', 2, '')).toBe('123.45')
  })

  it('falls back to the stored text, rewriting an exponent form without loss', () => {
    expect(exactAmount(null, 9, '0.30000000000000004')).toBe('0.30000000000000004')
    expect(exactAmount(null, 9, '1e-7')).toBe('0.0000001')
  })

  it('adds decimal texts exactly, as floats cannot', () => {
    expect(0.1 + 0.2).not.toBe(0.3)
    expect(addDecimals('0.1', '0.2')).toBe('0.3')
    expect(addDecimals('-1.000005', '0.000005')).toBe('-1')
    expect(addDecimals('-0.000005', '0.000005')).toBe('0')
    expect(addDecimals('9007199254740993', '0.000000001')).toBe('9007199254740993.000000001')
  })

  it('knows signs and negates', () => {
    expect(signOfDecimal('-0.1')).toBe(-1)
    expect(signOfDecimal('0.000')).toBe(0)
    expect(signOfDecimal('2')).toBe(1)
    expect(negateDecimal('1.5')).toBe('-1.5')
    expect(negateDecimal('-1.5')).toBe('1.5')
    expect(negateDecimal('0')).toBe('0')
  })

  it('writes fees in SOL through lamports', () => {
    expect(feeSolText('0.0000225')).toBe('0.0000225')
    expect(feeSolText('0.000005')).toBe('0.000005')
  })
})

describe('times', () => {
  const sec = Date.UTC(2026, 2, 5, 7, 8, 9) / 1000
  it('formats ISO 8601 UTC, Koinly and CoinTracker forms', () => {
    expect(isoUtc(sec)).toBe('2026-03-05T07:08:09Z')
    expect(koinlyTime(sec)).toBe('2026-03-05 07:08:09 UTC')
    expect(coinTrackerTime(sec)).toBe('03/05/2026 07:08:09')
  })

  it('leaves unknown block times empty', () => {
    expect(isoUtc(null)).toBe('')
    expect(koinlyTime(null)).toBe('')
  })
})
