import { describe, expect, it } from 'vitest'
import { splitDistinctTail } from '../../../src-renderer/lib/format/distinct-tail'

describe('splitDistinctTail: what a truncated NFT name keeps', () => {
  it('keeps the number at the end of a name', () => {
    expect(splitDistinctTail('Solar Flare Genesis Collection #6672')).toEqual({
      head: 'Solar Flare Genesis Collection',
      tail: ' #6672',
    })
    expect(splitDistinctTail('Mad Gate 698b')).toEqual({ head: 'Mad Gate', tail: ' 698b' })
  })

  it('keeps the last word of a name without a number', () => {
    expect(splitDistinctTail('Dawn Over The Harbour')).toEqual({
      head: 'Dawn Over The',
      tail: ' Harbour',
    })
  })

  it('leaves a name that is all tail to be cut at its end', () => {
    expect(splitDistinctTail('#6672')).toEqual({ head: '#6672', tail: '' })
    expect(splitDistinctTail('Sunrise')).toEqual({ head: 'Sunrise', tail: '' })
  })
})
