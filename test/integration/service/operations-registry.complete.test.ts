import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  OPERATIONS,
  OPERATION_NAMES,
  matchRestRoute,
  findJsonRpcOperation,
} from '@shared/api/operations'
import type { Operation } from '@shared/api/operations'
import { CREDIT_PRICES, ENDPOINT_CLASSES, PLAN_RATE_LIMITS_RPS } from '@shared/api/prices'
import { createServiceClient } from '../../../src-main/service/service-client'
import { defaultServiceSettings } from '../../../src-main/service/service-settings'

// Every operation of the service (docs/service.md) must have a
// request schema, a response schema and a client method.
const REQUIRED_OPERATIONS = [
  'wallet.balances',
  'wallet.history',
  'wallet.transfers',
  'wallet.identity',
  'wallet.batchIdentity',
  'wallet.fundedBy',
  'wallet.balanceAt',
  'das.getAssetBatch',
  'das.getAssetsByAuthority',
  'das.getAssetsByOwner',
  'das.getTokenAccounts',
  'compression.getCompressedAccountsByOwner',
  'compression.getCompressedTokenBalancesByOwnerV2',
  'compression.getCompressedBalanceByOwner',
  'compression.getCompressedAccount',
  'compression.getMultipleCompressedAccounts',
  'compression.getCompressionSignaturesForOwner',
  'compression.getCompressionSignaturesForTokenOwner',
  'compression.getTransactionWithCompressionInfo',
  'compression.getValidityProof',
  'rpc.getSignaturesForAddress',
  'rpc.getTransaction',
  'rpc.getMultipleAccounts',
  'rpc.getTokenAccountsByOwner',
  'rpc.getBalance',
  'priorityFee.getPriorityFeeEstimate',
  'tokenMetadata.getTokenMetadata',
  'webhooks.toggle',
  'webhooks.list',
  'webhooks.get',
  'webhooks.create',
  'webhooks.update',
  'webhooks.delete',
]

const client = createServiceClient(defaultServiceSettings('registry-test-key'))
const registry = OPERATIONS as Record<string, Operation | undefined>

describe('operation registry', () => {
  it.each(REQUIRED_OPERATIONS)(
    '%s has a request schema, a response schema and a client method',
    (name) => {
      const op = registry[name]
      expect(op, `${name} is missing from OPERATIONS`).toBeDefined()
      expect(op?.request).toBeInstanceOf(z.ZodType)
      expect(op?.response).toBeInstanceOf(z.ZodType)
      const [family = '', method = ''] = name.split('.')
      const group = (client as unknown as Record<string, Record<string, unknown> | undefined>)[
        family
      ]
      expect(typeof group?.[method], `client.${name} is not a function`).toBe('function')
    },
  )

  it('holds nothing beyond the required operations', () => {
    expect([...OPERATION_NAMES].sort()).toEqual([...REQUIRED_OPERATIONS].sort())
  })

  it.each(OPERATION_NAMES)(
    '%s has a price and an endpoint class with a rate limit on every plan',
    (name) => {
      const op: Operation = OPERATIONS[name]
      expect(CREDIT_PRICES[op.priceKey]).toBeGreaterThan(0)
      expect(ENDPOINT_CLASSES).toContain(op.endpointClass)
      for (const limits of Object.values(PLAN_RATE_LIMITS_RPS))
        expect(limits[op.endpointClass]).toBeGreaterThan(0)
    },
  )

  it.each(OPERATION_NAMES)('%s is found again by the routing helpers', (name) => {
    const op: Operation = OPERATIONS[name]
    if (op.transport === 'json-rpc') expect(findJsonRpcOperation(op.rpcMethod)).toBe(name)
    else expect(matchRestRoute(op.httpMethod, op.path.replace(/\{\w+\}/g, 'x'))?.name).toBe(name)
  })

  it('marks token-metadata deprecated', () => {
    expect(OPERATIONS['tokenMetadata.getTokenMetadata'].deprecated).toBe(true)
  })
})
