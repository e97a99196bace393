import { CREDIT_PRICES } from '@shared/api/prices'
import type { ProbeBaselineStore } from '../db/stores/probe-baseline-store'
import type { WalletCall } from './service-caller'

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
const PROBE_PRICE = CREDIT_PRICES.rpcSignatures

/** Token accounts are listed again at least this often, even when nothing moved. */
const TOKEN_ACCOUNT_REFRESH_SEC = 86_400

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

/**
 * Probes a wallet: lists its token accounts when due, then asks each address for its
 * newest signature and compares with the baseline.
 */
export async function probeWallet(
  call: WalletCall,
  baseline: ProbeBaselineStore,
  wallet: { id: number; address: string },
  nowSec: number,
  signal?: AbortSignal,
): Promise<ProbeResult> {
  const newestOf = async (address: string): Promise<string | null> => {
    const result = await call('rpc.getSignaturesForAddress', [address, { limit: 1 }], signal)
    return result[0]?.signature ?? null
  }
  const previousWallet = await baseline.walletSignature(wallet.id)
  const walletNow = await newestOf(wallet.address)
  const known = await baseline.tokenAccounts(wallet.id)
  const checkedSec = known.checkedSec
  let addresses = known.addresses
  const isListDue =
    checkedSec === null ||
    nowSec - checkedSec >= TOKEN_ACCOUNT_REFRESH_SEC ||
    walletNow !== previousWallet
  if (isListDue) {
    const listed: { address: string; mint: string }[] = []
    for (let page = 1; ; page++) {
      const result = await call(
        'das.getTokenAccounts',
        { owner: wallet.address, page, limit: 1000 },
        signal,
      )
      listed.push(...result.token_accounts.map((t) => ({ address: t.address, mint: t.mint })))
      if (result.token_accounts.length < 1000) break
    }
    await baseline.saveTokenAccounts(wallet.id, listed, nowSec)
    addresses = (await baseline.tokenAccounts(wallet.id)).addresses
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
