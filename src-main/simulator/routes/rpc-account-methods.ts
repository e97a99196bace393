import type { z } from 'zod'
import type {
  AccountInfo,
  GetBalanceParams,
  GetBalanceResult,
  GetMultipleAccountsParams,
  GetMultipleAccountsResult,
  GetTokenAccountsByOwnerParams,
  GetTokenAccountsByOwnerResult,
  OwnedTokenAccount,
  TokenAccountInfo,
} from '@shared/api/rpc'
import { TOKEN_ACCOUNT_SIZE, TOKEN_PROGRAM_IDS } from '@shared/api/rpc'
import type { SimAccount, SimTokenAccount } from '../chain/accounts'
import {
  accountAt,
  RENT_EXEMPT_EPOCH,
  TOKEN_ACCOUNT_RENT_LAMPORTS,
  tokenAccountData,
  tokenProgramId,
  walletTokenAccounts,
} from '../chain/accounts'
import { formatRawAmount, rawToNumber } from '../chain/mints'
import type { SimChain } from '../chain/sim-chain'
import type { HandlerContext } from './handler-context'
import { invalidParams, SimRequestError } from './http-io'

// Standard Solana RPC account reads (docs/service.md, Standard Solana RPC),
// answered from chain/accounts.ts so they agree with balances, DAS and history.

type ReadConfig = z.output<typeof GetMultipleAccountsParams>[1]

/** Solana RPC refuses a read the node has not caught up with (-32016). */
function checkMinContextSlot(chain: SimChain, minContextSlot: number | undefined): void {
  if (minContextSlot !== undefined && minContextSlot > chain.currentSlot())
    throw new SimRequestError(400, -32016, 'Minimum context slot has not been reached')
}

function context(chain: SimChain) {
  return { slot: chain.currentSlot() }
}

function base64Data(bytes: Uint8Array, config: ReadConfig): [string, 'base64'] {
  const slice = config.dataSlice
  const part = slice ? bytes.subarray(slice.offset, slice.offset + slice.length) : bytes
  return [Buffer.from(part).toString('base64'), 'base64']
}

function tokenAccountInfo(token: SimTokenAccount, config: ReadConfig): TokenAccountInfo {
  const data =
    config.encoding === 'jsonParsed'
      ? {
          program: token.program === 'token-2022' ? 'spl-token-2022' : 'spl-token',
          parsed: {
            type: 'account' as const,
            info: {
              mint: token.mintAddress,
              owner: token.owner.address,
              isNative: false,
              state: 'initialized' as const,
              tokenAmount: {
                amount: token.amountRaw.toString(),
                decimals: token.decimals,
                uiAmount: rawToNumber(token.amountRaw, token.decimals),
                uiAmountString: formatRawAmount(token.amountRaw, token.decimals),
              },
            },
          },
          space: TOKEN_ACCOUNT_SIZE,
        }
      : base64Data(tokenAccountData(token), config)
  return {
    lamports: TOKEN_ACCOUNT_RENT_LAMPORTS,
    owner: tokenProgramId(token.program),
    data: data as TokenAccountInfo['data'],
    executable: false,
    rentEpoch: RENT_EXEMPT_EPOCH,
    space: TOKEN_ACCOUNT_SIZE,
  }
}

function accountInfo(account: SimAccount, config: ReadConfig): AccountInfo {
  if (account.kind === 'token') return tokenAccountInfo(account.token, config)
  // A wallet has no data; jsonParsed falls back to base64 for it, as Solana RPC does.
  return {
    lamports: Number(account.lamports),
    owner: account.owner,
    data: base64Data(new Uint8Array(0), config),
    executable: false,
    rentEpoch: RENT_EXEMPT_EPOCH,
    space: 0,
  }
}

export function getMultipleAccounts(
  p: z.output<typeof GetMultipleAccountsParams>,
  ctx: HandlerContext,
): GetMultipleAccountsResult {
  const [pubkeys, config] = p
  checkMinContextSlot(ctx.chain, config.minContextSlot)
  return {
    context: context(ctx.chain),
    value: pubkeys.map((key) => {
      const account = accountAt(ctx.chain, key)
      return account ? accountInfo(account, config) : null
    }),
  }
}

export function getTokenAccountsByOwner(
  p: z.output<typeof GetTokenAccountsByOwnerParams>,
  ctx: HandlerContext,
): GetTokenAccountsByOwnerResult {
  const { chain } = ctx
  const [owner, filter, config] = p
  checkMinContextSlot(chain, config.minContextSlot)
  let keep: (a: SimTokenAccount) => boolean
  if ('programId' in filter) {
    if (!(TOKEN_PROGRAM_IDS as readonly string[]).includes(filter.programId))
      throw invalidParams('programId: unrecognized token program id')
    keep = (a) => tokenProgramId(a.program) === filter.programId
  } else {
    if (!chain.mintByAddressOrNull(filter.mint) && !chain.assetOrigin(filter.mint))
      throw invalidParams('mint: could not find mint')
    keep = (a) => a.mintAddress === filter.mint
  }
  const wallet = chain.walletByAddress(owner)
  const accounts = wallet ? walletTokenAccounts(chain, wallet).filter(keep) : []
  return {
    context: context(chain),
    value: accounts.map((a): OwnedTokenAccount => ({
      pubkey: a.address,
      account: tokenAccountInfo(a, config),
    })),
  }
}

export function getBalance(
  p: z.output<typeof GetBalanceParams>,
  ctx: HandlerContext,
): GetBalanceResult {
  const [address, config] = p
  checkMinContextSlot(ctx.chain, config?.minContextSlot)
  const account = accountAt(ctx.chain, address)
  return { context: context(ctx.chain), value: account ? Number(account.lamports) : 0 }
}
