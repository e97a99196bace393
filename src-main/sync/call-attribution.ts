import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * Which wallet a service call is made for. The client reports every call through one
 * hook; this carries the wallet from the stream that made the call to the ledger row.
 */
export const callAttribution = new AsyncLocalStorage<{ walletAddress: string | null }>()
