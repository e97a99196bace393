import { z } from 'zod'
import { keyField, knownOrNull, listOrEmpty, readItems, textOrEmpty } from './answer-edge'
import { Integer, RawAmountString } from './numbers'
import type { HistoryEntry } from './wallet-rest'

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

/** A native SOL transfer of an enhanced transaction, in lamports. */
const NativeTransfer = z.object({
  // Null or absent where the service names no user account: read as '' (no one).
  fromUserAccount: textOrEmpty(),
  toUserAccount: textOrEmpty(),
  amount: Integer.min(0),
})

/** A token transfer of an enhanced transaction; its amount is the decimal-adjusted amount. */
const TokenTransfer = z.object({
  fromUserAccount: textOrEmpty(),
  toUserAccount: textOrEmpty(),
  fromTokenAccount: z.string().nullish(),
  toTokenAccount: z.string().nullish(),
  mint: z.string().min(1),
  // A number in published payloads, text in some (the SDK types both).
  tokenAmount: z.union([z.number().min(0), z.string().regex(/^\d+(\.\d+)?$/)]),
  decimals: Integer.min(0).optional(),
})

/** One account's balance changes in an enhanced transaction. */
const AccountData = z.object({
  account: z.string().min(1),
  nativeBalanceChange: Integer,
  tokenBalanceChanges: listOrEmpty(
    z.object({
      userAccount: z.string(),
      mint: z.string().min(1),
      rawTokenAmount: z.object({ tokenAmount: RawAmountString, decimals: Integer.min(0) }),
    }),
  ),
})
export type AccountData = z.infer<typeof AccountData>

/** An enhanced transaction's NFT sale event: the price in lamports, who bought and sold, where. */
export const NftSaleEvent = z.object({
  amount: Integer.min(0).optional(),
  buyer: z.string().optional(),
  seller: z.string().optional(),
  source: z.string().optional(),
  saleType: z.string().optional(),
  type: z.string().optional(),
  nfts: listOrEmpty(z.object({ mint: z.string(), tokenStandard: z.string().optional() })),
})
export type NftSaleEvent = z.infer<typeof NftSaleEvent>

/**
 * An enhanced event read whole, to be written to the mirror as it is: the service's parsed
 * transaction (its SDK's `EnhancedTransaction`; the interface does not show it). The SDK
 * types all of it but the signature as optional, so what the edge reads is what it was
 * given: a part that is absent or cannot be read is null, and the delivery is then synced
 * from the service instead of written (delivery-writer.ts). A published mainnet payload
 * carries no `transactionError`: enhanced webhooks skip failed transactions, so none is no
 * error.
 */
export const EnhancedTransaction = z.object({
  signature: z.string().min(1),
  slot: knownOrNull(Integer.min(0)),
  timestamp: knownOrNull(Integer),
  fee: knownOrNull(Integer.min(0)),
  feePayer: knownOrNull(z.string().min(1)),
  transactionError: z
    .unknown()
    .optional()
    .transform((error) => error ?? null),
  /** The service's type (SWAP, NFT_SALE, …), kept as its text. */
  type: knownOrNull(z.string()),
  /** The program or marketplace it ran through (JUPITER, MAGIC_EDEN, SYSTEM_PROGRAM, …). */
  source: knownOrNull(z.string()),
  /** The service's sentence for it. */
  description: knownOrNull(z.string()),
  /**
   * Its events: an object keyed by kind in the SDK's type, an empty array in published
   * payloads with none. Only the NFT sale is read; one that cannot be read is no sale.
   */
  events: z
    .unknown()
    .optional()
    .transform((events) => {
      const nft =
        typeof events === 'object' && events !== null && 'nft' in events
          ? NftSaleEvent.safeParse(events.nft)
          : null
      return { nft: nft?.success === true ? nft.data : null }
    }),
  nativeTransfers: listOrEmpty(NativeTransfer),
  tokenTransfers: listOrEmpty(TokenTransfer),
  /** Every account's changes, or null when absent or one of them cannot be read. */
  accountData: z
    .array(z.unknown())
    .nullish()
    .transform((list): AccountData[] | null => {
      if (list === null || list === undefined) return null
      const read = readItems(AccountData, list, keyField('account'))
      return read.keptAside.length === 0 ? read.items : null
    }),
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

/** What an enhanced transaction says of itself, kept with its history entry. */
export interface ServiceDescription {
  /** The service's type (SWAP, NFT_SALE, or one the app does not list), as its text. */
  type: string | null
  /** The program or marketplace it ran through (JUPITER, MAGIC_EDEN, …). */
  source: string | null
  /** The service's own sentence for it. */
  description: string | null
  /** Its NFT sale: price, buyer, seller, marketplace. */
  nft: NftSaleEvent | null
}

/** A history entry with what the service said of its transaction, where it said anything. */
export type DescribedEntry = HistoryEntry & { described?: ServiceDescription }

/** Words the service uses for "not known": no type, no source. */
const NOT_SAID = new Set(['', 'UNKNOWN'])

const said = (text: string | null): string | null =>
  text === null || NOT_SAID.has(text.trim().toUpperCase()) ? null : text.trim()

/**
 * What a delivered enhanced transaction says of itself, or undefined when it says nothing
 * the app shows (UNKNOWN type and source, an empty description, no NFT sale).
 */
export function serviceDescriptionOf(event: EnhancedTransaction): ServiceDescription | undefined {
  const described = {
    type: said(event.type),
    source: said(event.source),
    description: said(event.description),
    nft: event.events.nft,
  }
  return Object.values(described).every((v) => v === null) ? undefined : described
}
