import { z } from 'zod'

/** A safe integer (slots, counts, decimals, Unix seconds): the service's integer fields. */
export const Integer = z.int()

/**
 * An integer token amount that may exceed 2^53 (token account `amount`, compressed `balance`).
 * JSON numbers this large have already lost precision in JSON.parse; the check is only
 * that the value is integral. Prefer `amountRaw` strings where the service gives them.
 */
export const IntegerAmount = z.number().refine(Number.isInteger, { message: 'expected an integer' })

/** Integer amount in the smallest unit, as a decimal string (`amountRaw` fields). */
export const RawAmountString = z
  .string()
  .regex(/^-?\d+$/, 'expected an integer amount as a decimal string')
