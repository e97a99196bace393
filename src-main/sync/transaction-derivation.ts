import { z } from 'zod'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { TOKEN_2022_PROGRAM_ID } from '@shared/api/rpc'
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
 *   the fee the wallet paid and the rent it put into its own token accounts): some other
 *   instruction moved value, and a transfer row could be missing;
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
  /** Lamports the wallet put into its own token accounts as rent (negative: took back). */
  rentLamports: bigint
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
  /** Into the wallet under a Token-2022 mint, which may keep a transfer fee back from it. */
  feeKeptBack?: boolean
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

/** A token account set up inside the transaction: the owner is in the instruction itself. */
const AccountSetUp = z.union([
  z.object({
    type: z.enum(['initializeAccount', 'initializeAccount2', 'initializeAccount3']),
    info: z.object({ account: z.string(), mint: z.string(), owner: z.string() }),
  }),
  z
    .object({
      type: z.enum(['create', 'createIdempotent']),
      info: z.object({ account: z.string(), mint: z.string(), wallet: z.string() }),
    })
    .transform(({ type, info }) => ({
      type,
      info: { account: info.account, mint: info.mint, owner: info.wallet },
    })),
])

const TOKEN_PROGRAMS = new Set(['spl-token', 'spl-token-2022'])
const ACCOUNT_SETUP_PROGRAMS = new Set([...TOKEN_PROGRAMS, 'spl-associated-token-account'])

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
  const tokens = new Map<number, TokenBalances>()
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
  const ownerOf = tokenAccountsOf(tx, keys, tokens)
  const legs: Leg[] = []
  let movesAccountlessAssets = false
  for (const instruction of executionOrder(tx)) {
    if (ACCOUNTLESS_ASSET_PROGRAMS.has(instruction.programId)) movesAccountlessAssets = true
    if (!('parsed' in instruction)) continue
    const leg =
      instruction.program === 'system'
        ? solLeg(wallet, instruction.parsed, (a) => ownerOf.get(a)?.owner === wallet)
        : TOKEN_PROGRAMS.has(instruction.program)
          ? tokenLeg(wallet, instruction.programId, instruction.parsed, ownerOf)
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
      rentLamports: rentIntoOwnAccounts(wallet, tx, keys, tokens, ownerOf),
      deltas,
      legs,
      movesAccountlessAssets,
    },
    symbols,
  )
}

/** A token account's owner, mint and decimals, as the transaction tells them. */
interface TokenAccount {
  owner: string
  mint: string
  decimals: number
}

/** A token account's balances before and after, by account index. */
interface TokenBalances {
  mint: string
  owner?: string
  decimals: number
  pre: bigint
  post: bigint
}

/**
 * Every token account the transaction names, by address: from its token balances, and
 * the ones it set up itself — a wrapped-SOL account opened and closed inside the
 * transaction has no balance before or after, only the instruction that made it.
 */
function tokenAccountsOf(
  tx: ConfirmedTransaction,
  keys: readonly string[],
  tokens: ReadonlyMap<number, TokenBalances>,
): Map<string, TokenAccount> {
  const ownerOf = new Map<string, TokenAccount>()
  const decimalsOf = new Map<string, number>([[NATIVE_SOL_MINT, 9]])
  for (const [index, t] of tokens) {
    ownerOf.set(keys[index] as string, {
      owner: t.owner as string,
      mint: t.mint,
      decimals: t.decimals,
    })
    decimalsOf.set(t.mint, t.decimals)
  }
  for (const instruction of executionOrder(tx)) {
    if (!('parsed' in instruction) || !ACCOUNT_SETUP_PROGRAMS.has(instruction.program)) continue
    const setUp = AccountSetUp.safeParse(instruction.parsed)
    if (!setUp.success || ownerOf.has(setUp.data.info.account)) continue
    const { account, owner, mint } = setUp.data.info
    const decimals = decimalsOf.get(mint)
    // A mint whose decimals nothing in the transaction says cannot make a leg anyway.
    if (decimals !== undefined) ownerOf.set(account, { owner, mint, decimals })
  }
  return ownerOf
}

/**
 * Lamports the wallet moved into its own token accounts beyond what they hold as tokens:
 * the rent of an account it opened (negative when it closed one). Wrapped SOL is counted
 * with SOL already, so only the rest of a wrapped-SOL account's lamports is rent.
 */
function rentIntoOwnAccounts(
  wallet: string,
  tx: ConfirmedTransaction,
  keys: readonly string[],
  tokens: ReadonlyMap<number, TokenBalances>,
  ownerOf: ReadonlyMap<string, TokenAccount>,
): bigint {
  const meta = tx.meta
  if (meta === null) return 0n
  let rent = 0n
  keys.forEach((key, index) => {
    const account = ownerOf.get(key)
    if (account?.owner !== wallet) return
    const lamports = BigInt(meta.postBalances[index] ?? 0) - BigInt(meta.preBalances[index] ?? 0)
    const t = tokens.get(index)
    const wrapped = account.mint === NATIVE_SOL_MINT && t !== undefined ? t.post - t.pre : 0n
    rent += lamports - wrapped
  })
  return rent
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
  const { slot, timestamp, fee, feePayer, accountData } = event
  if (slot === null || timestamp === null || fee === null || feePayer === null)
    return { ok: false, why: 'the delivery does not say its slot, time, fee and fee payer' }
  if (accountData === null)
    return { ok: false, why: 'the delivery does not say every account’s balance changes' }
  const deltas = new Map<string, Delta>()
  const decimalsOf = new Map<string, number>()
  // The wallet's own token accounts: SOL moved into them is wrapped or rent, not sent.
  const own = new Set<string>()
  for (const t of event.tokenTransfers) {
    if (t.fromUserAccount === wallet && t.fromTokenAccount) own.add(t.fromTokenAccount)
    if (t.toUserAccount === wallet && t.toTokenAccount) own.add(t.toTokenAccount)
  }
  let rentLamports = 0n
  for (const a of accountData) {
    if (a.account === wallet && a.nativeBalanceChange !== 0)
      deltas.set(NATIVE_SOL_MINT, { raw: BigInt(a.nativeBalanceChange), decimals: 9 })
    let wrapped = 0n
    for (const c of a.tokenBalanceChanges) {
      decimalsOf.set(c.mint, c.rawTokenAmount.decimals)
      if (c.userAccount !== wallet) continue
      own.add(a.account)
      const raw = BigInt(c.rawTokenAmount.tokenAmount)
      if (c.mint === NATIVE_SOL_MINT) wrapped += raw
      const sum = deltas.get(c.mint) ?? { raw: 0n, decimals: c.rawTokenAmount.decimals }
      sum.raw += raw
      deltas.set(c.mint, sum)
    }
    if (own.has(a.account)) rentLamports += BigInt(a.nativeBalanceChange) - wrapped
  }
  const legs: Leg[] = []
  for (const t of event.nativeTransfers) {
    const leg = solLeg(
      wallet,
      {
        type: 'transfer',
        info: { source: t.fromUserAccount, destination: t.toUserAccount, lamports: t.amount },
      },
      (account) => own.has(account),
    )
    if (leg !== null) legs.push(leg)
  }
  for (const t of event.tokenTransfers) {
    const isOut = t.fromUserAccount === wallet
    if (isOut === (t.toUserAccount === wallet)) continue
    const counterparty = isOut ? t.toUserAccount : t.fromUserAccount
    const decimals = decimalsOf.get(t.mint)
    const amountText =
      typeof t.tokenAmount === 'number' ? decimalText(t.tokenAmount) : t.tokenAmount
    const raw = decimals === undefined ? null : rawFromDecimalText(amountText, decimals)
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
      slot,
      timestamp,
      feeLamports: BigInt(fee),
      feePayer,
      rentLamports,
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

  // The legs must account for every balance change; the fee the wallet paid and the rent
  // it put into its own accounts are no legs.
  const net = new Map<string, bigint>()
  for (const leg of legs)
    net.set(leg.mint, (net.get(leg.mint) ?? 0n) + (leg.direction === 'in' ? leg.raw : -leg.raw))
  const kept = (m.feePayer === wallet ? m.feeLamports : 0n) + m.rentLamports
  for (const mint of new Set([...net.keys(), ...deltas.keys()])) {
    const change = (deltas.get(mint)?.raw ?? 0n) + (mint === NATIVE_SOL_MINT ? kept : 0n)
    if ((net.get(mint) ?? 0n) !== change)
      return {
        ok: false,
        why:
          (net.get(mint) ?? 0n) > change && legs.some((l) => l.mint === mint && l.feeKeptBack)
            ? 'a token-2022 transfer kept back a fee the transaction does not show'
            : 'its transfers do not add up to the balance changes',
      }
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

/**
 * A system transfer to or from the wallet, or null when it is someone else's or goes
 * between the wallet and its own token account (wrapping SOL moves nothing away).
 */
function solLeg(
  wallet: string,
  parsed: unknown,
  isOwnTokenAccount: (account: string) => boolean,
): Leg | null {
  const transfer = SystemTransfer.safeParse(parsed)
  if (!transfer.success) return null
  const { source, destination, lamports } = transfer.data.info
  if ((source === wallet) === (destination === wallet)) return null
  const isOut = source === wallet
  if (isOwnTokenAccount(isOut ? destination : source)) return null
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
  programId: string,
  parsed: unknown,
  ownerOf: ReadonlyMap<string, TokenAccount>,
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
    ...(isIn && programId === TOKEN_2022_PROGRAM_ID ? { feeKeptBack: true } : {}),
  }
}

/** A raw amount as the service's decimal number (through exact text, as the service rounds). */
function amountOf(raw: bigint, decimals: number): number {
  return Number(decimalFromRaw(raw.toString(), decimals))
}
