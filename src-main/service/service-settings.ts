import { z } from 'zod'
import type { CreditOverrides } from '@shared/api/prices'
import { PRICE_KEYS } from '@shared/api/prices'
import { ServiceUrl } from '@shared/domain/service-url'

/** The real service's base URLs (wallet REST, v0 REST, JSON-RPC: docs/service.md). */
export const DEFAULT_SERVICE_URLS = {
  walletRestBaseUrl: 'https://api.helius.xyz',
  v0RestBaseUrl: 'https://api.helius.xyz',
  jsonRpcUrl: 'https://mainnet.helius-rpc.com',
} as const

/** Default per-call timeout; a call can override it. */
const DEFAULT_TIMEOUT_MS = 30_000

/** Settings of the service client. The key goes to each URL, so each is https or loopback. */
export const ServiceSettings = z.object({
  walletRestBaseUrl: ServiceUrl,
  v0RestBaseUrl: ServiceUrl,
  jsonRpcUrl: ServiceUrl,
  apiKey: z.string().min(1),
  timeoutMs: z.int().min(1).max(600_000),
  creditOverrides: z.partialRecord(z.enum(PRICE_KEYS), z.number().min(0)).optional(),
})
export type ServiceSettings = z.infer<typeof ServiceSettings>

type Extras = { timeoutMs?: number; creditOverrides?: CreditOverrides }

/** Settings for the real service with the given key. */
export function defaultServiceSettings(apiKey: string, extras: Extras = {}): ServiceSettings {
  return ServiceSettings.parse({
    ...DEFAULT_SERVICE_URLS,
    apiKey,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    ...extras,
  })
}

/**
 * Settings for one origin serving everything: the wallet and v0 REST paths and JSON-RPC at `/`
 * (how the simulator serves the interface).
 */
export function singleOriginServiceSettings(
  baseUrl: string,
  apiKey: string,
  extras: Extras = {},
): ServiceSettings {
  const origin = baseUrl.replace(/\/+$/, '')
  return ServiceSettings.parse({
    walletRestBaseUrl: origin,
    v0RestBaseUrl: origin,
    jsonRpcUrl: origin,
    apiKey,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    ...extras,
  })
}
