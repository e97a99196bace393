/** A signature shortened for a table cell: `5VERv8…j9Q2`. */
export function shortSignature(signature: string): string {
  return signature.length <= 14 ? signature : `${signature.slice(0, 6)}…${signature.slice(-4)}`
}
