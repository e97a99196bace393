/** A transaction's page on a public explorer (opened outside the app). */
export function explorerTxUrl(signature: string): string {
  return `https://explorer.solana.com/tx/${signature}`
}

/** An account's page on a public explorer. */
export function explorerAccountUrl(address: string): string {
  return `https://explorer.solana.com/address/${address}`
}

/** A signature shortened for a table cell: `5VERv8…j9Q2`. */
export function shortSignature(signature: string): string {
  return signature.length <= 14 ? signature : `${signature.slice(0, 6)}…${signature.slice(-4)}`
}
