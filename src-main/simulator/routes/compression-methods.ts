import bs58 from 'bs58'
import type { z } from 'zod'
import type {
  GetCompressedAccountParams,
  GetCompressedAccountResult,
  GetCompressedAccountsByOwnerParams,
  GetCompressedAccountsByOwnerResult,
  GetCompressedBalanceByOwnerParams,
  GetCompressedBalanceByOwnerResult,
  GetCompressedTokenBalancesByOwnerV2Params,
  GetCompressedTokenBalancesByOwnerV2Result,
  GetCompressionSignaturesParams,
  GetCompressionSignaturesResult,
  GetMultipleCompressedAccountsParams,
  GetMultipleCompressedAccountsResult,
  GetTransactionWithCompressionInfoParams,
  GetTransactionWithCompressionInfoResult,
  GetValidityProofParams,
  GetValidityProofResult,
} from '@shared/api/compression'
import { COMPRESSION_MAX_LIMIT } from '@shared/api/compression'
import { encodeEntity } from '../chain/entity-ids'
import { hash32 } from '../chain/prng'
import type { SimChain, SimWallet, TxView } from '../chain/sim-chain'
import { compressedAccount, type SimCompressedAccount } from '../chain/views'
import type { HandlerContext } from './handler-context'
import { invalidParams, notFound } from './http-io'

// Compression JSON-RPC (docs/service.md, Compression). Each compression
// transaction of a wallet opens one compressed account: lamports owned by the wallet, or a
// token account whose token owner is the wallet. Cursors are null when fewer than `limit`
// items come back.

function context(chain: SimChain) {
  return { slot: chain.currentSlot() }
}

function compressionTxs(chain: SimChain, wallet: SimWallet | undefined): TxView[] {
  if (!wallet) return []
  return chain.collectibles(wallet).compressed.map((i) => chain.tx(wallet, i))
}

function ownerAccounts(chain: SimChain, wallet: SimWallet | undefined) {
  return compressionTxs(chain, wallet).map((tx) =>
    compressedAccount(chain, wallet as SimWallet, tx),
  )
}

function matchesFilters(
  account: SimCompressedAccount,
  filters: z.output<typeof GetCompressedAccountsByOwnerParams>['filters'],
): boolean {
  if (!filters) return true
  const data = Buffer.from(account.data.data, 'base64')
  return filters.every(({ memcmp }) => {
    let wanted: Uint8Array
    try {
      wanted = bs58.decode(memcmp.bytes)
    } catch {
      throw invalidParams('filters.memcmp.bytes: expected base58 bytes')
    }
    return wanted.every((byte, i) => data[memcmp.offset + i] === byte)
  })
}

export function getCompressedAccountsByOwner(
  p: z.output<typeof GetCompressedAccountsByOwnerParams>,
  ctx: HandlerContext,
): GetCompressedAccountsByOwnerResult {
  const { chain } = ctx
  const limit = p.limit ?? COMPRESSION_MAX_LIMIT
  const owned = ownerAccounts(chain, chain.walletByAddress(p.owner))
    .filter((a) => a.tokenData === null)
    .map((a) => a.account)
    .filter((a) => matchesFilters(a, p.filters))
    // Ascending by hash; cursor = last hash.
    .sort((a, b) => (a.hash < b.hash ? -1 : 1))
  const after = p.cursor ?? undefined
  const items = owned.filter((a) => after === undefined || a.hash > after).slice(0, limit)
  const sliced = p.dataSlice
    ? items.map((a) => ({
        ...a,
        data: {
          ...a.data,
          data: Buffer.from(a.data.data, 'base64')
            .subarray(p.dataSlice?.offset, (p.dataSlice?.offset ?? 0) + (p.dataSlice?.length ?? 0))
            .toString('base64'),
        },
      }))
    : items
  return {
    context: context(chain),
    value: {
      items: sliced,
      cursor: items.length < limit ? null : (items[items.length - 1]?.hash ?? null),
    },
  }
}

export function getCompressedTokenBalancesByOwnerV2(
  p: z.output<typeof GetCompressedTokenBalancesByOwnerV2Params>,
  ctx: HandlerContext,
): GetCompressedTokenBalancesByOwnerV2Result {
  const { chain } = ctx
  const limit = p.limit ?? COMPRESSION_MAX_LIMIT
  const totals = new Map<string, bigint>()
  for (const { tokenData } of ownerAccounts(chain, chain.walletByAddress(p.owner))) {
    if (!tokenData) continue
    totals.set(tokenData.mint, (totals.get(tokenData.mint) ?? 0n) + BigInt(tokenData.amount))
  }
  const after = p.cursor ?? undefined
  // Sorted by mint; cursor = mint.
  const items = [...totals]
    .filter(
      ([mint]) => (p.mint == null || mint === p.mint) && (after === undefined || mint > after),
    )
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .slice(0, limit)
    .map(([mint, balance]) => ({ mint, balance: Number(balance) }))
  return {
    context: context(chain),
    value: { items, cursor: items.length < limit ? null : (items[items.length - 1]?.mint ?? null) },
  }
}

export function getCompressedBalanceByOwner(
  p: z.output<typeof GetCompressedBalanceByOwnerParams>,
  ctx: HandlerContext,
): GetCompressedBalanceByOwnerResult {
  const { chain } = ctx
  const total = ownerAccounts(chain, chain.walletByAddress(p.owner))
    .filter((a) => a.account.owner === p.owner)
    .reduce((sum, a) => sum + a.account.lamports, 0)
  return { context: context(chain), value: total }
}

function lookupAccount(
  chain: SimChain,
  text: string,
  by: 'hash' | 'address',
): SimCompressedAccount | null {
  const origin = chain.compressedOrigin(text, by)
  return origin ? compressedAccount(chain, origin.wallet, origin.tx).account : null
}

export function getCompressedAccount(
  p: z.output<typeof GetCompressedAccountParams>,
  ctx: HandlerContext,
): GetCompressedAccountResult {
  const value =
    p.hash != null
      ? lookupAccount(ctx.chain, p.hash, 'hash')
      : lookupAccount(ctx.chain, p.address ?? '', 'address')
  return { context: context(ctx.chain), value }
}

export function getMultipleCompressedAccounts(
  p: z.output<typeof GetMultipleCompressedAccountsParams>,
  ctx: HandlerContext,
): GetMultipleCompressedAccountsResult {
  const items =
    p.hashes != null
      ? p.hashes.map((h) => lookupAccount(ctx.chain, h, 'hash'))
      : (p.addresses ?? []).map((a) => lookupAccount(ctx.chain, a, 'address'))
  return { context: context(ctx.chain), value: { items } }
}

function signatureListing(
  chain: SimChain,
  p: z.output<typeof GetCompressionSignaturesParams>,
  tokenOnly: boolean,
): GetCompressionSignaturesResult {
  const wallet = chain.walletByAddress(p.owner)
  const limit = p.limit ?? COMPRESSION_MAX_LIMIT
  // Newest first: slot desc; slots strictly increase with the index, so index desc.
  const txs = compressionTxs(chain, wallet)
    .filter((tx) => !tokenOnly || (tx.compressed?.tokenMint ?? null) !== null)
    .reverse()
  let start = 0
  if (p.cursor != null) {
    const index = wallet ? chain.indexOfSignature(wallet, p.cursor) : null
    if (index === null) throw invalidParams('cursor: not a signature of this owner')
    start = txs.findIndex((tx) => tx.index < index)
    if (start < 0) start = txs.length
  }
  const items = txs
    .slice(start, start + limit)
    .map((tx) => ({ signature: tx.signature, slot: tx.slot, blockTime: tx.timestamp }))
  return {
    context: context(chain),
    value: {
      items,
      cursor: items.length < limit ? null : (items[items.length - 1]?.signature ?? null),
    },
  }
}

export function getCompressionSignaturesForOwner(
  p: z.output<typeof GetCompressionSignaturesParams>,
  ctx: HandlerContext,
): GetCompressionSignaturesResult {
  return signatureListing(ctx.chain, p, false)
}

export function getCompressionSignaturesForTokenOwner(
  p: z.output<typeof GetCompressionSignaturesParams>,
  ctx: HandlerContext,
): GetCompressionSignaturesResult {
  return signatureListing(ctx.chain, p, true)
}

export function getTransactionWithCompressionInfo(
  p: z.output<typeof GetTransactionWithCompressionInfoParams>,
  ctx: HandlerContext,
): GetTransactionWithCompressionInfoResult {
  const { chain } = ctx
  const tx = chain.txBySignature(p.signature)
  if (!tx) throw notFound(`transaction ${p.signature} not found`)
  const wallet = chain.walletById(tx.walletId) as SimWallet
  const opened = tx.compressed ? [compressedAccount(chain, wallet, tx)] : []
  return {
    compression_info: {
      closedAccounts: [],
      openedAccounts: opened.map((a) => ({ account: a.account, optionalTokenData: a.tokenData })),
    },
    transaction: {
      slot: tx.slot,
      blockTime: tx.timestamp,
      meta: {
        fee: Number(tx.feeLamports),
        err: tx.error
          ? { InstructionError: [tx.error.instruction, { Custom: tx.error.code }] }
          : null,
      },
      transaction: { signatures: [tx.signature] },
    },
  }
}

export function getValidityProof(
  p: z.output<typeof GetValidityProofParams>,
  ctx: HandlerContext,
): GetValidityProofResult {
  const { chain } = ctx
  const hashes = p.hashes ?? []
  const accounts = hashes.map((h, i) => {
    const account = lookupAccount(chain, h, 'hash')
    if (!account) throw invalidParams(`hashes.${i}: no compressed account with hash ${h}`)
    return account
  })
  const fresh = p.newAddressesWithTrees ?? []
  const proofPart = (n: number) =>
    Buffer.from(
      Array.from({ length: 32 }, (_, i) => hash32(chain.seed, 0x9f, n, i, hashes.length) & 0xff),
    ).toString('base64')
  return {
    context: context(chain),
    value: {
      compressedProof: { a: proofPart(1), b: proofPart(2), c: proofPart(3) },
      leafIndices: [...accounts.map((a) => a.leafIndex), ...fresh.map(() => 0)],
      leaves: [...accounts.map((a) => a.hash), ...fresh.map((f) => f.address)],
      merkleTrees: [...accounts.map((a) => a.tree), ...fresh.map((f) => f.tree)],
      rootIndices: [...accounts.map((a) => a.seq % 2400), ...fresh.map(() => 0)],
      roots: [
        ...accounts.map((a) => encodeEntity(chain.seed, 'root', 0, a.seq)),
        ...fresh.map((_, i) => encodeEntity(chain.seed, 'root', 1, i)),
      ],
    },
  }
}
