import { tokenProgramId } from './accounts'
import { counterpartyAddress } from './counterparties'
import type { InjectionKind } from './injections'
import type { MintInfo } from './mints'
import type { SimChain, SimWallet, TxView } from './sim-chain'

/** What an injection answers, over HTTP and in-process alike. */
export interface InjectionAnswer {
  wallet: string
  kind: InjectionKind
  signature: string
  timestamp: number
  slot: number
  txCount: number
  /** Who sent it, where someone else signed and paid (an airdrop, a receipt, a poisoner's dust). */
  from?: string
  /** The token the transaction moved (none for a silent or failed one). */
  mint?: string
  /** How much of it moved, raw (positive: what arrived, or what left before the close). */
  amountRaw?: string
  /** The wallet's token account of that mint, and its program. */
  tokenAccount?: string
  tokenProgram?: string
  /** What became of that account: opened by this transaction, credited, or closed. */
  tokenAccountState?: 'opened' | 'credited' | 'closed'
}

/**
 * The answer to an injection of `kind` that produced `tx`: its signature and place, and
 * the token account it opened, credited or closed.
 */
export function injectionAnswer(
  chain: SimChain,
  wallet: SimWallet,
  kind: InjectionKind,
  tx: TxView,
): InjectionAnswer {
  const sender =
    tx.kind === 'airdrop' || tx.kind === 'receipt' ? tx.legs[0]?.counterparty : undefined
  const base = {
    wallet: wallet.address,
    kind,
    signature: tx.signature,
    timestamp: tx.timestamp,
    slot: tx.slot,
    txCount: chain.txCount(wallet),
    ...(sender === undefined ? {} : { from: counterpartyAddress(chain.seed, sender) }),
  }
  const change = tx.changes.find((c) => c.mint > 0)
  const mint = change ? (chain.mints[change.mint] as MintInfo) : undefined
  if (!change || !mint) return base
  const after = chain.balancesAfter(wallet, tx.index + 1)[mint.index] ?? 0n
  return {
    ...base,
    mint: mint.address,
    amountRaw: (change.raw < 0n ? -change.raw : change.raw).toString(),
    tokenAccount: chain.tokenAccountAddress(wallet, mint.index),
    tokenProgram: tokenProgramId(mint.tokenProgram),
    tokenAccountState: after === 0n ? 'closed' : after === change.raw ? 'opened' : 'credited',
  }
}
