import { DAS_MAX_LIMIT } from '@shared/api/das'
import { COMPRESSION_MAX_LIMIT } from '@shared/api/compression'
import type { GetPriorityFeeEstimateResult } from '@shared/api/priority-fee'
import type { LookupRequest, LookupResult } from '@shared/ipc/lookup-schemas'
import { decimalFromRaw, decimalText } from '@shared/domain/exact-amount'
import { NotFoundError, PlanError } from '../service/service-errors'
import type { WalletCall } from '../sync/service-caller'
import { BALANCES_PAGE_LIMIT } from '../sync/streams/balances-stream'
import { HISTORY_PAGE_LIMIT } from '../sync/streams/history-stream'
import { TRANSFERS_PAGE_LIMIT } from '../sync/streams/transfers-stream'

/** Page size of the DAS list views: small pages, each a 10-credit call. */
export const LOOKUP_ASSETS_PAGE_LIMIT = 50
/** Token accounts per page of the token-accounts view. */
export const LOOKUP_TOKEN_ACCOUNTS_PAGE_LIMIT = 100

/**
 * Fetches a look-up's answer: exactly the calls `callsOfView` plans, each through `call`
 * (paced, retried, budgeted and in the ledger). The wallet view asks its first pages with
 * the sync streams' own parameters, so watching the wallet can reuse them.
 */
export async function fetchLookupResult(
  request: LookupRequest,
  call: WalletCall,
  isWatched: (address: string) => Promise<boolean>,
): Promise<LookupResult> {
  switch (request.view) {
    case 'wallet': {
      const wallet = request.address
      const identity = await orNothing(call('wallet.identity', { wallet }))
      const fundedBy = await orNothing(call('wallet.fundedBy', { wallet }))
      const balances = await call('wallet.balances', walletBalancesInput(wallet))
      const history = await call('wallet.history', { wallet, limit: HISTORY_PAGE_LIMIT })
      const transfers = await call('wallet.transfers', { wallet, limit: TRANSFERS_PAGE_LIMIT })
      const assets = await call('das.getAssetsByOwner', walletAssetsInput(wallet))
      return {
        view: 'wallet',
        identity,
        fundedBy,
        balances,
        assets,
        history,
        transfers,
        watched: await isWatched(wallet),
      }
    }
    case 'asset':
      return {
        view: 'asset',
        // An id that names no asset is null in the answer: it shows as not found.
        assets: (await call('das.getAssetBatch', { ids: request.ids })).filter(
          (asset) => asset !== null,
        ),
      }
    case 'assets-by-owner':
      return {
        view: 'assets-by-owner',
        page: await call('das.getAssetsByOwner', {
          ownerAddress: request.owner,
          ...assetListPage(request.page),
        }),
      }
    case 'assets-by-authority':
      return {
        view: 'assets-by-authority',
        page: await call('das.getAssetsByAuthority', {
          authorityAddress: request.authority,
          ...assetListPage(request.page),
        }),
      }
    case 'token-accounts': {
      const page = await call('das.getTokenAccounts', {
        ...(request.owner === undefined ? {} : { owner: request.owner }),
        ...(request.mint === undefined ? {} : { mint: request.mint }),
        page: request.page,
        limit: LOOKUP_TOKEN_ACCOUNTS_PAGE_LIMIT,
      })
      // The SDK's type leaves the limit out of the answer: it is the one asked for.
      return {
        view: 'token-accounts',
        page: { ...page, limit: page.limit ?? LOOKUP_TOKEN_ACCOUNTS_PAGE_LIMIT },
      }
    }
    case 'compressed-account':
      return {
        view: 'compressed-account',
        accounts: await call(
          'compression.getMultipleCompressedAccounts',
          request.hashes !== undefined
            ? { hashes: request.hashes }
            : { addresses: request.addresses ?? [] },
        ),
      }
    case 'compressed-owner': {
      const owner = request.owner
      const balance = await call('compression.getCompressedBalanceByOwner', { owner })
      const accounts = await call('compression.getCompressedAccountsByOwner', {
        owner,
        limit: COMPRESSION_MAX_LIMIT,
      })
      const tokens = await call('compression.getCompressedTokenBalancesByOwnerV2', {
        owner,
        limit: COMPRESSION_MAX_LIMIT,
      })
      return { view: 'compressed-owner', balance, accounts, tokens }
    }
    case 'compressed-tx':
      return {
        view: 'compressed-tx',
        transaction: await call('compression.getTransactionWithCompressionInfo', {
          signature: request.signature,
        }),
      }
    case 'compressed-proof':
      return {
        view: 'compressed-proof',
        proof: await call('compression.getValidityProof', { hashes: request.hashes }),
      }
    case 'priority-fee': {
      const estimate = await call('priorityFee.getPriorityFeeEstimate', [
        {
          ...(request.accounts === undefined ? {} : { accountKeys: request.accounts }),
          ...(request.transaction === undefined ? {} : { transaction: request.transaction }),
          options: {
            ...(request.transaction === undefined
              ? {}
              : { transactionEncoding: 'Base64' as const }),
            includeAllPriorityFeeLevels: true,
          },
        },
      ])
      return {
        view: 'priority-fee',
        estimate,
        levels: priorityFeeLevels(estimate, request.computeUnits),
      }
    }
    case 'token-metadata':
      return {
        view: 'token-metadata',
        metadata: await call('tokenMetadata.getTokenMetadata', { mintAccounts: request.mints }),
      }
  }
}

/** Paging of the DAS list views: a small page, with the grand total for "page N of M". */
function assetListPage(page: number) {
  return { page, limit: LOOKUP_ASSETS_PAGE_LIMIT, options: { showGrandTotal: true } }
}

/** The balances call of the wallet view: the balances stream's first page, as it asks it. */
export function walletBalancesInput(wallet: string) {
  return { wallet, page: 1, limit: BALANCES_PAGE_LIMIT, showNfts: true }
}

/** The holdings call of the wallet view: the balances stream's first DAS page, as it asks it. */
export function walletAssetsInput(ownerAddress: string) {
  return { ownerAddress, page: 1, limit: DAS_MAX_LIMIT, options: { showGrandTotal: true } }
}

/** "Nothing found" (404) and "not on this plan" (403) answer null; other failures fail. */
async function orNothing<T>(answer: Promise<T>): Promise<T | null> {
  try {
    return await answer
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof PlanError) return null
    throw error
  }
}

const LEVEL_KEYS = ['min', 'low', 'medium', 'high', 'veryHigh', 'unsafeMax'] as const

/** Micro-lamports per CU of 1 SOL: 1e6 micro-lamports a lamport × 1e9 lamports a SOL. */
const MICRO_LAMPORT_DECIMALS = 15

/**
 * Each priority level in micro-lamports per compute unit and in SOL for `computeUnits`,
 * exact: fee = microLamports × CU / 1e6 lamports, / 1e9 SOL.
 *
 * @example
 * priorityFeeLevels({ priorityFeeEstimate: 5000, priorityFeeLevels: { medium: 5000, … } }, 200_000)
 * // [..., { level: 'medium', microLamportsPerCu: 5000, sol: '0.000001' }, ...]
 */
export function priorityFeeLevels(
  estimate: GetPriorityFeeEstimateResult,
  computeUnits: number,
): { level: string; microLamportsPerCu: number; sol: string }[] {
  const levels = estimate.priorityFeeLevels
  const rows: [string, number][] =
    levels !== undefined
      ? LEVEL_KEYS.map((key) => [key, levels[key]])
      : estimate.priorityFeeEstimate === null
        ? []
        : [['estimate', estimate.priorityFeeEstimate]]
  return rows.map(([level, microLamportsPerCu]) => ({
    level,
    microLamportsPerCu,
    sol: solForComputeUnits(microLamportsPerCu, computeUnits),
  }))
}

function solForComputeUnits(microLamportsPerCu: number, computeUnits: number): string {
  const text = decimalText(microLamportsPerCu)
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.')
  const raw = BigInt(`${whole}${fraction}`) * BigInt(computeUnits)
  const sign = text.startsWith('-') ? '-' : ''
  return decimalFromRaw(`${sign}${raw}`, MICRO_LAMPORT_DECIMALS + fraction.length)
}
