// The one credit price table and rate-limit table of the service. The client reports costs
// from it, the simulator charges from it, and the sync engine budgets and shapes with it.

/** What an operation is billed as (docs/service.md, Credits). */
export const PRICE_KEYS = [
  'wallet',
  'das',
  'compression',
  'validityProof',
  'priorityFee',
  'webhookManagement',
  'tokenMetadata',
  'rpcArchival',
  'rpcStandard',
] as const
export type PriceKey = (typeof PRICE_KEYS)[number]

/** Credits per call by price key (docs/service.md, Credits). */
export const CREDIT_PRICES: Readonly<Record<PriceKey, number>> = {
  wallet: 100, // 100 credits per call, every wallet REST endpoint
  das: 10, // every DAS method
  compression: 10, // every compression method but the validity proof
  validityProof: 100, // getValidityProof
  priorityFee: 1, // getPriorityFeeEstimate
  webhookManagement: 100, // each webhook list, read, create, update, delete or toggle
  // Uncertain: the service publishes no price for the deprecated
  // token-metadata endpoint. 10 (like the DAS methods replacing it) is a default; callers
  // override it with `creditOverrides`.
  tokenMetadata: 10,
  rpcArchival: 10, // archival calls: getSignaturesForAddress, getTransaction
  rpcStandard: 1, // standard calls: getMultipleAccounts (≤ 100 accounts), getTokenAccountsByOwner, getBalance
}

/**
 * Price keys whose price the service does not publish: the table holds a
 * default for budgeting, but a person is told the price is not known.
 */
export const UNKNOWN_PRICE_KEYS: ReadonlySet<PriceKey> = new Set<PriceKey>(['tokenMetadata'])

/** Per-key price overrides, e.g. once the token-metadata price is known. */
export type CreditOverrides = Partial<Record<PriceKey, number>>

/** Credits one call of a price key costs, honouring overrides. */
export function creditsPerCall(priceKey: PriceKey, overrides?: CreditOverrides): number {
  return overrides?.[priceKey] ?? CREDIT_PRICES[priceKey]
}

/** Credits one delivered webhook event costs. */
export const CREDITS_PER_WEBHOOK_EVENT = 1

/**
 * Endpoint classes with separate rate limits (docs/service.md, Rate limits): RPC / DAS & enhanced /
 * Photon / getValidityProof. The wallet REST interface most likely counts as enhanced.
 */
export const ENDPOINT_CLASSES = ['rpc', 'das-enhanced', 'photon', 'validity-proof'] as const
export type EndpointClass = (typeof ENDPOINT_CLASSES)[number]

/** Plans of the service. */
export const PLANS = ['free', 'developer', 'business', 'professional'] as const
export type Plan = (typeof PLANS)[number]

/** Requests per second per plan and endpoint class (docs/service.md, Rate limits). */
export const PLAN_RATE_LIMITS_RPS: Readonly<Record<Plan, Readonly<Record<EndpointClass, number>>>> =
  {
    free: { rpc: 10, 'das-enhanced': 2, photon: 2, 'validity-proof': 1 },
    developer: { rpc: 50, 'das-enhanced': 10, photon: 10, 'validity-proof': 5 },
    business: { rpc: 200, 'das-enhanced': 50, photon: 50, 'validity-proof': 10 },
    professional: { rpc: 500, 'das-enhanced': 100, photon: 100, 'validity-proof': 20 },
  }

/** Monthly credits per plan (docs/service.md, Credits). */
export const PLAN_MONTHLY_CREDITS: Readonly<Record<Plan, number>> = {
  free: 1_000_000,
  developer: 10_000_000,
  business: 100_000_000,
  professional: 200_000_000,
}

/** Price key and endpoint class of each operation family, used by the operation registry. */
export const FAMILY_BILLING = {
  wallet: { priceKey: 'wallet', endpointClass: 'das-enhanced' },
  das: { priceKey: 'das', endpointClass: 'das-enhanced' },
  compression: { priceKey: 'compression', endpointClass: 'photon' },
  validityProof: { priceKey: 'validityProof', endpointClass: 'validity-proof' },
  priorityFee: { priceKey: 'priorityFee', endpointClass: 'rpc' },
  rpcArchival: { priceKey: 'rpcArchival', endpointClass: 'rpc' },
  rpcStandard: { priceKey: 'rpcStandard', endpointClass: 'rpc' },
  // Both are v0 "enhanced" REST endpoints; uncertain which rate class the service applies.
  tokenMetadata: { priceKey: 'tokenMetadata', endpointClass: 'das-enhanced' },
  webhooks: { priceKey: 'webhookManagement', endpointClass: 'das-enhanced' },
} as const satisfies Record<string, { priceKey: PriceKey; endpointClass: EndpointClass }>
