import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { OperationName } from '@shared/api/operations'
import { hash32, hashString } from './chain/prng'

// The real service's variety (docs/service.md, "What the app accepts"): the shapes its
// makers' SDK types and published answers show that the interface text does not. With
// `variance: 'real'` the simulator sends them on a seeded share of its answers, so the app
// is tried on what the service really sends and the mirror must still equal the truth:
// - a last page of history or transfers without a `nextCursor` key;
// - null price, value, symbol, name and logo for the mints it has no price or name for
//   (half of the smaller tokens; DAS without `price_info` for half of those), null NFT
//   names;
// - native SOL named "SOL" in history balance changes;
// - webhooks without `active` (when active), with a transaction type the app does not list;
// - enhanced deliveries without `transactionError`, with `events: []`, a quarter of them
//   with a type the app does not list;
// - fields the interface text does not show, on items and deliveries;
// - getTokenAccounts without `last_indexed_slot`, all priority-fee levels without the
//   estimate, compression token data without `delegate` and `tlv`.
// Every choice is a pure function of the seed and the item (its signature or mint), so the
// same entry reads the same on every page that holds it; the shape of a whole answer (a
// webhook, a last page) is drawn per answer in the order they are asked, so a run repeats.

/** Which shapes the simulator answers in: the interface text's, or also the real service's. */
export const VARIANCES = ['none', 'real'] as const
export type Variance = (typeof VARIANCES)[number]

/** A transaction type the real service may name that the app's lists do not hold. */
export const UNLISTED_TYPE = 'DEPOSIT_TO_VAULT_V3'

/** A field the interface text does not show, as the real service adds them. */
const EXTRA_FIELD = 'addedByService'

type Json = Record<string, unknown>

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const records = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : [])

/** The real service's variety, seeded: which answers, items and mints get which shape. */
export class RealVariance {
  readonly #seed: number
  /** Answers shaped so far, which seeds the draw of the next one. */
  #answers = 0
  readonly #unpriced: ReadonlySet<string>
  readonly #unpricedByDas: ReadonlySet<string>
  readonly #unnamed: ReadonlySet<string>

  /**
   * `mints`: the chain's mints in its order, the majors first (SOL, USDC, USDT), which the
   * service always prices and names. Of the rest, a seeded half has no price in the
   * balances answer — DAS has none for half of those — and half of the unpriced have no
   * name either: tokens too new or too small to be listed.
   */
  constructor(seed: number, mints: readonly string[], majors = 3) {
    this.#seed = seed
    const ranked = mints
      .slice(majors)
      .filter((m) => m !== NATIVE_SOL_MINT)
      .map((mint) => ({ mint, rank: hash32(seed, hashString(mint), 1) }))
      .sort((a, b) => a.rank - b.rank)
      .map((r) => r.mint)
    const unpriced = ranked.slice(0, Math.ceil(ranked.length / 2))
    this.#unpriced = new Set(unpriced)
    this.#unpricedByDas = new Set(unpriced.filter((_, i) => i % 2 === 0))
    this.#unnamed = new Set(unpriced.filter((_, i) => i % 2 === 1 || i === 0))
  }

  /** Whether the item with this key takes the variety `salt` (one in `outOf`, seeded). */
  #takes(key: string, salt: number, outOf = 2): boolean {
    return hash32(this.#seed, hashString(key), salt) % outOf === 0
  }

  /** A mint the balances answer has no price for. */
  isUnpriced(mint: string): boolean {
    return this.#unpriced.has(mint)
  }

  /** An unpriced mint DAS has no price for either. */
  isUnpricedByDas(mint: string): boolean {
    return this.#unpricedByDas.has(mint)
  }

  /** A mint the balances answer names with null symbol, name and logo. */
  isUnnamed(mint: string): boolean {
    return this.#unnamed.has(mint)
  }

  /** An answer of `operation` as the real service may send it (a copy; `body` is kept). */
  answer(operation: OperationName, body: unknown): unknown {
    const copy = structuredClone(body)
    const call = `${operation}#${this.#answers++}`
    switch (operation) {
      case 'wallet.history':
      case 'wallet.transfers':
        if (isRecord(copy)) this.#cursorPage(operation, copy, call)
        break
      case 'wallet.balances':
        if (isRecord(copy)) this.#balances(copy)
        break
      case 'das.getAssetsByOwner':
      case 'das.getAssetsByAuthority':
        if (isRecord(copy)) for (const asset of records(copy.items)) this.#asset(asset)
        break
      case 'das.getAssetBatch':
        for (const asset of records(copy)) this.#asset(asset)
        break
      case 'das.getTokenAccounts':
        if (isRecord(copy) && this.#takes(call, 4)) delete copy.last_indexed_slot
        break
      case 'priorityFee.getPriorityFeeEstimate':
        if (isRecord(copy) && isRecord(copy.priorityFeeLevels)) delete copy.priorityFeeEstimate
        break
      case 'compression.getTransactionWithCompressionInfo':
        if (isRecord(copy)) this.#compressionInfo(copy)
        break
      case 'webhooks.list':
        for (const webhook of records(copy)) this.#webhook(webhook, call)
        break
      case 'webhooks.get':
      case 'webhooks.create':
      case 'webhooks.update':
      case 'webhooks.toggle':
        if (isRecord(copy)) this.#webhook(copy, call)
        break
      default:
        break
    }
    return copy
  }

  /** An enhanced delivery event as the real service may send it (changed in place). */
  delivery(event: Json): Json {
    const key = String(event.signature)
    if (event.transactionError === null && this.#takes(key, 20)) delete event.transactionError
    if (isRecord(event.events) && event.events.nft === undefined && this.#takes(key, 21))
      event.events = []
    if (this.#takes(key, 22, 4)) event.type = UNLISTED_TYPE
    if (this.#takes(key, 23)) event[EXTRA_FIELD] = { lighthouse: null }
    return event
  }

  #cursorPage(operation: OperationName, page: Json, call: string): void {
    const items = records(page.data)
    for (const item of items) {
      const key = String(item.signature) + String(item.mint ?? '')
      if (this.#takes(key, 10)) item[EXTRA_FIELD] = 'unlisted'
      if (operation === 'wallet.history') {
        // The SDK's own comment: native SOL is "SOL" in history balance changes.
        if (this.#takes(key, 11))
          for (const change of records(item.balanceChanges))
            if (change.mint === NATIVE_SOL_MINT) change.mint = 'SOL'
        if (item.error === null && this.#takes(key, 12)) delete item.error
      } else if (typeof item.mint === 'string' && this.isUnnamed(item.mint)) item.symbol = null
    }
    const pagination = page.pagination
    if (isRecord(pagination) && pagination.hasMore === false && this.#takes(call, 13))
      delete pagination.nextCursor
  }

  #balances(answer: Json): void {
    let total = 0
    for (const b of records(answer.balances)) {
      const mint = String(b.mint)
      if (this.isUnpriced(mint)) {
        b.pricePerToken = null
        b.usdValue = null
      }
      if (this.isUnnamed(mint)) {
        b.symbol = null
        b.name = null
        b.logoUri = null
      }
      if (this.#takes(mint, 14)) b[EXTRA_FIELD] = 'unlisted'
      total += typeof b.usdValue === 'number' ? b.usdValue : 0
    }
    // The service's total is of what it can price.
    if (typeof answer.totalUsdValue === 'number')
      answer.totalUsdValue = Math.round(total * 100) / 100
    for (const nft of records(answer.nfts)) {
      if (!this.#takes(String(nft.mint), 15, 4)) continue
      nft.name = null
      nft.imageUri = null
      nft.collectionName = null
      nft.collectionAddress = null
    }
  }

  #asset(asset: Json): void {
    const info = asset.token_info
    if (isRecord(info) && this.isUnpricedByDas(String(asset.id))) delete info.price_info
  }

  #compressionInfo(answer: Json): void {
    const info = answer.compression_info
    if (!isRecord(info)) return
    for (const side of [info.closedAccounts, info.openedAccounts]) {
      for (const opened of records(side)) {
        const data = opened.optionalTokenData
        if (!isRecord(data)) continue
        if (data.delegate === null) delete data.delegate
        if (data.tlv === null) delete data.tlv
      }
    }
  }

  #webhook(webhook: Json, call: string): void {
    const key = `${call}:${String(webhook.webhookID)}`
    if (webhook.active === true && this.#takes(key, 16)) delete webhook.active
    if (Array.isArray(webhook.transactionTypes) && this.#takes(key, 17))
      webhook.transactionTypes = [...(webhook.transactionTypes as unknown[]), UNLISTED_TYPE]
  }
}
