import type { Transport } from '@shared/api/operations'

/**
 * Puts the key where the interface wants it for a transport: the wallet REST takes the
 * `X-Api-Key` header (the recommended form); JSON-RPC, token-metadata and
 * webhooks take `?api-key=` (docs/service.md, Auth). Every URL that carries it is redacted before
 * it reaches a message or a log line.
 */
export function placeApiKey(
  transport: Transport,
  url: URL,
  headers: Record<string, string>,
  apiKey: string,
): void {
  if (transport === 'wallet-rest') headers['x-api-key'] = apiKey
  else url.searchParams.set('api-key', apiKey)
}
