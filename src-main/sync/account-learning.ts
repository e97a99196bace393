import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { TokenAccount } from '@shared/api/das'
import { TOKEN_AMOUNT_SLICE } from '@shared/api/rpc'
import type { ConfirmedTransaction } from '@shared/api/rpc-transaction'
import type { EnhancedTransaction } from '@shared/api/webhook-delivery'
import { decimalText, rawFromDecimalText } from '@shared/domain/exact-amount'
import type { StoredHoldings } from '../db/stores/holdings-store'
import type { LearnedTokenAccount, WatchStateStore } from '../db/stores/watch-state-store'
import { slicedTokenAmount } from './change-detector'
import type { WalletCall } from './service-caller'

/**
 * What the mirror learns, watching learns (ARCHITECTURE, "Watching"). A token account
 * can change without the wallet signing: someone sends a token into it, and the wallet's
 * own address is not among that transaction's accounts, so neither its lamports nor its
 * signatures show it. Only a watched account's look does. So every account a written
 * transaction, a delivery, a balances answer or a look-up shows as the wallet's is watched
 * from that write, with the amount it was left at; an account closed in a transaction is
 * no longer watched. The hourly listing of the wallet's accounts is left with what nothing
 * the wallet does shows: an account someone else opened for it.
 */

/**
 * The wallet's token accounts as transactions left them, each by the newest transaction
 * that names it: an account a balance after the transaction names the wallet as owner of is
 * open at that amount; one a balance before it names, and none after it, was closed in it.
 *
 * @example
 * accountsLeftBy(wallet, [purchase]) // [{ address: 'Ata1…', mint, state: 'open', amount: '5000000' }]
 */
export function accountsLeftBy(
  wallet: string,
  transactions: readonly ConfirmedTransaction[],
): LearnedTokenAccount[] {
  const out = new Map<string, LearnedTokenAccount>()
  for (const tx of [...transactions].sort((a, b) => a.slot - b.slot)) {
    if (tx.meta === null) continue
    const keys = tx.transaction.message.accountKeys
    const after = new Map((tx.meta.postTokenBalances ?? []).map((b) => [b.accountIndex, b]))
    for (const b of tx.meta.postTokenBalances ?? []) {
      const address = keys[b.accountIndex]?.pubkey
      if (b.owner !== wallet || address === undefined) continue
      out.set(address, {
        address,
        mint: b.mint,
        program: b.programId ?? null,
        state: 'open',
        amount: b.uiTokenAmount.amount,
      })
    }
    for (const b of tx.meta.preTokenBalances ?? []) {
      const address = keys[b.accountIndex]?.pubkey
      if (b.owner !== wallet || address === undefined || after.has(b.accountIndex)) continue
      out.set(address, { address, state: 'closed' })
    }
  }
  return [...out.values()]
}

/**
 * The token accounts delivered transactions name as the wallet's that watching does not
 * know yet. A delivery gives what each account changed by, not what it holds, so an account
 * is watched with the wallet's holdings of its mint when it is the wallet's only account of
 * that mint, and otherwise unobserved (the next look reads it). A delivery does not say
 * that an account closed: the next look reads it closed, and the next listing drops it.
 */
export function accountsDeliveredTo(
  wallet: string,
  events: readonly EnhancedTransaction[],
  watched: ReadonlySet<string>,
  watchedMints: ReadonlySet<string>,
  holdings: StoredHoldings,
): LearnedTokenAccount[] {
  const found = new Map<string, string>()
  // An entry of accountData is the token account whose balance its changes are.
  for (const e of events)
    for (const a of e.accountData ?? [])
      for (const c of a.tokenBalanceChanges)
        if (c.userAccount === wallet && !watched.has(a.account)) found.set(a.account, c.mint)
  const perMint = new Map<string, number>()
  for (const mint of found.values()) perMint.set(mint, (perMint.get(mint) ?? 0) + 1)
  return [...found].flatMap(([address, mint]): LearnedTokenAccount[] => {
    const isOnly = perMint.get(mint) === 1 && !watchedMints.has(mint)
    const amount = isOnly ? heldRaw(holdings, mint) : null
    // Emptied: on Solana an owner mostly closes an account it empties; the look will say.
    if (amount === '0') return []
    return [{ address, mint, program: null, state: 'open', amount }]
  })
}

/** The raw amount of a mint the holdings hold (as text), or null when they do not say. */
function heldRaw(holdings: StoredHoldings, mint: string): string | null {
  const b = holdings.balances.find((x) => x.mint === mint)
  if (b === undefined) return '0'
  return rawFromDecimalText(decimalText(b.balance), b.decimals)
}

/**
 * The token accounts a look-up's listing (DAS getTokenAccounts) shows, by owner, each open
 * at its amount (unknown above 2^53, where a JSON number cannot carry it exactly).
 */
export function accountsListedBy(
  accounts: readonly TokenAccount[],
): Map<string, LearnedTokenAccount[]> {
  const out = new Map<string, LearnedTokenAccount[]>()
  for (const a of accounts) {
    const list = out.get(a.owner) ?? []
    list.push({
      address: a.address,
      mint: a.mint,
      program: null,
      state: 'open',
      amount: Number.isSafeInteger(a.amount) ? String(a.amount) : null,
    })
    out.set(a.owner, list)
  }
  return out
}

/**
 * Watches the accounts of the mints a balances answer holds that no watched account of the
 * wallet holds: each such mint's accounts are listed (getTokenAccountsByOwner by mint, 1
 * credit) and watched with their amounts. Only for a wallet whose accounts were listed
 * before (the first listing covers a new wallet's). Resolves to the calls made.
 */
export async function watchHeldMints(
  store: WatchStateStore,
  walletId: number,
  owner: string,
  holdings: StoredHoldings,
  call: WalletCall,
  signal?: AbortSignal,
): Promise<number> {
  const state = (await store.states([walletId])).get(walletId)
  if (state?.tokenAccountsListedSec == null) return 0
  const watchedMints = new Set((await store.accounts([walletId])).map((a) => a.mint))
  const missing = holdings.balances
    .filter((b) => b.mint !== NATIVE_SOL_MINT && b.balance !== 0 && !watchedMints.has(b.mint))
    .map((b) => b.mint)
  const learned: LearnedTokenAccount[] = []
  const net = await store.historyNetOf(walletId, missing)
  for (const mint of missing) {
    const listed = await call(
      'rpc.getTokenAccountsByOwner',
      [owner, { mint }, { encoding: 'base64', dataSlice: TOKEN_AMOUNT_SLICE }],
      signal,
    )
    const accounts = listed.value.map((item) => ({
      address: item.pubkey,
      program: item.account.owner,
      amount: slicedTokenAmount(item.account.data) ?? null,
    }))
    learned.push(...accountsAtHistory(mint, accounts, net.get(mint) ?? 0n))
  }
  await store.learnTokenAccounts(walletId, learned, false)
  return missing.length
}

/**
 * The accounts of a mint a balances answer revealed, at the amounts to watch them from. When
 * they hold what the wallet's stored transactions left it of the mint, at what they hold.
 * When not, a transaction the history lacks moved them (a token sent into an account the
 * wallet had closed, which names only that account): they are watched from what the
 * history left (the first at it, the rest at 0), so the next look sees them move and the
 * change check reads their new transactions.
 *
 * @example
 * accountsAtHistory(mint, [{ address: 'Ata1…', program, amount: 10717n }], 0n)
 * // [{ address: 'Ata1…', mint, program, state: 'open', amount: '0' }]
 */
export function accountsAtHistory(
  mint: string,
  accounts: readonly { address: string; program: string; amount: bigint | null }[],
  historyNet: bigint,
): LearnedTokenAccount[] {
  const held = accounts.reduce((sum, a) => sum + (a.amount ?? 0n), 0n)
  const isExplained = accounts.every((a) => a.amount !== null) && held === historyNet
  return accounts.map((a, i) => ({
    address: a.address,
    mint,
    program: a.program,
    state: 'open',
    amount: isExplained
      ? (a.amount as bigint).toString()
      : (i === 0 && historyNet > 0n ? historyNet : 0n).toString(),
  }))
}

/**
 * What a change's transactions left, with each account of a mint no watched account of the
 * wallet holds checked against the history as {@link accountsAtHistory} does: a transaction
 * the wallet signed can spend from an account someone else opened (or reopened) for it, and
 * the receipt that filled it, which names only that account, is not among the change's.
 */
export async function unwatchedAtHistory(
  store: WatchStateStore,
  walletId: number,
  learned: readonly LearnedTokenAccount[],
): Promise<LearnedTokenAccount[]> {
  const watchedMints = new Set((await store.accounts([walletId])).map((a) => a.mint))
  const fresh = new Map<string, Extract<LearnedTokenAccount, { state: 'open' }>[]>()
  const out: LearnedTokenAccount[] = []
  for (const a of learned) {
    if (a.state === 'closed' || watchedMints.has(a.mint)) out.push(a)
    else fresh.set(a.mint, [...(fresh.get(a.mint) ?? []), a])
  }
  const net = await store.historyNetOf(walletId, [...fresh.keys()])
  for (const [mint, accounts] of fresh)
    out.push(
      ...accountsAtHistory(
        mint,
        accounts.map((a) => ({
          address: a.address,
          program: a.program ?? '',
          amount: a.amount === null ? null : BigInt(a.amount),
        })),
        net.get(mint) ?? 0n,
      ).map((a, i) => ({ ...a, program: accounts[i]?.program ?? null })),
    )
  return out
}
