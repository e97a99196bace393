import bs58 from 'bs58'
import type { OperationInput, OperationName, OperationOutput } from '@shared/api/operations'
import {
  MAX_MULTIPLE_ACCOUNTS,
  TOKEN_ACCOUNT_MINT_OFFSET,
  TOKEN_AMOUNT_SLICE,
  TOKEN_PROGRAM_IDS,
  type AccountInfo,
} from '@shared/api/rpc'
import type { WatchCadence } from '@shared/ipc/settings-schemas'
import type { ChangeReason } from '@shared/ipc/sync-schemas'
import type { MirrorWriter } from '../db/mirror-writer'
import type { LookedAccounts } from './holdings-from-look'
import {
  CHANGE_SIGNATURE_LIMIT,
  type MissingSince,
  type MovedAccount,
} from './streams/change-stream'
import type {
  ListedTokenAccount,
  Observation,
  WalletWatchState,
  WatchStateStore,
  WatchedAccount,
} from '../db/stores/watch-state-store'

/**
 * How watching notices that a wallet changed, without paying for a sync to find out.
 *
 * Every round one `getMultipleAccounts` look (1 credit per 100 accounts) reads the lamports
 * of every watched wallet and the token amount of each of their token accounts, and
 * compares them with the last observation. Slower clocks add what balances alone cannot
 * show: the token accounts are listed again (someone who sends a new token pays the rent,
 * so the wallet's lamports do not move, but a new account appears); compressed balances of
 * wallets with compressed state are compared (compressed transfers move no account); and
 * a backstop verifies each wallet's newest signature against the mirror.
 *
 * What balance looks cannot see, and what bounds it:
 * - a transaction that changes no balance of the wallet (a memo naming it, a failed
 *   transaction someone else paid for, a swap that nets to the same amounts between two
 *   looks): found by the backstop, at most `backstopEverySec` later;
 * - a new token account between two listings: found at the next listing, at most
 *   `tokenAccountsEverySec` later (or sooner, when the wallet's lamports moved too);
 * - compressed activity: found at the next compressed look, at most `compressedEverySec`
 *   later (sooner when the wallet also paid a fee in SOL).
 */

/** A call to the service for watching, through the rate shaper and the credit meter. */
export type WatchCall = <N extends OperationName>(
  operation: N,
  input: OperationInput<N>,
  signal?: AbortSignal,
) => Promise<OperationOutput<N>>

export type { ChangeReason }

/** A wallet to look at, and whether it ever held compressed state (then it is compared too). */
export interface WatchTarget {
  walletId: number
  address: string
  hasCompressedState: boolean
  /** The wallet is synced in full after this round (new, unfinished or asked for): no backstop. */
  syncsFully: boolean
}

/** What a round found for one wallet. */
export interface WalletFindings {
  walletId: number
  address: string
  /** Empty when nothing moved. */
  reasons: ChangeReason[]
  /** The wallet's own account when its lamports moved (first), and each token account that changed or appeared. */
  moved: MovedAccount[]
  /** Lamports and fungible token amounts as this round read them (null: some never read yet, or nothing moved). */
  looked: LookedAccounts | null
  /** The oldest transaction the full check found the mirror lacks (null: none found). */
  missingSince: MissingSince | null
  /**
   * Saves what the round saw as the new baseline. For a wallet that changed, call it only
   * after its sync succeeded: until then the next round sees the same difference again.
   */
  commit: () => Promise<void>
}

/** A token account's mint: its first 32 bytes. */
const MINT_SLICE = { offset: TOKEN_ACCOUNT_MINT_OFFSET, length: 32 } as const

/**
 * Finds which watched wallets changed since the last round.
 *
 * @example
 * const detector = new ChangeDetector({ store: mirror.watchState, writer: mirror.writer, call })
 * const findings = await detector.round(targets, cadence, nowSec)
 * for (const f of findings) if (f.reasons.length === 0) await f.commit()
 */
export class ChangeDetector {
  readonly #store: WatchStateStore
  readonly #writer: MirrorWriter
  readonly #call: WatchCall

  constructor(options: { store: WatchStateStore; writer: MirrorWriter; call: WatchCall }) {
    this.#store = options.store
    this.#writer = options.writer
    this.#call = options.call
  }

  /** One round over `targets`: lists, looks, compares; saves nothing for changed wallets. */
  async round(
    targets: readonly WatchTarget[],
    cadence: WatchCadence,
    nowSec: number,
    signal?: AbortSignal,
  ): Promise<WalletFindings[]> {
    const ids = targets.map((t) => t.walletId)
    await this.#store.watchWallets(targets, nowSec)
    const states = await this.#store.states(ids)
    const known = groupByWallet(await this.#store.accounts(ids))
    const work = new Map<number, WalletWork>()
    for (const t of targets) {
      work.set(t.walletId, {
        target: t,
        state: states.get(t.walletId) as WalletWatchState,
        accounts: known.get(t.walletId) ?? [],
        reasons: new Set(),
        moved: new Set(),
        observations: [],
        statePatch: {},
        listed: null,
        knownBefore: (known.get(t.walletId) ?? [])
          .filter((a) => a.kind === 'token')
          .map((a) => a.address),
        missingSince: null,
      })
    }

    for (const w of work.values()) {
      const listedSec = w.state.tokenAccountsListedSec
      if (listedSec !== null && nowSec - listedSec < cadence.tokenAccountsEverySec) continue
      await this.#listTokenAccounts(w, nowSec, signal)
    }
    await this.#lookAtBalances([...work.values()], signal)
    for (const w of work.values()) {
      if (!w.target.hasCompressedState) continue
      const checked = w.state.compressedCheckedSec
      if (checked !== null && nowSec - checked < cadence.compressedEverySec) continue
      await this.#lookAtCompressed(w, nowSec, signal)
    }
    for (const w of work.values()) {
      // A full sync reads more than the backstop would, so it counts as one.
      if (w.target.syncsFully) {
        w.statePatch.backstopCheckedSec = nowSec
        continue
      }
      const checked = w.state.backstopCheckedSec
      if (checked !== null && nowSec - checked < cadence.backstopEverySec) continue
      await this.#backstop(w, nowSec, signal)
    }

    return [...work.values()].map((w) => ({
      walletId: w.target.walletId,
      address: w.target.address,
      reasons: [...w.reasons],
      // Worked out only for a wallet that changed: a round reads every wallet, every minute.
      moved: w.reasons.size > 0 ? movedAccounts(w) : [],
      looked: w.reasons.size > 0 ? lookedAccounts(w) : null,
      missingSince: w.missingSince,
      commit: async () => {
        if (w.listed)
          await this.#store.replaceTokenAccounts(w.target.walletId, w.listed, nowSec, w.knownBefore)
        await this.#store.saveObservations(w.observations)
        await this.#store.patchState(w.target.walletId, w.statePatch)
      },
    }))
  }

  /** Lists the wallet's token accounts of both token programs (1 credit each). */
  async #listTokenAccounts(w: WalletWork, nowSec: number, signal?: AbortSignal): Promise<void> {
    const listed: ListedTokenAccount[] = []
    for (const program of TOKEN_PROGRAM_IDS) {
      const result = await this.#call(
        'rpc.getTokenAccountsByOwner',
        [w.target.address, { programId: program }, { encoding: 'base64', dataSlice: MINT_SLICE }],
        signal,
      )
      for (const item of result.value) {
        const mint = bs58.encode(base64Data(item.account.data))
        listed.push({ address: item.pubkey, mint, program })
      }
    }
    const before = new Set(w.knownBefore)
    const isFirstListing = w.state.tokenAccountsListedSec === null
    for (const a of isFirstListing ? [] : listed.filter((l) => !before.has(l.address))) {
      w.reasons.add('new-token-account')
      w.moved.add(a.address)
    }
    w.listed = listed
    // The look below covers the accounts as listed now; newly listed ones start unobserved.
    const own = w.accounts.filter((a) => a.kind === 'wallet')
    const kept = new Map(w.accounts.map((a) => [a.address, a]))
    w.accounts = [
      ...own,
      ...listed.map((a): WatchedAccount => ({
        walletId: w.target.walletId,
        address: a.address,
        kind: 'token',
        mint: a.mint,
        program: a.program,
        observed: kept.get(a.address)?.observed ?? null,
        isCollectible: kept.get(a.address)?.isCollectible ?? false,
      })),
    ]
    w.statePatch.tokenAccountsListedSec = nowSec
  }

  /**
   * Reads the watched accounts, 100 a call, and compares with the last observation. A
   * wallet's collectibles (NFT token accounts) are read only in the round that lists its
   * token accounts: an NFT that leaves moves the wallet's lamports too (the fee, or the
   * price of a sale), and one that arrives opens a new account, which the listing finds.
   * What only the collectibles' look would see (an NFT returned to an account it left, paid
   * for by someone else) is found at the next listing, at most `tokenAccountsEverySec`
   * later, or by the backstop.
   */
  async #lookAtBalances(all: readonly WalletWork[], signal?: AbortSignal): Promise<void> {
    const accounts = all.flatMap((w) =>
      w.accounts.filter((a) => !a.isCollectible || w.listed !== null).map((a) => ({ w, a })),
    )
    for (let i = 0; i < accounts.length; i += MAX_MULTIPLE_ACCOUNTS) {
      const chunk = accounts.slice(i, i + MAX_MULTIPLE_ACCOUNTS)
      const result = await this.#call(
        'rpc.getMultipleAccounts',
        [chunk.map((c) => c.a.address), { encoding: 'base64', dataSlice: TOKEN_AMOUNT_SLICE }],
        signal,
      )
      chunk.forEach(({ w, a }, k) => {
        const account = result.value[k] ?? null
        const observed = observedValue(a.kind, account)
        if (a.observed !== null && a.observed !== observed) {
          w.reasons.add('balance')
          w.moved.add(a.address)
        }
        if (a.observed !== observed)
          w.observations.push({
            walletId: a.walletId,
            address: a.address,
            observed,
            previous: a.observed,
          })
      })
    }
  }

  /** Compares the wallet's compressed balances with the last look (2 × 10 credits). */
  async #lookAtCompressed(w: WalletWork, nowSec: number, signal?: AbortSignal): Promise<void> {
    const owner = w.target.address
    const lamports = await this.#call('compression.getCompressedBalanceByOwner', { owner }, signal)
    const tokens: string[] = []
    let cursor: string | null = null
    do {
      const page: OperationOutput<'compression.getCompressedTokenBalancesByOwnerV2'> =
        await this.#call(
          'compression.getCompressedTokenBalancesByOwnerV2',
          { owner, ...(cursor === null ? {} : { cursor }) },
          signal,
        )
      tokens.push(...page.value.items.map((t) => `${t.mint}:${t.balance}`))
      cursor = page.value.cursor
    } while (cursor !== null)
    const fingerprint = [String(lamports.value), ...tokens.sort()].join('|')
    const previous = w.state.compressedFingerprint
    if (previous !== null && previous !== fingerprint) w.reasons.add('compressed')
    w.statePatch.compressedFingerprint = fingerprint
    w.statePatch.compressedCheckedSec = nowSec
  }

  /**
   * Verifies that the mirror holds the wallet's newest signatures (10 credits). Its token
   * accounts need no listing of their own: what leaves one is signed by the wallet, so it
   * is on the wallet's list, and what arrives changes the amount the looks compare. What
   * neither shows — a delegate sending on what arrived between two looks, or an NFT coming
   * back to an account it left while another change is synced — waits for a full sync.
   */
  async #backstop(w: WalletWork, nowSec: number, signal?: AbortSignal): Promise<void> {
    w.statePatch.backstopCheckedSec = nowSec
    // The same 10 credits list up to 1,000: the newest few also show a transaction the
    // mirror lacks below one it holds (a memo, then a receipt the look found first).
    const listed = await this.#call(
      'rpc.getSignaturesForAddress',
      [w.target.address, { limit: CHANGE_SIGNATURE_LIMIT }],
      signal,
    )
    if (listed.length === 0) return
    const known = await this.#writer.knownSignatures(
      w.target.walletId,
      listed.map((s) => s.signature),
    )
    // Unknown below every stored one listed: older than what the mirror keeps (a depth limit).
    const oldestKnown = listed.findLastIndex((s) => known.has(s.signature))
    const missing = listed.filter(
      (s, i) => !known.has(s.signature) && (oldestKnown === -1 || i < oldestKnown),
    )
    if (missing.length === 0) return
    w.reasons.add('backstop-signature')
    const oldest = missing.at(-1) as (typeof missing)[number]
    w.missingSince = { slot: oldest.slot, timestampSec: oldest.blockTime }
  }
}

interface WalletWork {
  target: WatchTarget
  state: WalletWatchState
  accounts: WatchedAccount[]
  reasons: Set<ChangeReason>
  moved: Set<string>
  observations: Observation[]
  statePatch: Partial<WalletWatchState>
  listed: ListedTokenAccount[] | null
  /** The token accounts watched when the round began (a listing replaces only these). */
  knownBefore: string[]
  /** The oldest transaction the full check found the mirror lacks. */
  missingSince: MissingSince | null
}

/** The accounts whose look moved, with what the round read; the wallet's own first. */
function movedAccounts(w: WalletWork): MovedAccount[] {
  const seen = new Map(w.observations.map((o) => [o.address, o.observed]))
  return w.accounts
    .filter((a) => w.moved.has(a.address))
    .sort((a, b) => Number(b.kind === 'wallet') - Number(a.kind === 'wallet'))
    .map((a) => ({
      address: a.address,
      before: rawValue(a.observed ?? 'closed'),
      value: rawValue(seen.get(a.address) ?? a.observed ?? 'closed'),
    }))
}

/** Lamports or a token amount as a number of raw units (0 once closed). */
function rawValue(observed: string): bigint {
  return observed === 'closed' ? 0n : BigInt(observed)
}

/** What the round read of a wallet's lamports and fungible token accounts. */
function lookedAccounts(w: WalletWork): LookedAccounts | null {
  const seen = new Map(w.observations.map((o) => [o.address, o.observed]))
  let lamports: bigint | null = null
  const tokens: { mint: string; amount: bigint }[] = []
  for (const a of w.accounts) {
    if (a.isCollectible) continue
    const value = seen.get(a.address) ?? a.observed
    if (value === null) return null
    const raw = rawValue(value)
    if (a.kind === 'wallet') lamports = raw
    else if (a.mint !== null) tokens.push({ mint: a.mint, amount: raw })
  }
  return lamports === null ? null : { lamports, tokens }
}

/** The value compared between looks: lamports of a wallet, the amount of a token account. */
function observedValue(kind: WatchedAccount['kind'], account: AccountInfo | null): string {
  if (account === null) return 'closed'
  if (kind === 'wallet') return String(account.lamports)
  return slicedTokenAmount(account.data)?.toString() ?? 'closed'
}

/** A token account's amount read through the amount's dataSlice (null: too few bytes). */
export function slicedTokenAmount(data: AccountInfo['data']): bigint | null {
  const bytes = base64Data(data)
  return bytes.length >= 8 ? bytes.readBigUInt64LE(0) : null
}

/** The bytes of account data asked for as base64 (a parsed answer breaks the request's contract). */
function base64Data(data: AccountInfo['data']): Buffer {
  if (!Array.isArray(data))
    throw new Error('The service answered parsed account data where base64 was asked for.')
  if (data[1] !== 'base64')
    throw new Error(`The service answered ${data[1]} account data where base64 was asked for.`)
  return Buffer.from(data[0], 'base64')
}

function groupByWallet(accounts: readonly WatchedAccount[]): Map<number, WatchedAccount[]> {
  const out = new Map<number, WatchedAccount[]>()
  for (const a of accounts) {
    const list = out.get(a.walletId) ?? []
    list.push(a)
    out.set(a.walletId, list)
  }
  return out
}
