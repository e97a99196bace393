import { describe, expect, it } from 'vitest'
import { describeUnsafeText, findUnsafeText } from '@shared/validation/safe-text'

describe('text no channel accepts', () => {
  it('finds a NUL or a lone surrogate at any depth, keys included, and names where', () => {
    expect(findUnsafeText({ filters: { token: 'US\u0000DC' } })).toEqual({
      path: ['filters', 'token'],
      position: 3,
      codePoint: 'U+0000',
      kind: 'nul',
    })
    expect(findUnsafeText({ wallets: ['ok', 'a\uD83D'] })?.path).toEqual(['wallets', 1])
    expect(findUnsafeText({ wallets: ['ok', '\uDE00a'] })?.codePoint).toBe('U+DE00')
    expect(findUnsafeText({ map: { ['k\u0000']: 1 } })?.path).toEqual(['map'])
    // The first of the two in the text is named.
    expect(findUnsafeText('a\uD800b\u0000')?.kind).toBe('lone-surrogate')
  })

  it('lets every well-formed text through, surrogate pairs and other controls included', () => {
    for (const value of [
      '😀',
      'صرافی',
      '\u0001\u001f\uFFFF',
      '',
      { a: ['b', 1, null, true] },
      7,
      null,
    ])
      expect(findUnsafeText(value), JSON.stringify(value)).toBeNull()
  })

  it('says it in the words every refused field is said in', () => {
    expect(describeUnsafeText(findUnsafeText({ name: 'a\u0000b' })!)).toBe(
      'Name holds a NUL character (U+0000) at character 2; text may not hold NUL characters or lone surrogates.',
    )
    expect(describeUnsafeText(findUnsafeText({ apiKey: '\uDC00' })!)).toBe(
      'API key holds a lone surrogate (U+DC00, half of a character) at character 1; text may not hold NUL characters or lone surrogates.',
    )
  })
})
