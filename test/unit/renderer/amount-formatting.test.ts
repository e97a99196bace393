import { describe, expect, it } from 'vitest'
import { formatAmountText } from '../../../src-renderer/lib/format/amounts'

// Amounts are formatted from the mirror's exact text, never through a float.

describe('formatAmountText', () => {
  it('groups the whole part and keeps the fraction up to the limit', () => {
    expect(formatAmountText('1234567.5')).toBe('1,234,567.5')
    expect(formatAmountText('-0.000005', { maxFraction: 9 })).toBe('−0.000005')
    expect(formatAmountText('42')).toBe('42')
  })

  it('rounds half up on the digits, carrying into the whole part', () => {
    expect(formatAmountText('1.23456789', { maxFraction: 4 })).toBe('1.2346')
    expect(formatAmountText('9.99996', { maxFraction: 4 })).toBe('10')
    expect(formatAmountText('0.19996', { maxFraction: 4 })).toBe('0.2')
    expect(formatAmountText('2.5', { maxFraction: 0 })).toBe('3')
  })

  it('keeps digits a float would lose', () => {
    expect(formatAmountText('123456789012345678901.25', { maxFraction: 2 })).toBe(
      '123,456,789,012,345,678,901.25',
    )
  })

  it('signs when asked and marks tiny non-zero amounts', () => {
    expect(formatAmountText('3.1', { isSigned: true })).toBe('+3.1')
    expect(formatAmountText('-3.1', { isSigned: true })).toBe('−3.1')
    expect(formatAmountText('0', { isSigned: true })).toBe('0')
    expect(formatAmountText('0.0000001', { maxFraction: 6 })).toBe('<0.000001')
    expect(formatAmountText('-0.0000001', { maxFraction: 6 })).toBe('−<0.000001')
  })

  it('passes through text that is not a plain decimal', () => {
    expect(formatAmountText('n/a')).toBe('n/a')
  })
})
