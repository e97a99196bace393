// One explorer for every link the app makes — in the views and in every export — so a
// person who follows links from a CSV and from the app lands on the same site.

const EXPLORER_ORIGIN = 'https://solscan.io'

/** A transaction's page on the explorer (opened outside the app). */
export function explorerTxUrl(signature: string): string {
  return `${EXPLORER_ORIGIN}/tx/${signature}`
}

/** An account's page on the explorer. */
export function explorerAccountUrl(address: string): string {
  return `${EXPLORER_ORIGIN}/account/${address}`
}
