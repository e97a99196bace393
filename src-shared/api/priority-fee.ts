import { z } from 'zod'
import { knownOrNull } from './answer-edge'
import { Base58String, WalletAddress } from './base58'
import { Integer } from './numbers'

// getPriorityFeeEstimate (docs/service.md, Priority fees). 1 credit.

/** Encodings of the serialized transaction. */
const TransactionEncoding = z.enum(['Base58', 'Base64'])

/** Priority levels. */
export const PriorityLevel = z.enum(['Min', 'Low', 'Medium', 'High', 'VeryHigh', 'UnsafeMax'])
export type PriorityLevel = z.infer<typeof PriorityLevel>

/** Estimator options. */
const PriorityFeeOptions = z.strictObject({
  transactionEncoding: TransactionEncoding.optional(),
  priorityLevel: PriorityLevel.optional(),
  includeAllPriorityFeeLevels: z.boolean().optional(),
  // 1–150, default 150.
  lookbackSlots: Integer.min(1).max(150).optional(),
  includeVote: z.boolean().optional(),
  recommended: z.boolean().optional(),
  evaluateEmptySlotAsZero: z.boolean().optional(),
})

/** The one object inside params: a transaction or account keys. */
const PriorityFeeRequest = z
  .strictObject({
    transaction: z.string().min(1).optional(),
    accountKeys: z.array(WalletAddress).min(1).optional(),
    options: PriorityFeeOptions.optional(),
  })
  .refine((r) => r.transaction !== undefined || r.accountKeys !== undefined, {
    message: 'give transaction or accountKeys',
    path: ['transaction'],
  })
  .refine(
    (r) =>
      r.transaction === undefined ||
      r.options?.transactionEncoding !== 'Base58' ||
      Base58String.safeParse(r.transaction).success,
    {
      message: 'transaction is not base58 but transactionEncoding is Base58',
      path: ['transaction'],
    },
  )

/** getPriorityFeeEstimate params: an array holding one object. */
export const GetPriorityFeeEstimateParams = z.tuple([PriorityFeeRequest])
export type GetPriorityFeeEstimateParams = z.input<typeof GetPriorityFeeEstimateParams>

/** All levels, the 0/25/50/75/95/100th percentiles of recent fees. */
const PriorityFeeLevels = z.object({
  min: z.number(),
  low: z.number(),
  medium: z.number(),
  high: z.number(),
  veryHigh: z.number(),
  unsafeMax: z.number(),
})

/**
 * getPriorityFeeEstimate result, micro-lamports per compute unit. Asked for every level,
 * the service may answer the levels without one estimate (the SDK's mock does): null then.
 */
export const GetPriorityFeeEstimateResult = z.object({
  priorityFeeEstimate: knownOrNull(z.number()),
  priorityFeeLevels: PriorityFeeLevels.optional(),
})
export type GetPriorityFeeEstimateResult = z.infer<typeof GetPriorityFeeEstimateResult>
