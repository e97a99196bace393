import { z } from 'zod'
import { Integer, RawAmountString } from './numbers'

// What a webhook delivery carries (docs/service.md, Webhooks): a POST of a JSON array of
// transactions. Enhanced events name the parties (fee payer, transfer ends, accounts whose
// balances changed); raw events carry the transaction with its account keys. Only the
// fields that say which wallets a transaction touched are read; the rest pass through.

const Party = z.string().min(1).nullish()

/** An enhanced-webhook event: the transaction as the service parsed it. */
export const EnhancedDeliveryEvent = z.looseObject({
  signature: z.string().min(1),
  feePayer: Party,
  nativeTransfers: z
    .array(z.looseObject({ fromUserAccount: Party, toUserAccount: Party }))
    .nullish(),
  tokenTransfers: z
    .array(z.looseObject({ fromUserAccount: Party, toUserAccount: Party }))
    .nullish(),
  accountData: z
    .array(
      z.looseObject({
        account: Party,
        tokenBalanceChanges: z.array(z.looseObject({ userAccount: Party })).nullish(),
      }),
    )
    .nullish(),
})
export type EnhancedDeliveryEvent = z.infer<typeof EnhancedDeliveryEvent>

/** A raw-webhook event: the transaction as the chain has it. */
export const RawDeliveryEvent = z.looseObject({
  transaction: z.looseObject({
    signatures: z.array(z.string().min(1)).min(1),
    message: z
      .looseObject({
        accountKeys: z.array(z.union([z.string(), z.looseObject({ pubkey: z.string() })])),
      })
      .optional(),
  }),
})
export type RawDeliveryEvent = z.infer<typeof RawDeliveryEvent>

/** One delivery: a JSON array of events. */
export const WebhookDelivery = z.array(z.union([EnhancedDeliveryEvent, RawDeliveryEvent])).min(1)
export type WebhookDelivery = z.infer<typeof WebhookDelivery>

/** A delivered transaction's signature and every address it names. */
export function deliveredTransaction(event: WebhookDelivery[number]): {
  signature: string
  addresses: Set<string>
} {
  const addresses = new Set<string>()
  const add = (a: string | null | undefined): void => {
    if (a) addresses.add(a)
  }
  if ('signature' in event && typeof event.signature === 'string') {
    const e = event as EnhancedDeliveryEvent
    add(e.feePayer)
    for (const t of [...(e.nativeTransfers ?? []), ...(e.tokenTransfers ?? [])]) {
      add(t.fromUserAccount)
      add(t.toUserAccount)
    }
    for (const a of e.accountData ?? []) {
      add(a.account)
      for (const c of a.tokenBalanceChanges ?? []) add(c.userAccount)
    }
    return { signature: e.signature, addresses }
  }
  const raw = (event as RawDeliveryEvent).transaction
  for (const key of raw.message?.accountKeys ?? []) add(typeof key === 'string' ? key : key.pubkey)
  return { signature: raw.signatures[0] as string, addresses }
}

/**
 * An enhanced event read whole, to be written to the mirror as it is: the fields of the
 * service's parsed transaction that say what moved, between whom (the payload's shape is
 * the service's enhanced transaction; the interface does not show it).
 */
export const EnhancedTransaction = z.object({
  signature: z.string().min(1),
  slot: Integer.min(0),
  timestamp: Integer,
  fee: Integer.min(0),
  feePayer: z.string().min(1),
  transactionError: z.unknown().nullable(),
  nativeTransfers: z.array(
    z.object({
      fromUserAccount: z.string(),
      toUserAccount: z.string(),
      amount: Integer.min(0),
    }),
  ),
  tokenTransfers: z.array(
    z.object({
      fromUserAccount: z.string(),
      toUserAccount: z.string(),
      mint: z.string().min(1),
      tokenAmount: z.number().min(0),
    }),
  ),
  accountData: z.array(
    z.object({
      account: z.string().min(1),
      nativeBalanceChange: Integer,
      tokenBalanceChanges: z.array(
        z.object({
          userAccount: z.string(),
          mint: z.string().min(1),
          rawTokenAmount: z.object({ tokenAmount: RawAmountString, decimals: Integer.min(0) }),
        }),
      ),
    }),
  ),
  /** The programs it ran; absent: not known, so anything may have moved. */
  instructions: z
    .array(
      z.object({
        programId: z.string(),
        innerInstructions: z.array(z.object({ programId: z.string() })).optional(),
      }),
    )
    .optional(),
})
export type EnhancedTransaction = z.infer<typeof EnhancedTransaction>
