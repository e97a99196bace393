import bs58 from 'bs58'

/**
 * A valid wallet address made from a number: 32 bytes, base58-encoded. Tests use these
 * instead of real people's addresses.
 */
export function testAddress(n: number): string {
  const bytes = new Uint8Array(32)
  bytes[0] = 1 + (n % 250)
  new DataView(bytes.buffer).setUint32(28, n)
  for (let i = 1; i < 28; i++) bytes[i] = (n * 31 + i * 17) % 256
  return bs58.encode(bytes)
}
