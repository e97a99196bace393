import { describe, expect, it } from 'vitest'
import { deliveredTransaction, WebhookDelivery } from '@shared/api/webhook-delivery'
import { isSameSecret } from '../../../src-main/webhooks/delivery-route'

// What a delivery says about which wallets a transaction touched, and the secret check.

describe('a delivered transaction names its wallets', () => {
  it('enhanced: fee payer, both ends of each transfer, accounts whose balances changed', () => {
    const [event] = WebhookDelivery.parse([
      {
        signature: 'sig1',
        feePayer: 'payer',
        nativeTransfers: [{ fromUserAccount: 'a', toUserAccount: 'b' }],
        tokenTransfers: [{ fromUserAccount: 'c', toUserAccount: null, mint: 'm' }],
        accountData: [{ account: 'd', tokenBalanceChanges: [{ userAccount: 'e' }] }],
        extraField: { kept: true },
      },
    ])
    const { signature, addresses } = deliveredTransaction(event as WebhookDelivery[number])
    expect(signature).toBe('sig1')
    expect([...addresses].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'payer'])
  })

  it('raw: the first signature and the account keys, as strings or objects', () => {
    const [event] = WebhookDelivery.parse([
      {
        transaction: {
          signatures: ['sig2', 'sig3'],
          message: { accountKeys: ['x', { pubkey: 'y', signer: true }] },
        },
      },
    ])
    const { signature, addresses } = deliveredTransaction(event as WebhookDelivery[number])
    expect(signature).toBe('sig2')
    expect([...addresses]).toEqual(['x', 'y'])
  })

  it('refuses what is not a delivery, saying where', () => {
    expect(WebhookDelivery.safeParse([]).success).toBe(false)
    expect(WebhookDelivery.safeParse({ signature: 's' }).success).toBe(false)
    expect(WebhookDelivery.safeParse([{ signature: '' }]).success).toBe(false)
    expect(WebhookDelivery.safeParse([{ transaction: { signatures: [] } }]).success).toBe(false)
  })
})

describe('the secret check', () => {
  it('is equal only for the same text, whatever the lengths', () => {
    expect(isSameSecret('s3cret', 's3cret')).toBe(true)
    expect(isSameSecret('s3cret', 's3cres')).toBe(false)
    expect(isSameSecret('', 's3cret')).toBe(false)
    expect(isSameSecret('s3cret-and-more', 's3cret')).toBe(false)
  })
})
