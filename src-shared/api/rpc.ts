import { z } from 'zod'
import { Signature, WalletAddress } from './base58'
import { Integer } from './numbers'

// Standard Solana RPC methods the sync engine uses. Not in the interface text: the JSON-RPC
// endpoint is a Solana RPC node. getSignaturesForAddress (archival) lists an address's
// activity; the account reads further down show current balances for 1 credit a call.

/** Commitment levels of standard Solana RPC. */
const Commitment = z.enum(['processed', 'confirmed', 'finalized'])

/** getSignaturesForAddress config: limit 1–1000, before/until signatures (Solana RPC). */
const SignaturesForAddressConfig = z.strictObject({
  limit: Integer.min(1).max(1000).optional(),
  before: Signature.optional(),
  until: Signature.optional(),
  commitment: Commitment.optional(),
  minContextSlot: Integer.min(0).optional(),
})

/** getSignaturesForAddress params: positional `[address, config?]` (Solana RPC). */
export const GetSignaturesForAddressParams = z.union([
  z.tuple([WalletAddress]),
  z.tuple([WalletAddress, SignaturesForAddressConfig]),
])
export type GetSignaturesForAddressParams = z.input<typeof GetSignaturesForAddressParams>

/** Transaction error of Solana RPC: null, a string ("AccountInUse") or an object ({InstructionError: …}). */
export const TransactionError = z.union([z.null(), z.string(), z.record(z.string(), z.unknown())])

/** One signature, newest first (Solana RPC getSignaturesForAddress). */
export const SignatureInfo = z.object({
  signature: z.string(),
  slot: Integer,
  err: TransactionError,
  memo: z.string().nullable(),
  blockTime: Integer.nullable(),
  confirmationStatus: Commitment.nullable(),
})
export type SignatureInfo = z.infer<typeof SignatureInfo>

/** getSignaturesForAddress result (Solana RPC). */
export const GetSignaturesForAddressResult = z.array(SignatureInfo)
export type GetSignaturesForAddressResult = z.infer<typeof GetSignaturesForAddressResult>

// Account reads (docs/service.md, Standard Solana RPC): getMultipleAccounts,
// getTokenAccountsByOwner and getBalance cost 1 credit each, so a watcher can see balance
// changes far cheaper than by reading history.

/** Owner program of plain wallets (Solana system program). */
export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111'
/** The classic SPL Token program. */
export const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
/** The Token-2022 program (token extensions). */
export const TOKEN_2022_PROGRAM_ID = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'
/** Both token programs: getTokenAccountsByOwner takes one per call. */
export const TOKEN_PROGRAM_IDS = [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID] as const

/** Most accounts one getMultipleAccounts call reads (pubkeys ≤ 100). */
export const MAX_MULTIPLE_ACCOUNTS = 100

/** Size in bytes of an SPL token account without extensions. */
export const TOKEN_ACCOUNT_SIZE = 165
/** Byte offsets inside an SPL token account: mint 0–31, owner 32–63, amount u64 LE 64–71. */
export const TOKEN_ACCOUNT_MINT_OFFSET = 0
export const TOKEN_ACCOUNT_OWNER_OFFSET = 32
export const TOKEN_ACCOUNT_AMOUNT_OFFSET = 64
/** The dataSlice that returns only a token account's amount. */
export const TOKEN_AMOUNT_SLICE = { offset: TOKEN_ACCOUNT_AMOUNT_OFFSET, length: 8 } as const

/** Part of an account's data to return: `length` bytes from `offset` (binary encodings only). */
export const DataSlice = z.strictObject({
  offset: Integer.min(0),
  length: Integer.min(0),
})
export type DataSlice = z.infer<typeof DataSlice>

/**
 * Account encodings served: `base64`, and `jsonParsed` (token accounts parsed, other
 * accounts fall back to base64, as Solana RPC does). The base58 default is not served, so
 * the encoding is always named.
 */
export const AccountEncoding = z.enum(['base64', 'jsonParsed'])
export type AccountEncoding = z.infer<typeof AccountEncoding>

/** Account-read config shared by getMultipleAccounts and getTokenAccountsByOwner (Solana RPC). */
export const AccountReadConfig = z
  .strictObject({
    encoding: AccountEncoding,
    dataSlice: DataSlice.optional(),
    commitment: Commitment.optional(),
    minContextSlot: Integer.min(0).optional(),
  })
  .refine((c) => c.encoding === 'base64' || c.dataSlice === undefined, {
    message: 'dataSlice needs the base64 encoding',
    path: ['dataSlice'],
  })
export type AccountReadConfig = z.input<typeof AccountReadConfig>

/** getMultipleAccounts params: `[pubkeys ≤ 100, config]` (Solana RPC). */
export const GetMultipleAccountsParams = z.tuple([
  z
    .array(WalletAddress)
    .max(MAX_MULTIPLE_ACCOUNTS, `at most ${MAX_MULTIPLE_ACCOUNTS} pubkeys per call`),
  AccountReadConfig,
])
export type GetMultipleAccountsParams = z.input<typeof GetMultipleAccountsParams>

/** Which token accounts of an owner: those of one mint, or those of one token program. */
export const TokenAccountsFilter = z.union([
  z.strictObject({ mint: WalletAddress }),
  z.strictObject({ programId: WalletAddress }),
])
export type TokenAccountsFilter = z.infer<typeof TokenAccountsFilter>

/** getTokenAccountsByOwner params: `[owner, {mint} | {programId}, config]` (Solana RPC). */
export const GetTokenAccountsByOwnerParams = z.tuple([
  WalletAddress,
  TokenAccountsFilter,
  AccountReadConfig,
])
export type GetTokenAccountsByOwnerParams = z.input<typeof GetTokenAccountsByOwnerParams>

/** getBalance config (Solana RPC). */
export const GetBalanceConfig = z.strictObject({
  commitment: Commitment.optional(),
  minContextSlot: Integer.min(0).optional(),
})

/** getBalance params: `[pubkey, config?]` (Solana RPC). */
export const GetBalanceParams = z.union([
  z.tuple([WalletAddress]),
  z.tuple([WalletAddress, GetBalanceConfig]),
])
export type GetBalanceParams = z.input<typeof GetBalanceParams>

/** The slot an answer was read at (Solana RPC `context`). */
export const RpcContext = z.object({ slot: Integer, apiVersion: z.string().optional() })
export type RpcContext = z.infer<typeof RpcContext>

/**
 * Binary account data: `[text, encoding]` (Solana RPC). The app asks for base64; the
 * published examples answer base58 requests too, so the encoding is read as named and the
 * reader that decodes the bytes checks it is the one it asked for.
 */
export const EncodedAccountData = z.tuple([z.string(), z.enum(['base64', 'base58', 'base64+zstd'])])

/** Token amount of a parsed token account (Solana RPC `tokenAmount`). */
export const ParsedTokenAmount = z.object({
  amount: z.string().regex(/^\d+$/, 'expected a non-negative integer as a decimal string'),
  decimals: Integer.min(0),
  uiAmount: z.number().nullable(),
  uiAmountString: z.string(),
})
export type ParsedTokenAmount = z.infer<typeof ParsedTokenAmount>

/** A token account in the jsonParsed encoding (Solana RPC, programs spl-token and spl-token-2022). */
export const ParsedTokenAccountData = z.object({
  program: z.enum(['spl-token', 'spl-token-2022']),
  parsed: z.object({
    type: z.literal('account'),
    info: z.object({
      mint: WalletAddress,
      owner: WalletAddress,
      isNative: z.boolean(),
      state: z.enum(['initialized', 'frozen', 'uninitialized']),
      tokenAmount: ParsedTokenAmount,
    }),
  }),
  space: Integer.min(0),
})
export type ParsedTokenAccountData = z.infer<typeof ParsedTokenAccountData>

/** Any jsonParsed account data: program name, its parsed state and the data size. */
export const ParsedAccountData = z.object({
  program: z.string(),
  parsed: z.unknown(),
  space: Integer.min(0),
})

function accountInfoSchema<D extends z.ZodType>(data: D) {
  return z.object({
    lamports: Integer.min(0),
    owner: WalletAddress,
    data,
    executable: z.boolean(),
    // u64: 18446744073709551615 (rent exempt) is not a safe integer once parsed.
    rentEpoch: z.number().min(0),
    space: Integer.min(0),
  })
}

/** An account (Solana RPC): lamports, owner program, data, executable, rentEpoch, space. */
export const AccountInfo = accountInfoSchema(z.union([EncodedAccountData, ParsedAccountData]))
export type AccountInfo = z.infer<typeof AccountInfo>

/** A token account: its data is base64 or the parsed token-account layout. */
export const TokenAccountInfo = accountInfoSchema(
  z.union([EncodedAccountData, ParsedTokenAccountData]),
)
export type TokenAccountInfo = z.infer<typeof TokenAccountInfo>

/** getMultipleAccounts result: one account or null per pubkey, in request order (Solana RPC). */
export const GetMultipleAccountsResult = z.object({
  context: RpcContext,
  value: z.array(AccountInfo.nullable()),
})
export type GetMultipleAccountsResult = z.infer<typeof GetMultipleAccountsResult>

/** One entry of getTokenAccountsByOwner (Solana RPC). */
export const OwnedTokenAccount = z.object({ pubkey: WalletAddress, account: TokenAccountInfo })
export type OwnedTokenAccount = z.infer<typeof OwnedTokenAccount>

/** getTokenAccountsByOwner result (Solana RPC). */
export const GetTokenAccountsByOwnerResult = z.object({
  context: RpcContext,
  value: z.array(OwnedTokenAccount),
})
export type GetTokenAccountsByOwnerResult = z.infer<typeof GetTokenAccountsByOwnerResult>

/** getBalance result: lamports (Solana RPC). */
export const GetBalanceResult = z.object({ context: RpcContext, value: Integer.min(0) })
export type GetBalanceResult = z.infer<typeof GetBalanceResult>
