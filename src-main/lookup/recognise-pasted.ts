import bs58 from 'bs58'
import {
  lookupRequestFor,
  type LookupRequest,
  type PastedKind,
  type Recognised,
} from '@shared/ipc/lookup-schemas'
import type { MirrorKnowledge } from '../db/queries/pasted-text-queries'
import type { CachedLookup } from '../db/stores/lookup-cache-store'

/** What recognising needs of the mirror: its knowledge of an id and the look-up cache. */
export interface RecogniseSources {
  knowledgeOf(id: string): Promise<MirrorKnowledge>
  newestMentioning(id: string): Promise<CachedLookup | null>
}

const ID_BYTES = 32
const SIGNATURE_BYTES = 64

/**
 * Recognises a pasted text for free and offline: a 64-byte base58 text is a signature; a
 * 32-byte one is whatever the mirror or the look-up cache knows it as, else any of wallet,
 * asset or compressed hash. Anything else is 'unknown', with a reason naming what is wrong.
 *
 * @example
 * await recognisePasted(' 86xC…2MMY ', mirror.lookups) // { kind: 'wallet', reason: 'a watched wallet', … }
 */
export async function recognisePasted(
  text: string,
  sources: RecogniseSources,
): Promise<Recognised> {
  const trimmed = text.trim()
  const bytes = decodedLength(trimmed)
  if (typeof bytes === 'string') return unknown(trimmed, bytes)
  if (bytes === SIGNATURE_BYTES) {
    const known = await sources.knowledgeOf(trimmed)
    return {
      text: trimmed,
      kind: 'signature',
      candidates: ['signature'],
      reason: known.isKnownSignature
        ? '64 bytes: a signature, in a watched wallet’s history (also open it in History)'
        : '64 bytes: a signature',
      request: lookupRequestFor('signature', trimmed),
    }
  }
  if (bytes !== ID_BYTES) {
    return unknown(
      trimmed,
      `base58 of ${bytes} bytes: an address, mint or hash has 32 bytes and a signature 64`,
    )
  }
  const known = await sources.knowledgeOf(trimmed)
  const guess = guessOf(known)
  if (guess !== null) {
    return {
      text: trimmed,
      kind: guess.kind,
      candidates: [guess.kind, ...ALL_ID_KINDS.filter((k) => k !== guess.kind)],
      reason: guess.reason,
      request: lookupRequestFor(guess.kind, trimmed),
    }
  }
  const cached = await sources.newestMentioning(trimmed)
  const cachedKind = cached === null ? null : kindOfView(cached.view)
  if (cachedKind !== null && cached !== null) {
    return {
      text: trimmed,
      kind: cachedKind,
      candidates: [cachedKind, ...ALL_ID_KINDS.filter((k) => k !== cachedKind)],
      reason: `looked up before (${cached.title})`,
      request: cached.request as LookupRequest,
    }
  }
  return {
    text: trimmed,
    kind: 'wallet',
    candidates: [...ALL_ID_KINDS],
    reason: '32 bytes: could be a wallet, an asset (mint) or a compressed account hash',
    request: lookupRequestFor('wallet', trimmed),
  }
}

/** The 32-byte kinds, in the order they are offered when nothing tells them apart. */
const ALL_ID_KINDS = ['wallet', 'asset', 'compressed-hash'] as const satisfies PastedKind[]
type IdKind = (typeof ALL_ID_KINDS)[number]

function guessOf(known: MirrorKnowledge): { kind: IdKind; reason: string } | null {
  if (known.isWatchedWallet) return { kind: 'wallet', reason: 'a watched wallet' }
  if (known.isKnownAsset) return { kind: 'asset', reason: 'a mint or asset in the mirror' }
  if (known.isKnownCompressedHash)
    return { kind: 'compressed-hash', reason: 'a compressed account hash in the mirror' }
  if (known.isKnownWallet)
    return { kind: 'wallet', reason: 'a wallet the mirror knows (a counterparty or a name)' }
  return null
}

/** The pasted kind a cached look-up's view stands for, when it is about one id. */
function kindOfView(view: string): PastedKind | null {
  if (view === 'wallet' || view === 'assets-by-owner' || view === 'compressed-owner')
    return 'wallet'
  if (view === 'asset') return 'asset'
  if (view === 'compressed-account' || view === 'compressed-proof') return 'compressed-hash'
  if (view === 'compressed-tx') return 'signature'
  return null
}

/** The decoded length in bytes, or why the text is no base58 id. */
function decodedLength(text: string): number | string {
  if (text === '') return 'nothing was pasted'
  if (/\s/.test(text)) return 'the text holds spaces: paste one address, id or signature'
  const bad = /[^1-9A-HJ-NP-Za-km-z]/.exec(text)
  if (bad !== null) {
    return `“${bad[0]}” at position ${bad.index + 1} is not a base58 character (base58 has no 0, O, I or l)`
  }
  return bs58.decode(text).length
}

function unknown(text: string, reason: string): Recognised {
  return { text, kind: 'unknown', candidates: [], reason, request: null }
}
