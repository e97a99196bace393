import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * Which wallet, and which of its streams, a service call is made for. The client reports
 * every call through one hook; this carries both from the caller to the ledger row. Null
 * wallet: a look over many wallets at once (watching); null stream: a wallet's call that
 * belongs to no one stream (naming its mints).
 */
export const callAttribution = new AsyncLocalStorage<{
  walletAddress: string | null
  stream: string | null
  /** Hears the credits each call cost, as the ledger records them. */
  onCredits?: (credits: number) => void
}>()
