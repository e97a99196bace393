import bs58 from 'bs58'
import { hash32 } from './prng'

// Addresses, signatures, asset ids and hashes look random but carry their coordinates
// (a = wallet or entity number, b = index) in their last bytes, guarded by a check word,
// so a cursor such as `before=<signature>` resolves to its position in O(1).

const KIND_CODES = {
  wallet: 1,
  counterparty: 2,
  signature: 3,
  tokenAccount: 4,
  nftTokenAccount: 5,
  asset: 6,
  compressedHash: 7,
  compressedAddress: 8,
  collection: 9,
  tree: 10,
  authority: 11,
  mint: 12,
  keyOwner: 13,
  dataHash: 14,
  root: 15,
  counterpartyTokenAccount: 16,
  blockhash: 17,
} as const
type EntityKind = keyof typeof KIND_CODES

/** Bytes of a signature (ed25519) and of an address. */
const SIGNATURE_BYTES = 64
const ADDRESS_BYTES = 32

function entityBytes(
  seed: number,
  kind: EntityKind,
  a: number,
  b: number,
  length: number,
): Uint8Array {
  const code = KIND_CODES[kind]
  const bytes = new Uint8Array(length)
  const fill = length - 8
  for (let w = 0; w * 4 < fill; w++) {
    const h = hash32(seed, code, a, b, w)
    for (let j = 0; j < 4 && w * 4 + j < fill; j++) bytes[w * 4 + j] = (h >>> (j * 8)) & 0xff
  }
  // A high first byte keeps the text at its full length (44 chars for 32 bytes, 88 for 64).
  bytes[0] = 0x80 | ((bytes[0] ?? 0) & 0x7f)
  const view = new DataView(bytes.buffer)
  view.setUint16(fill, a & 0xffff)
  view.setUint32(fill + 2, b >>> 0)
  view.setUint16(fill + 6, hash32(seed, code, a, b, 0xc0de) & 0xffff)
  return bytes
}

/**
 * Texts and coordinates already worked out. Watching asks about the same few hundred
 * accounts every minute, and base58 plus the check word cost more than the answer: kept
 * up to a bound, then started afresh (the values are pure functions of their keys).
 */
const MEMO_LIMIT = 200_000
const encoded = new Map<string, string>()
const decoded = new Map<string, { a: number; b: number } | null>()

function remember<V>(memo: Map<string, V>, key: string, value: V): V {
  if (memo.size >= MEMO_LIMIT) memo.clear()
  memo.set(key, value)
  return value
}

/** The base58 text of entity (kind, a, b). */
export function encodeEntity(
  seed: number,
  kind: EntityKind,
  a: number,
  b: number,
  length = ADDRESS_BYTES,
): string {
  const key = `${seed}:${kind}:${a}:${b}:${length}`
  return (
    encoded.get(key) ?? remember(encoded, key, bs58.encode(entityBytes(seed, kind, a, b, length)))
  )
}

/** The coordinates of a text made by encodeEntity with the same seed and kind, or null. */
export function decodeEntity(
  seed: number,
  kind: EntityKind,
  text: string,
  length = ADDRESS_BYTES,
): { a: number; b: number } | null {
  const key = `${seed}:${kind}:${length}:${text}`
  const known = decoded.has(key)
    ? decoded.get(key)
    : remember(decoded, key, decodeUncached(seed, kind, text, length))
  return known ? { ...known } : null
}

function decodeUncached(
  seed: number,
  kind: EntityKind,
  text: string,
  length: number,
): { a: number; b: number } | null {
  let bytes: Uint8Array
  try {
    bytes = bs58.decode(text)
  } catch {
    return null
  }
  if (bytes.length !== length) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const a = view.getUint16(length - 8)
  const b = view.getUint32(length - 6)
  const expected = entityBytes(seed, kind, a, b, length)
  for (let i = 0; i < length; i++) if (expected[i] !== bytes[i]) return null
  return { a, b }
}

/** Signature of transaction `index` of wallet `walletId`. */
export function transactionSignature(seed: number, walletId: number, index: number): string {
  return encodeEntity(seed, 'signature', walletId, index, SIGNATURE_BYTES)
}

/** Wallet id and transaction index encoded in a signature, or null when it is not one of ours. */
export function decodeTransactionSignature(
  seed: number,
  signature: string,
): { walletId: number; index: number } | null {
  const c = decodeEntity(seed, 'signature', signature, SIGNATURE_BYTES)
  return c === null ? null : { walletId: c.a, index: c.b }
}
