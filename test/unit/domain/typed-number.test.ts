import { describe, expect, it } from 'vitest'
import { parseTypedNumber } from '@shared/domain/typed-number'

// Issue 13: a daily budget typed as "5,000" was silently stored as "no limit". A typed
// number is read the way people write it, or refused with a message naming the field.

const budget = { field: 'Daily credit budget', isOptional: true, isWholeNumber: true, min: 0 }

describe('parseTypedNumber', () => {
  it('reads the grouping people type: 5,000 / 5 000 / 5_000 / 5’000 are 5000', () => {
    for (const text of ['5,000', '5 000', '5_000', "5'000", '5’000', '5\u202f000', ' 5000 ']) {
      expect(parseTypedNumber(text, { ...budget, locale: 'en-US' })).toEqual({
        ok: true,
        value: 5000,
      })
    }
    expect(parseTypedNumber('1,234,567', { ...budget, locale: 'en-US' })).toEqual({
      ok: true,
      value: 1_234_567,
    })
  })

  it('follows the locale’s marks: 5.000 is five thousand in German, 2,5 is two and a half', () => {
    expect(parseTypedNumber('5.000', { ...budget, locale: 'de-DE' })).toEqual({
      ok: true,
      value: 5000,
    })
    expect(parseTypedNumber('2,5', { field: 'Every', locale: 'de-DE' })).toEqual({
      ok: true,
      value: 2.5,
    })
    expect(parseTypedNumber('2.5', { field: 'Every', locale: 'en-US' })).toEqual({
      ok: true,
      value: 2.5,
    })
  })

  it('reads an empty optional field as null (no limit)', () => {
    expect(parseTypedNumber('  ', budget)).toEqual({ ok: true, value: null })
    expect(parseTypedNumber('', { field: 'Every' })).toEqual({
      ok: false,
      message: 'Every: enter a number.',
    })
  })

  it('refuses what is not a number, naming the field', () => {
    for (const text of ['abc', '5,,000', ',5000', '5000,', '5k', '1e3', '0x10', 'NaN']) {
      const read = parseTypedNumber(text, { ...budget, locale: 'en-US' })
      expect(read.ok, text).toBe(false)
      if (!read.ok) expect(read.message).toMatch(/^Daily credit budget: /)
    }
    expect(parseTypedNumber('abc', { ...budget, locale: 'en-US' })).toEqual({
      ok: false,
      message: 'Daily credit budget: “abc” is not a number. Type digits, e.g. 5,000.',
    })
  })

  it('refuses fractions where a whole number is needed, and numbers out of range', () => {
    expect(parseTypedNumber('12.5', { ...budget, locale: 'en-US' })).toEqual({
      ok: false,
      message: 'Daily credit budget: enter a whole number, without a fraction.',
    })
    expect(parseTypedNumber('-5', { ...budget, locale: 'en-US' })).toEqual({
      ok: false,
      message: 'Daily credit budget: enter a number of at least 0.',
    })
    expect(
      parseTypedNumber('20,000', {
        field: 'Newest transactions only',
        min: 1,
        max: 10_000,
        locale: 'en-US',
      }),
    ).toEqual({ ok: false, message: 'Newest transactions only: enter a number from 1 to 10,000.' })
  })
})
