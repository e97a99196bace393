import { getOperation, type OperationName } from '@shared/api/operations'
import { creditsPerCall, UNKNOWN_PRICE_KEYS, type PriceKey } from '@shared/api/prices'
import { InvalidInputError } from '@shared/ipc/ipc-errors'
import type { LookupPlan, LookupRequest } from '@shared/ipc/lookup-schemas'

/** One operation a look-up calls, and how often. */
export interface LookupCallCount {
  operation: OperationName
  count: number
}

/**
 * The calls each view makes, once: the plan prices them and the run makes exactly these
 * (a test holds the two equal through the ledger).
 */
export function callsOfView(request: LookupRequest): LookupCallCount[] {
  const once = (...operations: OperationName[]): LookupCallCount[] =>
    operations.map((operation) => ({ operation, count: 1 }))
  switch (request.view) {
    case 'wallet':
      return once(
        'wallet.identity',
        'wallet.fundedBy',
        'wallet.balances',
        'wallet.history',
        'wallet.transfers',
        'das.getAssetsByOwner',
      )
    case 'asset':
      return once('das.getAssetBatch')
    case 'assets-by-owner':
      return once('das.getAssetsByOwner')
    case 'assets-by-authority':
      return once('das.getAssetsByAuthority')
    case 'token-accounts':
      return once('das.getTokenAccounts')
    case 'compressed-account':
      return once('compression.getMultipleCompressedAccounts')
    case 'compressed-owner':
      return once(
        'compression.getCompressedBalanceByOwner',
        'compression.getCompressedAccountsByOwner',
        'compression.getCompressedTokenBalancesByOwnerV2',
      )
    case 'compressed-tx':
      return once('compression.getTransactionWithCompressionInfo')
    case 'compressed-proof':
      return once('compression.getValidityProof')
    case 'priority-fee':
      return once('priorityFee.getPriorityFeeEstimate')
    case 'token-metadata':
      return once('tokenMetadata.getTokenMetadata')
  }
}

/** What the deprecated token-metadata look-up says in place of its price. */
export const TOKEN_METADATA_DEPRECATION =
  'The token-metadata endpoint is deprecated and its price is not published. DAS getAssetBatch (the Asset view) answers the same question at 10 credits a call for up to 1,000 ids.'

/**
 * Rejects a request the schema lets through but the service would refuse, before any
 * call: which of two alternatives to give is a rule across fields.
 */
export function checkLookupRequest(request: LookupRequest): void {
  if (request.view === 'compressed-account') {
    const given = [request.hashes, request.addresses].filter((v) => v !== undefined).length
    if (given !== 1) {
      throw new InvalidInputError(
        given === 0
          ? 'A compressed-account look-up needs hashes or addresses: neither was given.'
          : 'A compressed-account look-up takes hashes or addresses, not both.',
      )
    }
  }
  if (
    request.view === 'token-accounts' &&
    request.owner === undefined &&
    request.mint === undefined
  )
    throw new InvalidInputError(
      'A token-accounts look-up needs an owner or a mint: neither was given.',
    )
  if (request.view === 'priority-fee') {
    const given = [request.accounts, request.transaction].filter((v) => v !== undefined).length
    if (given !== 1) {
      throw new InvalidInputError(
        given === 0
          ? 'A priority-fee estimate needs accounts or a serialized transaction: neither was given.'
          : 'A priority-fee estimate takes accounts or a transaction, not both.',
      )
    }
  }
}

/** Readable names of the price families, for the plan's summary. */
const FAMILY_NAMES: Record<PriceKey, string> = {
  wallet: 'wallet',
  das: 'DAS',
  compression: 'compression',
  validityProof: 'validity-proof',
  priorityFee: 'priority-fee',
  webhookManagement: 'webhook',
  tokenMetadata: 'token-metadata',
  rpcArchival: 'RPC',
  rpcStandard: 'RPC',
}

/**
 * What a look-up would cost, from the one price table, before anything is sent. The
 * validity proof (100 credits) and calls of unknown price need the person's confirmation.
 *
 * @example
 * planLookup({ view: 'wallet', address }, null).credits // 510
 */
export function planLookup(request: LookupRequest, cached: LookupPlan['cached']): LookupPlan {
  checkLookupRequest(request)
  const calls = callsOfView(request).map(({ operation, count }) => {
    const { priceKey } = getOperation(operation)
    return {
      operation,
      count,
      priceKey,
      creditsEach: UNKNOWN_PRICE_KEYS.has(priceKey) ? null : creditsPerCall(priceKey),
    }
  })
  const isPriceUnknown = calls.some((c) => c.creditsEach === null)
  const credits = isPriceUnknown
    ? null
    : calls.reduce((sum, c) => sum + c.count * (c.creditsEach ?? 0), 0)
  return {
    request,
    calls: calls.map(({ operation, count, creditsEach }) => ({ operation, count, creditsEach })),
    credits,
    summary: summaryOf(calls, credits),
    needsConfirmation: isPriceUnknown || request.view === 'compressed-proof',
    cached,
    deprecation: request.view === 'token-metadata' ? TOKEN_METADATA_DEPRECATION : null,
  }
}

/** "510 credits: 5 wallet calls (100 each) and 1 DAS call (10)". */
function summaryOf(
  calls: { count: number; priceKey: PriceKey; creditsEach: number | null }[],
  credits: number | null,
): string {
  const byFamily = new Map<PriceKey, { count: number; each: number | null }>()
  for (const c of calls) {
    const seen = byFamily.get(c.priceKey)
    byFamily.set(c.priceKey, { count: (seen?.count ?? 0) + c.count, each: c.creditsEach })
  }
  const parts = [...byFamily].map(([key, { count, each }]) => {
    const noun = `${count} ${FAMILY_NAMES[key]} call${count === 1 ? '' : 's'}`
    if (each === null) return `${noun} (price not published)`
    return count === 1 ? `${noun} (${each})` : `${noun} (${each} each)`
  })
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0]
  const total =
    credits === null
      ? 'Credits unknown'
      : `${credits.toLocaleString('en-US')} credit${credits === 1 ? '' : 's'}`
  return `${total}: ${list ?? 'no calls'}`
}
