import { describe, expect, it } from 'vitest'
import { decodeQuery, encodeQuery } from '@shared/api/rest-query'
import { matchRestRoute } from '@shared/api/operations'
import { BalancesQuery, HistoryQuery } from '@shared/api/wallet-rest'
import { SIG, WALLET } from './interface-samples'

describe('query strings by schema (client encodes, simulator decodes)', () => {
  it('round-trips numbers, booleans and strings', () => {
    const input = { wallet: WALLET, page: 2, limit: 10, showNfts: true, showNative: false }
    const params = encodeQuery(input, ['wallet'])
    expect(params.toString()).toBe('page=2&limit=10&showNfts=true&showNative=false')
    params.set('api-key', 'ignored')
    const decoded = decodeQuery(BalancesQuery, params, { wallet: WALLET })
    expect(decoded).toEqual(input)
    expect(BalancesQuery.parse(decoded)).toEqual(input)
  })
  it('keeps bad values as text so the schema rejects them', () => {
    const decoded = decodeQuery(
      HistoryQuery,
      new URLSearchParams('limit=ten&before=' + SIG + '&bogus=1'),
      {
        wallet: WALLET,
      },
    )
    const result = HistoryQuery.safeParse(decoded)
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => i.path.join('.') || i.code).sort()).toEqual([
      'limit',
      'unrecognized_keys',
    ])
  })
  it('routes REST paths with their parameters', () => {
    expect(matchRestRoute('GET', `/v1/wallet/${WALLET}/history`)).toEqual({
      name: 'wallet.history',
      pathParams: { wallet: WALLET },
    })
    expect(matchRestRoute('POST', '/v1/wallet/batch-identity')?.name).toBe('wallet.batchIdentity')
    expect(matchRestRoute('PATCH', '/v0/webhooks/abc')?.name).toBe('webhooks.toggle')
    expect(matchRestRoute('GET', '/v1/wallet/')).toBeUndefined()
  })
})
