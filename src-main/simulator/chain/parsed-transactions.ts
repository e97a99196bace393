import bs58 from 'bs58'
import type {
  ConfirmedTransaction,
  TransactionInstruction,
  TransactionTokenBalance,
} from '@shared/api/rpc-transaction'
import { SYSTEM_PROGRAM_ID } from '@shared/api/rpc'
import { TOKEN_ACCOUNT_RENT_LAMPORTS, tokenProgramId } from './accounts'
import { counterpartyAddress } from './counterparties'
import { encodeEntity } from './entity-ids'
import type { MintInfo } from './mints'
import { formatRawAmount, SOL_MINT_INDEX } from './mints'
import type { SimChain, SimWallet, TxView } from './sim-chain'

// A transaction as Solana RPC getTransaction returns it in the jsonParsed encoding, built
// from the same changes and legs as the history and transfers answers, so the three agree:
// - every leg is a parsed transfer: a system `transfer` for SOL, an spl-token
//   `transferChecked` between the two owners' token accounts for tokens and NFTs; swaps and
//   compressions move their legs as inner instructions of the pool's program;
// - lamports and token balances before and after are the wallet's running balances; a
//   token account the transaction opened has no balance before it, and one it emptied
//   (and so closed) none after it (as on Solana);
// - a compressed NFT's mint is a Bubblegum instruction the node does not parse, and a
//   failed transaction keeps only its error and the fee.

const MEMO_PROGRAM_ID = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'
const BUBBLEGUM_PROGRAM_ID = 'BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY'
const LIGHT_SYSTEM_PROGRAM_ID = 'SySTEM1eSU2p4BGQfQpimFEWWSC1XDFeun3Nqzz3rT7'
const SWAP_PROGRAM_ID = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4'
/** What a program account holds (executable accounts keep their lamports). */
const PROGRAM_LAMPORTS = 1_141_440
/** Lamports of a counterparty before the transaction: plenty, so it can pay and send. */
const COUNTERPARTY_LAMPORTS = 10n ** 14n

/** Keys in order, with lamports before and after, and which signed or were written. */
class KeyTable {
  readonly keys: {
    pubkey: string
    signer: boolean
    writable: boolean
    pre: bigint
    post: bigint
  }[] = []

  index(pubkey: string, pre: bigint, flags: { signer?: boolean; writable?: boolean } = {}): number {
    let i = this.keys.findIndex((k) => k.pubkey === pubkey)
    if (i === -1) {
      i = this.keys.push({ pubkey, signer: false, writable: false, pre, post: pre }) - 1
    }
    const key = this.keys[i] as KeyTable['keys'][number]
    key.signer ||= flags.signer === true
    key.writable ||= flags.writable === true
    return i
  }

  move(pubkey: string, lamports: bigint): void {
    const key = this.keys.find((k) => k.pubkey === pubkey)
    if (key) key.post += lamports
  }
}

function tokenAmount(raw: bigint, decimals: number) {
  const text = formatRawAmount(raw, decimals)
  return { amount: raw.toString(), decimals, uiAmount: Number(text), uiAmountString: text }
}

/** What the steps below share while one transaction is built. */
interface Build {
  chain: SimChain
  wallet: SimWallet
  tx: TxView
  keys: KeyTable
  /** The wallet's raw balances before the transaction, by mint index. */
  before: bigint[]
  walletLamports: bigint
  pre: TransactionTokenBalance[]
  post: TransactionTokenBalance[]
}

/** The transaction `tx` of `wallet` as getTransaction (jsonParsed) returns it. */
export function parsedTransaction(
  chain: SimChain,
  wallet: SimWallet,
  tx: TxView,
): ConfirmedTransaction {
  const before = chain.balancesAfter(wallet, tx.index)
  const b: Build = {
    ...{ chain, wallet, tx, keys: new KeyTable(), before },
    ...{ walletLamports: before[SOL_MINT_INDEX] ?? 0n, pre: [], post: [] },
  }
  const payer = tx.feePayer < 0 ? wallet.address : counterpartyAddress(chain.seed, tx.feePayer)
  b.keys.index(payer, payer === wallet.address ? b.walletLamports : COUNTERPARTY_LAMPORTS, {
    signer: true,
    writable: true,
  })
  if (tx.directRef) b.keys.index(wallet.address, b.walletLamports, { writable: true })
  b.keys.move(payer, -tx.feeLamports)
  recordChanges(b)
  const { instructions, inner } = arrange(
    b,
    payer,
    tx.legs.map((leg) => legTransfer(b, leg)),
  )
  return {
    slot: tx.slot,
    blockTime: tx.timestamp,
    meta: {
      err: tx.error
        ? { InstructionError: [tx.error.instruction, { Custom: tx.error.code }] }
        : null,
      fee: Number(tx.feeLamports),
      preBalances: b.keys.keys.map((k) => Number(k.pre)),
      postBalances: b.keys.keys.map((k) => Number(k.post)),
      preTokenBalances: b.pre,
      postTokenBalances: b.post,
      innerInstructions: inner,
      logMessages: [],
    },
    transaction: {
      signatures: [tx.signature],
      message: {
        accountKeys: b.keys.keys.map((k) => ({
          pubkey: k.pubkey,
          signer: k.signer,
          writable: k.writable,
          source: 'transaction' as const,
        })),
        instructions,
        recentBlockhash: encodeEntity(chain.seed, 'blockhash', 0, tx.slot % 0xffff_ffff),
      },
    },
    version: 0,
  }
}

function tokenBalance(
  accountIndex: number,
  mint: { address: string; programId: string; decimals: number },
  owner: string,
  raw: bigint,
): TransactionTokenBalance {
  return {
    accountIndex,
    mint: mint.address,
    owner,
    programId: mint.programId,
    uiTokenAmount: tokenAmount(raw, mint.decimals),
  }
}

/** Address, decimals and token program of a change's or leg's mint (NFTs: the asset id). */
function mintOf(chain: SimChain, mint: number, assetId: string | undefined) {
  if (mint < 0)
    return { address: assetId ?? '', decimals: 0, programId: tokenProgramId('spl-token') }
  const info = chain.mints[mint] as MintInfo
  return {
    address: info.address,
    decimals: info.decimals,
    programId: tokenProgramId(info.tokenProgram),
  }
}

/** The wallet's token account of a change: its fungible account, or the NFT's own. */
function walletTokenAccount(b: Build, mint: number): string {
  return mint >= 0
    ? b.chain.tokenAccountAddress(b.wallet, mint)
    : b.chain.nftTokenAccountAddress(b.wallet, b.tx.index)
}

/** The wallet's balances before and after: SOL on its key, tokens on its token accounts. */
function recordChanges(b: Build): void {
  const { tx, wallet, keys } = b
  for (const change of tx.changes) {
    if (change.mint === SOL_MINT_INDEX) {
      // The fee was taken already when the wallet paid it; the change includes it.
      keys.move(wallet.address, tx.feePayer < 0 ? change.raw + tx.feeLamports : change.raw)
      continue
    }
    const m = mintOf(b.chain, change.mint, change.assetId)
    const had = change.mint >= 0 ? (b.before[change.mint] ?? 0n) : change.raw > 0n ? 0n : 1n
    const i = keys.index(walletTokenAccount(b, change.mint), BigInt(TOKEN_ACCOUNT_RENT_LAMPORTS), {
      writable: true,
    })
    if (had > 0n) b.pre.push(tokenBalance(i, m, wallet.address, had))
    // An emptied fungible account is closed by its owner in the same transaction, so it has
    // no balance after it (as on Solana for a closed account).
    const left = had + change.raw
    if (left > 0n || change.mint < 0) b.post.push(tokenBalance(i, m, wallet.address, left))
  }
}

/** One leg as a parsed transfer between the wallet and its counterparty. */
function legTransfer(b: Build, leg: TxView['legs'][number]): TransactionInstruction {
  const { keys, wallet } = b
  const other = counterpartyAddress(b.chain.seed, leg.counterparty)
  const isOut = leg.direction === 'out'
  if (leg.mint === SOL_MINT_INDEX) {
    keys.index(other, COUNTERPARTY_LAMPORTS, { writable: true, signer: !isOut })
    keys.index(wallet.address, b.walletLamports, { writable: true, signer: isOut })
    keys.move(other, isOut ? leg.raw : -leg.raw)
    return {
      program: 'system',
      programId: SYSTEM_PROGRAM_ID,
      parsed: {
        type: 'transfer',
        info: {
          source: isOut ? wallet.address : other,
          destination: isOut ? other : wallet.address,
          lamports: Number(leg.raw),
        },
      },
      stackHeight: null,
    }
  }
  const m = mintOf(b.chain, leg.mint, leg.assetId)
  const mine = walletTokenAccount(b, leg.mint)
  const theirs = encodeEntity(
    b.chain.seed,
    'counterpartyTokenAccount',
    leg.counterparty,
    leg.mint >= 0 ? leg.mint : 0x4000_0000 + (b.tx.index % 0x3fff_ffff),
  )
  const i = keys.index(theirs, BigInt(TOKEN_ACCOUNT_RENT_LAMPORTS), { writable: true })
  // The sender's account held what it sent; the receiver's is opened by the transfer.
  if (isOut) {
    keys.index(wallet.address, b.walletLamports, { signer: true })
    b.post.push(tokenBalance(i, m, other, leg.raw))
  } else {
    keys.index(other, COUNTERPARTY_LAMPORTS, { signer: true })
    b.pre.push(tokenBalance(i, m, other, leg.raw))
    b.post.push(tokenBalance(i, m, other, 0n))
  }
  return {
    program: m.programId === tokenProgramId('token-2022') ? 'spl-token-2022' : 'spl-token',
    programId: m.programId,
    parsed: {
      type: 'transferChecked',
      info: {
        source: isOut ? mine : theirs,
        destination: isOut ? theirs : mine,
        authority: isOut ? wallet.address : other,
        mint: m.address,
        tokenAmount: tokenAmount(leg.raw, m.decimals),
      },
    },
    stackHeight: null,
  }
}

/**
 * The instructions around the transfers: a memo, a compressed NFT's mint, and the pool's
 * program that runs a swap's or a compression's transfers as inner instructions.
 */
function arrange(
  b: Build,
  payer: string,
  moves: TransactionInstruction[],
): {
  instructions: TransactionInstruction[]
  inner: { index: number; instructions: TransactionInstruction[] }[]
} {
  const { tx, keys, wallet } = b
  const instructions: TransactionInstruction[] = []
  const inner: { index: number; instructions: TransactionInstruction[] }[] = []
  const rawInstruction = (programId: string, accounts: string[]): TransactionInstruction => {
    keys.index(programId, BigInt(PROGRAM_LAMPORTS))
    return {
      programId,
      accounts,
      data: bs58.encode(Buffer.from(`${tx.kind}:${tx.index}`)),
      stackHeight: null,
    }
  }
  if (tx.memo !== undefined) {
    keys.index(MEMO_PROGRAM_ID, BigInt(PROGRAM_LAMPORTS))
    instructions.push({
      program: 'spl-memo',
      programId: MEMO_PROGRAM_ID,
      parsed: tx.memo,
      stackHeight: null,
    })
  }
  if (tx.collectible?.kind === 'cnft')
    instructions.push(rawInstruction(BUBBLEGUM_PROGRAM_ID, [wallet.address]))
  const viaProgram =
    tx.kind === 'swap' || tx.kind === 'purchase'
      ? SWAP_PROGRAM_ID
      : tx.kind === 'compress'
        ? LIGHT_SYSTEM_PROGRAM_ID
        : null
  if (viaProgram !== null && moves.length > 0) {
    inner.push({
      index: instructions.length,
      instructions: moves.map((m) => ({ ...m, stackHeight: 2 })),
    })
    instructions.push(rawInstruction(viaProgram, [wallet.address]))
  } else instructions.push(...moves)
  if (tx.error !== null && instructions.length === 0)
    instructions.push(rawInstruction(SWAP_PROGRAM_ID, [payer]))
  for (const programId of new Set(moves.map((m) => m.programId)))
    keys.index(programId, BigInt(PROGRAM_LAMPORTS))
  return { instructions, inner }
}
