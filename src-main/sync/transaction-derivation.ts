import { z } from 'zod'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { executionOrder, type ConfirmedTransaction } from '@shared/api/rpc-transaction'
import { HistoryEntry, TransferEntry, type BalanceChange } from '@shared/api/wallet-rest'
import { decimalFromRaw, decimalText, rawFromDecimalText } from '@shared/domain/exact-amount'
import type { EnhancedTransaction } from '@shared/api/webhook-delivery'

/**
 * A watched wallet's view of one confirmed transaction (getTransaction, jsonParsed): the
 * history entry and the transfers the history and transfers endpoints would list for it,
 * worked out from the account keys, the balances before and after and the parsed
 * transfer instructions — or why that cannot be done, and the endpoints must answer:
 * - a failed transaction: the history names its error in words the transaction lacks;
 * - a token balance without an owner, a transfer whose other side has no known owner;
 * - transfers that do not add up to the wallet's balance changes (SOL counted without
 *   the fee the wallet paid): some other instruction moved value, and a transfer row
 *   could be missing;
 * - a mint whose symbol the mirror does not know, or an NFT it has named (the endpoint
 *   lists NFTs without a symbol).
 */
export type TransactionView =
  | {
      ok: true
      entry: HistoryEntry
      transfers: TransferEntry[]
      /** It ran a program that moves assets no token account holds (compressed NFTs, Core assets). */
      movesAccountlessAssets: boolean
      /** What it changed of the wallet's holdings, raw, by mint (SOL with the fee). */
      deltas: ReadonlyMap<string, Delta>
    }
  | { ok: false; why: string }

/** A raw balance change of one mint. */
export interface Delta {
  raw: bigint
  decimals: number
}

/** What one transaction did to the wallet, whatever told it (a read, a delivery). */
interface Movement {
  signature: string
  slot: number
  timestamp: number
  feeLamports: bigint
  feePayer: string
  /** The wallet's balance changes by mint, SOL first, in the order the accounts come. */
  deltas: Map<string, Delta>
  legs: Leg[]
  movesAccountlessAssets: boolean
}

/** One movement between the wallet and someone else, in instruction order. */
interface Leg {
  mint: string
  raw: bigint
  decimals: number
  direction: 'in' | 'out'
  counterparty: string
}

const SystemTransfer = z.object({
  type: z.literal('transfer'),
  info: z.object({ source: z.string(), destination: z.string(), lamports: z.number() }),
})

const TokenTransfer = z.object({
  type: z.enum(['transfer', 'transferChecked']),
  info: z.object({
    source: z.string(),
    destination: z.string(),
    mint: z.string().optional(),
    amount: z.string().optional(),
    tokenAmount: z.object({ amount: z.string(), decimals: z.number() }).optional(),
  }),
})

const TOKEN_PROGRAMS = new Set(['spl-token', 'spl-token-2022'])

/** Programs whose assets live in no token account: Bubblegum (compressed NFTs), Metaplex Core. */
const ACCOUNTLESS_ASSET_PROGRAMS = new Set([
  'BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY',
  'CoREENxT6tW1HoK8ypY1SxRMZTcVPm7R94rH4PZNhX7d',
])

/**
 * Works out what `tx` did to `wallet`.
 *
 * @example
 * const view = walletView(wallet, tx, new Map([[NATIVE_SOL_MINT, 'SOL']]))
 * if (view.ok) view.transfers // [{ direction: 'out', counterparty: '9WzD…', amountRaw: '500000000', … }]
 */
export function walletView(
  wallet: string,
  tx: ConfirmedTransaction,
  symbols: ReadonlyMap<string, string>,
): TransactionView {
  const meta = tx.meta
  const signature = tx.transaction.signatures[0] as string
  if (meta === null) return { ok: false, why: 'the transaction has no status' }
  if (meta.err !== null) return { ok: false, why: 'a failed transaction' }
  if (tx.blockTime === null) return { ok: false, why: 'the transaction has no block time' }
  const keys = tx.transaction.message.accountKeys.map((k) => k.pubkey)
  const feePayer = keys[0] as string

  // Token accounts: who owns them, which mint, and what they held before and after.
  const tokens = new Map<
    number,
    { mint: string; owner?: string; decimals: number; pre: bigint; post: bigint }
  >()
  for (const [side, list] of [
    ['post', meta.postTokenBalances ?? []],
    ['pre', meta.preTokenBalances ?? []],
  ] as const) {
    for (const b of list) {
      const t = tokens.get(b.accountIndex) ?? {
        mint: b.mint,
        ...(b.owner === undefined ? {} : { owner: b.owner }),
        decimals: b.uiTokenAmount.decimals,
        pre: 0n,
        post: 0n,
      }
      t[side] = BigInt(b.uiTokenAmount.amount)
      tokens.set(b.accountIndex, t)
    }
  }
  if ([...tokens.values()].some((t) => t.owner === undefined))
    return { ok: false, why: 'a token balance names no owner' }

  const deltas = new Map<string, { raw: bigint; decimals: number }>()
  const walletIndex = keys.indexOf(wallet)
  if (walletIndex !== -1) {
    const lamports =
      BigInt(meta.postBalances[walletIndex] ?? 0) - BigInt(meta.preBalances[walletIndex] ?? 0)
    if (lamports !== 0n) deltas.set(NATIVE_SOL_MINT, { raw: lamports, decimals: 9 })
  }
  // In the order the accounts come, whichever side names them (an account the transaction
  // closed has a balance only before it).
  for (const [, t] of [...tokens].sort(([a], [b]) => a - b)) {
    if (t.owner !== wallet) continue
    const sum = deltas.get(t.mint) ?? { raw: 0n, decimals: t.decimals }
    sum.raw += t.post - t.pre
    deltas.set(t.mint, sum)
  }
  const ownerOf = new Map<string, { owner: string; mint: string; decimals: number }>()
  for (const [index, t] of tokens)
    ownerOf.set(keys[index] as string, {
      owner: t.owner as string,
      mint: t.mint,
      decimals: t.decimals,
    })
  const legs: Leg[] = []
  let movesAccountlessAssets = false
  for (const instruction of executionOrder(tx)) {
    if (ACCOUNTLESS_ASSET_PROGRAMS.has(instruction.programId)) movesAccountlessAssets = true
    if (!('parsed' in instruction)) continue
    const leg =
      instruction.program === 'system'
        ? solLeg(wallet, instruction.parsed)
        : TOKEN_PROGRAMS.has(instruction.program)
          ? tokenLeg(wallet, instruction.parsed, ownerOf)
          : null
    if (typeof leg === 'string') return { ok: false, why: leg }
    if (leg !== null) legs.push(leg)
  }

  return viewOf(
    wallet,
    {
      signature,
      slot: tx.slot,
      timestamp: tx.blockTime,
      feeLamports: BigInt(meta.fee),
      feePayer,
      deltas,
      legs,
      movesAccountlessAssets,
    },
    symbols,
  )
}

/**
 * Works out what a delivered enhanced transaction did to `wallet`: the same view as
 * walletView gives from a read, from the delivery's own account data and transfers
 * (a token transfer's raw amount from its decimal amount and the mint's decimals, which
 * the balance check then proves exact).
 */
export function deliveredView(
  wallet: string,
  event: EnhancedTransaction,
  symbols: ReadonlyMap<string, string>,
): TransactionView {
  if (event.transactionError !== null) return { ok: false, why: 'a failed transaction' }
  const deltas = new Map<string, Delta>()
  const decimalsOf = new Map<string, number>()
  for (const a of event.accountData) {
    if (a.account === wallet && a.nativeBalanceChange !== 0)
      deltas.set(NATIVE_SOL_MINT, { raw: BigInt(a.nativeBalanceChange), decimals: 9 })
    for (const c of a.tokenBalanceChanges) {
      decimalsOf.set(c.mint, c.rawTokenAmount.decimals)
      if (c.userAccount !== wallet) continue
      const sum = deltas.get(c.mint) ?? { raw: 0n, decimals: c.rawTokenAmount.decimals }
      sum.raw += BigInt(c.rawTokenAmount.tokenAmount)
      deltas.set(c.mint, sum)
    }
  }
  const legs: Leg[] = []
  for (const t of event.nativeTransfers) {
    const leg = solLeg(wallet, {
      type: 'transfer',
      info: { source: t.fromUserAccount, destination: t.toUserAccount, lamports: t.amount },
    })
    if (leg !== null) legs.push(leg)
  }
  for (const t of event.tokenTransfers) {
    const isOut = t.fromUserAccount === wallet
    if (isOut === (t.toUserAccount === wallet)) continue
    const counterparty = isOut ? t.toUserAccount : t.fromUserAccount
    const decimals = decimalsOf.get(t.mint)
    const raw =
      decimals === undefined ? null : rawFromDecimalText(decimalText(t.tokenAmount), decimals)
    if (counterparty === '' || raw === null)
      return { ok: false, why: 'a token transfer the delivery does not fully name' }
    legs.push({
      mint: t.mint,
      raw: BigInt(raw),
      decimals: decimals as number,
      direction: isOut ? 'out' : 'in',
      counterparty,
    })
  }
  const programs = event.instructions?.flatMap((i) => [
    i.programId,
    ...(i.innerInstructions ?? []).map((inner) => inner.programId),
  ])
  return viewOf(
    wallet,
    {
      signature: event.signature,
      slot: event.slot,
      timestamp: event.timestamp,
      feeLamports: BigInt(event.fee),
      feePayer: event.feePayer,
      deltas,
      legs,
      movesAccountlessAssets:
        programs === undefined || programs.some((p) => ACCOUNTLESS_ASSET_PROGRAMS.has(p)),
    },
    symbols,
  )
}

/**
 * The history entry and transfers of a movement, once its legs are checked against its
 * balance changes.
 */
function viewOf(
  wallet: string,
  m: Movement,
  symbols: ReadonlyMap<string, string>,
): TransactionView {
  const { legs, deltas, signature } = m
  const balanceChanges: BalanceChange[] = []
  for (const [mint, d] of deltas) {
    if (d.raw !== 0n)
      balanceChanges.push({ mint, amount: amountOf(d.raw, d.decimals), decimals: d.decimals })
  }

  // The legs must account for every balance change; the fee the wallet paid is no leg.
  const net = new Map<string, bigint>()
  for (const leg of legs)
    net.set(leg.mint, (net.get(leg.mint) ?? 0n) + (leg.direction === 'in' ? leg.raw : -leg.raw))
  const fee = m.feePayer === wallet ? m.feeLamports : 0n
  for (const mint of new Set([...net.keys(), ...deltas.keys()])) {
    const change = (deltas.get(mint)?.raw ?? 0n) + (mint === NATIVE_SOL_MINT ? fee : 0n)
    if ((net.get(mint) ?? 0n) !== change)
      return { ok: false, why: 'its transfers do not add up to the balance changes' }
  }

  const transfers: TransferEntry[] = []
  for (const leg of legs) {
    // The transfers endpoint lists an NFT without a symbol; one the mirror has named (DAS
    // gives collections symbols) could be listed either way, so the endpoint answers.
    const isNft = leg.decimals === 0 && leg.raw === 1n
    const symbol = symbols.get(leg.mint) ?? (isNft ? null : undefined)
    if (symbol === undefined) return { ok: false, why: `the mirror has no symbol for ${leg.mint}` }
    if (isNft && symbol !== null) return { ok: false, why: 'a named NFT moved' }
    transfers.push({
      signature,
      timestamp: m.timestamp,
      direction: leg.direction,
      counterparty: leg.counterparty,
      mint: leg.mint,
      amount: amountOf(leg.raw, leg.decimals),
      amountRaw: leg.raw.toString(),
      decimals: leg.decimals,
      symbol,
    })
  }
  // Held to the endpoints' own schemas, as what they answer is: what they would refuse is
  // not written either.
  const entry = HistoryEntry.safeParse({
    signature,
    slot: m.slot,
    timestamp: m.timestamp,
    fee: amountOf(m.feeLamports, 9),
    feePayer: m.feePayer,
    balanceChanges,
    error: null,
  })
  const rows = TransferEntry.array().safeParse(transfers)
  if (!entry.success || !rows.success)
    return { ok: false, why: 'it makes an entry the endpoints’ schemas refuse' }
  return {
    ok: true,
    entry: entry.data,
    transfers: rows.data,
    movesAccountlessAssets: m.movesAccountlessAssets,
    deltas,
  }
}

/** A system transfer to or from the wallet, or null when it is someone else's. */
function solLeg(wallet: string, parsed: unknown): Leg | null {
  const transfer = SystemTransfer.safeParse(parsed)
  if (!transfer.success) return null
  const { source, destination, lamports } = transfer.data.info
  if ((source === wallet) === (destination === wallet)) return null
  const isOut = source === wallet
  return {
    mint: NATIVE_SOL_MINT,
    raw: BigInt(lamports),
    decimals: 9,
    direction: isOut ? 'out' : 'in',
    counterparty: isOut ? destination : source,
  }
}

/** A token transfer between the wallet's account and someone else's; a string says why not. */
function tokenLeg(
  wallet: string,
  parsed: unknown,
  ownerOf: ReadonlyMap<string, { owner: string; mint: string; decimals: number }>,
): Leg | string | null {
  const transfer = TokenTransfer.safeParse(parsed)
  if (!transfer.success) return null
  const { source, destination, mint, amount, tokenAmount } = transfer.data.info
  const from = ownerOf.get(source)
  const to = ownerOf.get(destination)
  const isOut = from?.owner === wallet
  const isIn = to?.owner === wallet
  if (isOut === isIn) return null
  const other = isOut ? to : from
  if (other === undefined) return 'a token transfer whose other side has no known owner'
  const raw = tokenAmount?.amount ?? amount
  if (raw === undefined) return 'a token transfer without an amount'
  return {
    mint: mint ?? other.mint,
    raw: BigInt(raw),
    decimals: tokenAmount?.decimals ?? other.decimals,
    direction: isOut ? 'out' : 'in',
    counterparty: other.owner,
  }
}

/** A raw amount as the service's decimal number (through exact text, as the service rounds). */
function amountOf(raw: bigint, decimals: number): number {
  return Number(decimalFromRaw(raw.toString(), decimals))
}
