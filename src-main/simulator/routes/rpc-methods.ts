import type { z } from 'zod'
import type {
  GetPriorityFeeEstimateParams,
  GetPriorityFeeEstimateResult,
  PriorityLevel,
} from '@shared/api/priority-fee'
import type { GetSignaturesForAddressParams, SignatureInfo } from '@shared/api/rpc'
import type { GetTransactionParams, GetTransactionResult } from '@shared/api/rpc-transaction'
import { parsedTransaction } from '../chain/parsed-transactions'
import { hash32 } from '../chain/prng'
import type { SimChain, SimWallet, TxView } from '../chain/sim-chain'
import { signatureInfo } from '../chain/views'
import type { HandlerContext } from './handler-context'
import { SCAN_BUDGET } from './handler-context'
import { invalidParams } from './http-io'

// Standard Solana RPC getSignaturesForAddress (newest first, `before`/`until` exclusive,
// limit 1–1000 default 1000) and getPriorityFeeEstimate
// (docs/service.md, Standard Solana RPC and Priority fees).

/** Which transactions of which wallet an address appears in. */
function addressFilter(
  chain: SimChain,
  address: string,
): { wallet: SimWallet; includes: (tx: TxView) => boolean } | null {
  const wallet = chain.walletByAddress(address)
  // The wallet's own signatures: transactions naming the wallet (not token-account-only receipts).
  if (wallet) return { wallet, includes: (tx) => tx.directRef }
  const account = chain.tokenAccountOwner(address)
  if (!account) return null
  if ('mint' in account)
    return {
      wallet: account.wallet,
      includes: (tx) => tx.changes.some((c) => c.mint === account.mint),
    }
  return { wallet: account.wallet, includes: (tx) => tx.index === account.nftIndex }
}

export function getSignaturesForAddress(
  p: z.output<typeof GetSignaturesForAddressParams>,
  ctx: HandlerContext,
): SignatureInfo[] {
  const { chain } = ctx
  const [address, config] = p
  const limit = config?.limit ?? 1000
  const target = addressFilter(chain, address)
  const position = (signature: string, name: string): number => {
    const index = target ? chain.indexOfSignature(target.wallet, signature) : null
    if (index === null) throw invalidParams(`${name}: not a signature of this address`)
    return index
  }
  const start =
    config?.before !== undefined
      ? position(config.before, 'before') - 1
      : target
        ? chain.txCount(target.wallet) - 1
        : -1
  const stop = config?.until !== undefined ? position(config.until, 'until') : -1
  if (!target) return []
  const out: SignatureInfo[] = []
  for (
    let i = start, scanned = 0;
    i > stop && out.length < limit && scanned < SCAN_BUDGET * 5;
    i--, scanned++
  ) {
    const tx = chain.tx(target.wallet, i)
    if (target.includes(tx)) out.push(signatureInfo(tx))
  }
  return out
}

/** Standard Solana RPC getTransaction (jsonParsed): null for a signature the chain does not hold. */
export function getTransaction(
  p: z.output<typeof GetTransactionParams>,
  ctx: HandlerContext,
): GetTransactionResult {
  const tx = ctx.chain.txBySignature(p[0])
  const wallet = tx ? ctx.chain.walletById(tx.walletId) : undefined
  return tx && wallet ? parsedTransaction(ctx.chain, wallet, tx) : null
}

const LEVEL_KEYS = {
  Min: 'min',
  Low: 'low',
  Medium: 'medium',
  High: 'high',
  VeryHigh: 'veryHigh',
  UnsafeMax: 'unsafeMax',
} as const

export function getPriorityFeeEstimate(
  p: z.output<typeof GetPriorityFeeEstimateParams>,
  ctx: HandlerContext,
): GetPriorityFeeEstimateResult {
  const [request] = p
  const { chain } = ctx
  if (request.transaction !== undefined && request.transaction.length < 8)
    throw invalidParams('transaction: too short to be a serialized transaction')
  // Fees wander with the slot (per 150-slot lookback window); levels are the 0/25/50/75/95/100th percentiles.
  const window = Math.floor(chain.currentSlot() / (request.options?.lookbackSlots ?? 150))
  const base = 1_000 + (hash32(chain.seed, 0xfee, window) % 50_000)
  const levels = {
    min: 0,
    low: Math.round(base * 0.4),
    medium: base,
    high: Math.round(base * 2.5),
    veryHigh: Math.round(base * 8),
    unsafeMax: Math.round(base * 40),
  }
  const level: PriorityLevel = request.options?.priorityLevel ?? 'Medium'
  const estimate = request.options?.recommended
    ? Math.max(levels.medium, 10_000)
    : levels[LEVEL_KEYS[level]]
  return {
    priorityFeeEstimate: estimate,
    ...(request.options?.includeAllPriorityFeeLevels ? { priorityFeeLevels: levels } : {}),
  }
}
