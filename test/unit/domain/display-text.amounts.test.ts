import { describe, expect, it } from 'vitest'
import { formatAmount, formatAmountExact } from '../../../src-shared/domain/display-text'

// One amount shown two ways (issue 13, item 11): every place formats amounts with this
// one rule, from the mirror's exact text, never through a float.

const en = { locale: 'en' }

describe('one amount rule: the short form', () => {
  it('a fee and a balance change of the same size read the same (−0.000058 beside 0.0000575)', () => {
    expect(formatAmount('0.0000575', en)).toBe('0.0000575')
    expect(formatAmount('-0.0000575', en)).toBe('−0.0000575')
    expect(formatAmount('0.000005', en)).toBe('0.000005')
  })

  it('keeps 3 significant digits below 1 so dust never reads as zero', () => {
    expect(formatAmount('0.000000001', en)).toBe('0.000000001')
    expect(formatAmount('-0.0000001234', en)).toBe('−0.000000123')
    expect(formatAmount('0.00000012351', en)).toBe('0.000000124')
  })

  it('rounds to 6 fraction digits, half up on the digits, carrying into the whole part', () => {
    expect(formatAmount('-0.530846669', en)).toBe('−0.530847')
    expect(formatAmount('9.9999996', en)).toBe('10')
    expect(formatAmount('1.23456749', en)).toBe('1.234567')
  })

  it('groups the whole part (−18595.522735 gets its separators)', () => {
    expect(formatAmount('-18595.522735', en)).toBe('−18,595.522735')
    expect(formatAmount('1234567.5', en)).toBe('1,234,567.5')
    expect(formatAmount('123456789012345678901.25', en)).toBe('123,456,789,012,345,678,901.25')
    expect(formatAmount('1234567.5', { locale: 'de' })).toBe('1.234.567,5')
  })

  it('signs when asked; zero has no sign', () => {
    expect(formatAmount('3.1', { ...en, isSigned: true })).toBe('+3.1')
    expect(formatAmount('-3.1', { ...en, isSigned: true })).toBe('−3.1')
    expect(formatAmount('0', { ...en, isSigned: true })).toBe('0')
    expect(formatAmount('-0.000', en)).toBe('0')
  })

  it('passes through text that is not a plain decimal', () => {
    expect(formatAmount('n/a', en)).toBe('n/a')
  })
})

describe('one amount rule: the exact form (details, tooltips)', () => {
  it('shows every digit of −0.530846669, grouped', () => {
    expect(formatAmountExact('-0.530846669', en)).toBe('−0.530846669')
    expect(formatAmountExact('-1234.530846669', en)).toBe('−1,234.530846669')
    expect(formatAmountExact('2.500', { ...en, isSigned: true })).toBe('+2.5')
  })
})
