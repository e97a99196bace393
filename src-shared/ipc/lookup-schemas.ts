import { z } from 'zod'
import { Base58Hash, Signature, WalletAddress } from '../api/base58'
import * as compression from '../api/compression'
import * as das from '../api/das'
import * as priorityFee from '../api/priority-fee'
import * as tokenMetadata from '../api/token-metadata'
import * as wallet from '../api/wallet-rest'

// The look-up desk (issue 15): any operation of the interface on demand, its cost shown
// before it runs, its answer kept in the mirror's look-up cache and reopened offline.
// Answers are the service's own validated shapes, so the page shows what the service said.

/** What a pasted text was recognised as. */
export const PastedKind = z.enum(['wallet', 'asset', 'signature', 'compressed-hash', 'unknown'])
export type PastedKind = z.infer<typeof PastedKind>

export const RecogniseInput = z.object({ text: z.string().max(10_000) })

/** `lookup:recognise`: free and offline unless `probeCredits` was spent to tell. */
export const Recognised = z.object({
  /** The pasted text, trimmed. */
  text: z.string(),
  /** The best guess; 'unknown' when nothing matches or the text is no base58 id. */
  kind: PastedKind,
  /** Every kind the text could be, best first (a 32-byte id can be several). */
  candidates: z.array(PastedKind),
  /** Why, in words: "a watched wallet", "a mint in the mirror", "64 bytes: a signature", … */
  reason: z.string(),
  /** The look-up to open for the best guess, or null for 'unknown'. */
  request: z.lazy(() => LookupRequest).nullable(),
})
export type Recognised = z.infer<typeof Recognised>

const Page = z.number().int().min(1).max(10_000).default(1)
const Ids = (max: number) => z.array(Base58Hash).min(1).max(max)

/** One look-up: the view and what it is about. */
export const LookupRequest = z.discriminatedUnion('view', [
  /** Any wallet without watching it: identity, funded-by, balances, holdings, first pages. */
  z.object({ view: z.literal('wallet'), address: WalletAddress }),
  z.object({ view: z.literal('asset'), ids: Ids(1_000) }),
  z.object({ view: z.literal('assets-by-owner'), owner: WalletAddress, page: Page }),
  z.object({ view: z.literal('assets-by-authority'), authority: WalletAddress, page: Page }),
  z.object({
    view: z.literal('token-accounts'),
    owner: WalletAddress.optional(),
    mint: WalletAddress.optional(),
    page: Page,
  }),
  z.object({
    view: z.literal('compressed-account'),
    hashes: Ids(1_000).optional(),
    addresses: Ids(1_000).optional(),
  }),
  z.object({ view: z.literal('compressed-owner'), owner: WalletAddress }),
  z.object({ view: z.literal('compressed-tx'), signature: Signature }),
  z.object({ view: z.literal('compressed-proof'), hashes: Ids(1_000) }),
  z.object({
    view: z.literal('priority-fee'),
    accounts: Ids(100).optional(),
    /** A serialized transaction, base64. */
    transaction: z.string().min(1).max(10_000).optional(),
    /** Compute units the SOL figures are worked out for. */
    computeUnits: z.number().int().min(1).max(1_400_000).default(200_000),
  }),
  z.object({ view: z.literal('token-metadata'), mints: Ids(100) }),
])
export type LookupRequest = z.infer<typeof LookupRequest>
export type LookupRequestInput = z.input<typeof LookupRequest>
export type LookupView = LookupRequest['view']

/** One operation a look-up will call. */
export const PlannedCall = z.object({
  operation: z.string(),
  count: z.number().int(),
  /** Credits per call, or null when the price is not known (token-metadata). */
  creditsEach: z.number().int().nullable(),
})

/** `lookup:plan`: what running a look-up would cost, before anything is sent. */
export const LookupPlan = z.object({
  request: LookupRequest,
  calls: z.array(PlannedCall),
  /** Total credits, or null when a price is not known. */
  credits: z.number().int().nullable(),
  /** In words, e.g. "510 credits: 5 wallet calls (100 each) and 1 DAS call (10)". */
  summary: z.string(),
  /** The person must confirm before it runs (validity proofs, unknown prices). */
  needsConfirmation: z.boolean(),
  /** The cached answer, when one is kept: opening it again is free. */
  cached: z.object({ fetchedAtSec: z.number().int(), credits: z.number().int() }).nullable(),
  /** Deprecated operations name their replacement. */
  deprecation: z.string().nullable(),
})
export type LookupPlan = z.infer<typeof LookupPlan>

// View models: the items the look-up page's tables show, named here so that the renderer
// reads only the contract. Each keeps every field of the service's item: the answers are
// this contract's output, and `lookup --json` prints them whole.

/** A digital asset (DAS) in an answer: id, kind, content, ownership, grouping, supply. */
export const LookupAsset = das.Asset
export type LookupAsset = z.infer<typeof LookupAsset>

/** A token account in an answer: address, mint, owner, exact amounts, frozen. */
export const LookupTokenAccount = das.TokenAccount
export type LookupTokenAccount = z.infer<typeof LookupTokenAccount>

/** A compressed account in an answer: hash, tree, leaf, owner, lamports, data. */
export const LookupCompressedAccount = compression.CompressedAccount
export type LookupCompressedAccount = z.infer<typeof LookupCompressedAccount>

/** What each view's answer holds: the service's answers, as validated by the client. */
export const LookupResult = z.discriminatedUnion('view', [
  z.object({
    view: z.literal('wallet'),
    /** Null where the service said "nothing found" (404) or the plan lacks it (403). */
    identity: wallet.IdentityResponse.nullable(),
    fundedBy: wallet.FundedByResponse.nullable(),
    balances: wallet.BalancesResponse,
    assets: das.GetAssetsByOwnerResult,
    history: wallet.HistoryResponse,
    transfers: wallet.TransfersResponse,
    /** Whether the wallet is on the watchlist now. */
    watched: z.boolean(),
  }),
  z.object({ view: z.literal('asset'), assets: z.array(LookupAsset) }),
  z.object({ view: z.literal('assets-by-owner'), page: das.GetAssetsByOwnerResult }),
  z.object({ view: z.literal('assets-by-authority'), page: das.GetAssetsByAuthorityResult }),
  z.object({ view: z.literal('token-accounts'), page: das.GetTokenAccountsResult }),
  z.object({
    view: z.literal('compressed-account'),
    accounts: compression.GetMultipleCompressedAccountsResult,
  }),
  z.object({
    view: z.literal('compressed-owner'),
    balance: compression.GetCompressedBalanceByOwnerResult,
    accounts: compression.GetCompressedAccountsByOwnerResult,
    tokens: compression.GetCompressedTokenBalancesByOwnerV2Result,
  }),
  z.object({
    view: z.literal('compressed-tx'),
    transaction: compression.GetTransactionWithCompressionInfoResult,
  }),
  z.object({ view: z.literal('compressed-proof'), proof: compression.GetValidityProofResult }),
  z.object({
    view: z.literal('priority-fee'),
    estimate: priorityFee.GetPriorityFeeEstimateResult,
    /** Per level: micro-lamports per compute unit and SOL for the request's compute units (exact text). */
    levels: z.array(
      z.object({ level: z.string(), microLamportsPerCu: z.number(), sol: z.string() }),
    ),
  }),
  z.object({ view: z.literal('token-metadata'), metadata: tokenMetadata.TokenMetadataResponse }),
])
export type LookupResult = z.infer<typeof LookupResult>

export const LookupRunInput = z.object({
  request: LookupRequest,
  /** Ask the service again even when a cached answer is kept. */
  refresh: z.boolean().default(false),
  /** The person confirmed a look-up whose plan needs confirmation. */
  confirmed: z.boolean().default(false),
})

/** `lookup:run` and `lookup:cached`: an answer, fresh or from the cache. */
export const LookupAnswer = z.object({
  request: LookupRequest,
  result: LookupResult,
  fetchedAtSec: z.number().int(),
  /** Credits the fetch cost (the ledger's figure), whether now or when it was cached. */
  credits: z.number().int(),
  /** Served from the look-up cache: nothing was sent now. */
  fromCache: z.boolean(),
  /**
   * Image addresses in the answer → the app's own path for each (served from the data
   * folder, fetched by main once, size and type checked): the page never loads a foreign host.
   */
  images: z.record(z.string(), z.string()),
})
export type LookupAnswer = z.infer<typeof LookupAnswer>

/** One entry of the cache, newest first in `lookup:recent`. */
export const LookupCacheEntry = z.object({
  request: LookupRequest,
  /** A short title, e.g. "Wallet 7xKX…gAsU (Binance)". */
  title: z.string(),
  fetchedAtSec: z.number().int(),
  credits: z.number().int(),
})
export type LookupCacheEntry = z.infer<typeof LookupCacheEntry>

export const LookupWatchInput = z.object({
  address: WalletAddress,
  label: z.string().max(64).optional(),
})

/**
 * The look-up that opens a pasted id as one kind, or null for 'unknown': recognition in
 * main and the choices on the page open the same view for the same kind.
 *
 * @example
 * lookupRequestFor('asset', mint) // { view: 'asset', ids: [mint] }
 */
export function lookupRequestFor(kind: PastedKind, id: string): LookupRequest | null {
  switch (kind) {
    case 'wallet':
      return { view: 'wallet', address: id }
    case 'asset':
      return { view: 'asset', ids: [id] }
    case 'signature':
      return { view: 'compressed-tx', signature: id }
    case 'compressed-hash':
      return { view: 'compressed-account', hashes: [id] }
    case 'unknown':
      return null
  }
}
