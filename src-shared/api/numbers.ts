import { z } from 'zod'

/** A safe integer (slots, counts, decimals, Unix seconds): integer fields of interface 2. */
export const Integer = z.int()

/**
 * An integer token amount that may exceed 2^53 (interface 2.3b `amount`, 2.7 `balance`).
 * JSON numbers this large have already lost precision in JSON.parse; the check is only
 * that the value is integral. Prefer `amountRaw` strings where the service gives them.
 */
export const IntegerAmount = z.number().refine(Number.isInteger, { message: 'expected an integer' })

/** Integer amount in the smallest unit, as a decimal string (facts: `amountRaw (string)`). */
export const RawAmountString = z
  .string()
  .regex(/^-?\d+$/, 'expected an integer amount as a decimal string')
