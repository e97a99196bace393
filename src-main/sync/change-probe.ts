import type BetterSqlite3 from 'better-sqlite3'
import { CREDIT_PRICES } from '@shared/api/prices'
import type { SyncEngine } from './sync-engine'

/**
 * The cheap "anything new?" check before a full sync. A full check of an unchanged wallet
 * costs one history and one transfers call (2 × 100 credits); the probe asks
 * getSignaturesForAddress(limit 1) — 10 credits — of the wallet and of each of its token
 * accounts, and compares the newest signatures with those seen last time.
 *
 * Why it is safe: every transaction that changes the wallet's history either references
 * the wallet's address (SOL moves, new token accounts it creates or is given through the
 * associated-token program) or one of its token accounts (token receipts into an existing
 * account name only that account). So with the token-account list current, no change
 * escapes all probes. The list is refreshed whenever the wallet's own newest signature
 * moves (a new account is created in a transaction naming the wallet) and at least daily,
 * and a full sync still runs at the scheduler's longest interval whatever the probe says,
 * which bounds the one gap left: a token account created for the wallet by a program that
 * names the owner only in instruction data.
 */
export const PROBE_PRICE = CREDIT_PRICES.rpcSignatures

/** Token accounts are listed again at least this often, even when nothing moved. */
export const TOKEN_ACCOUNT_REFRESH_SEC = 86_400

/** What a probe saw: the newest signature of the wallet and of each token account. */
export interface ProbeObservation {
  wallet: string | null
  tokenAccounts: Map<string, string | null>
}

/** A probe's verdict. */
export interface ProbeResult {
  /** True when something moved, or when there is no earlier observation to compare with. */
  hasChanges: boolean
  observation: ProbeObservation
}

/** Whether probing costs less than the full check it saves (2 wallet calls). */
export function isProbeWorthIt(tokenAccountCount: number): boolean {
  return PROBE_PRICE * (1 + tokenAccountCount) < 2 * CREDIT_PRICES.wallet
}

/** Reads and writes the probe's baseline for one wallet. */
export class ProbeBaseline {
  readonly #s: ReturnType<typeof prepare>
  constructor(sqlite: BetterSqlite3.Database) {
    this.#s = prepare(sqlite)
  }

  /** The token accounts known for the wallet, and when they were listed. */
  tokenAccounts(walletId: number): {
    addresses: Map<string, string | null>
    checkedSec: number | null
  } {
    const rows = this.#s.tokenAccounts.all(walletId) as {
      address: string
      newest_signature: string | null
    }[]
    const probe = this.#s.probe.get(walletId) as
      { token_accounts_checked_sec: number | null; newest_signature: string | null } | undefined
    return {
      addresses: new Map(rows.map((r) => [r.address, r.newest_signature])),
      checkedSec: probe?.token_accounts_checked_sec ?? null,
    }
  }

  /** The wallet's newest signature from the last saved observation (undefined: never probed). */
  walletSignature(walletId: number): string | null | undefined {
    const probe = this.#s.probe.get(walletId) as { newest_signature: string | null } | undefined
    return probe === undefined ? undefined : probe.newest_signature
  }

  /** Replaces the token-account list (after getTokenAccounts). */
  saveTokenAccounts(
    walletId: number,
    accounts: { address: string; mint: string }[],
    nowSec: number,
  ): void {
    this.#s.sqlite.transaction(() => {
      const keep = new Set(accounts.map((a) => a.address))
      const known = this.tokenAccounts(walletId).addresses
      for (const address of known.keys())
        if (!keep.has(address)) this.#s.deleteTokenAccount.run(walletId, address)
      for (const a of accounts) this.#s.upsertTokenAccount.run(walletId, a.address, a.mint, nowSec)
      this.#s.upsertProbe.run(walletId, nowSec)
    })()
  }

  /** Saves what a probe saw as the new baseline (after the sync it triggered succeeded). */
  saveObservation(walletId: number, observation: ProbeObservation): void {
    this.#s.sqlite.transaction(() => {
      this.#s.setWalletSignature.run(walletId, observation.wallet)
      for (const [address, signature] of observation.tokenAccounts)
        this.#s.setAccountSignature.run(signature, walletId, address)
    })()
  }
}

/**
 * Probes a wallet: lists its token accounts when due, then asks each address for its
 * newest signature and compares with the baseline.
 */
export async function probeWallet(
  engine: SyncEngine,
  baseline: ProbeBaseline,
  wallet: { id: number; address: string },
  nowSec: number,
  signal?: AbortSignal,
): Promise<ProbeResult> {
  const newestOf = async (address: string): Promise<string | null> => {
    const result = await engine.callFor(
      wallet.address,
      'rpc.getSignaturesForAddress',
      [address, { limit: 1 }],
      signal,
    )
    return result[0]?.signature ?? null
  }
  const previousWallet = baseline.walletSignature(wallet.id)
  const walletNow = await newestOf(wallet.address)
  const known = baseline.tokenAccounts(wallet.id)
  const checkedSec = known.checkedSec
  let addresses = known.addresses
  const isListDue =
    checkedSec === null ||
    nowSec - checkedSec >= TOKEN_ACCOUNT_REFRESH_SEC ||
    walletNow !== previousWallet
  if (isListDue) {
    const listed: { address: string; mint: string }[] = []
    for (let page = 1; ; page++) {
      const result = await engine.callFor(
        wallet.address,
        'das.getTokenAccounts',
        { owner: wallet.address, page, limit: 1000 },
        signal,
      )
      listed.push(...result.token_accounts.map((t) => ({ address: t.address, mint: t.mint })))
      if (result.token_accounts.length < 1000) break
    }
    baseline.saveTokenAccounts(wallet.id, listed, nowSec)
    addresses = baseline.tokenAccounts(wallet.id).addresses
  }
  const observation: ProbeObservation = { wallet: walletNow, tokenAccounts: new Map() }
  let hasChanges = previousWallet === undefined || walletNow !== previousWallet
  for (const [address, previous] of addresses) {
    const now = await newestOf(address)
    observation.tokenAccounts.set(address, now)
    // A newly listed account starts with no baseline (null): any signature counts as new.
    if (now !== previous) hasChanges = true
  }
  return { hasChanges, observation }
}

function prepare(sqlite: BetterSqlite3.Database) {
  return {
    sqlite,
    tokenAccounts: sqlite.prepare(
      'select address, newest_signature from token_accounts where wallet_id = ?',
    ),
    probe: sqlite.prepare(
      'select newest_signature, token_accounts_checked_sec from wallet_probe where wallet_id = ?',
    ),
    deleteTokenAccount: sqlite.prepare(
      'delete from token_accounts where wallet_id = ? and address = ?',
    ),
    upsertTokenAccount: sqlite.prepare(
      `insert into token_accounts (wallet_id, address, mint, newest_signature, updated_at_sec) values (?, ?, ?, null, ?)
       on conflict (wallet_id, address) do update set mint = excluded.mint, updated_at_sec = excluded.updated_at_sec`,
    ),
    upsertProbe: sqlite.prepare(
      `insert into wallet_probe (wallet_id, newest_signature, token_accounts_checked_sec) values (?, null, ?)
       on conflict (wallet_id) do update set token_accounts_checked_sec = excluded.token_accounts_checked_sec`,
    ),
    setWalletSignature: sqlite.prepare(
      `insert into wallet_probe (wallet_id, newest_signature, token_accounts_checked_sec) values (?, ?, null)
       on conflict (wallet_id) do update set newest_signature = excluded.newest_signature`,
    ),
    setAccountSignature: sqlite.prepare(
      'update token_accounts set newest_signature = ? where wallet_id = ? and address = ?',
    ),
  }
}
