import { getOperation, type OperationName } from '@shared/api/operations'
import { creditsPerCall } from '@shared/api/prices'
import { TOKEN_PROGRAM_IDS, type OwnedTokenAccount } from '@shared/api/rpc'
import { SIGNATURES_PAGE_ITEMS, type WalletSizeFacts } from '@shared/domain/history-load-cost'
import type { WalletFunding } from '../db/stores/names-store'
import type { WalletCall } from './service-caller'
import { askFunding } from './wallet-names'

/**
 * Looks at how big a wallet is before its first sync, from the cheapest facts there are:
 * the newest page of its signatures (getSignaturesForAddress, 10 credits: are there more
 * than 1,000, and how fast do they come), its token accounts (getTokenAccountsByOwner, 1
 * credit per token program: the holdings pages) and the DAS grand total of its NFTs (10
 * credits: the NFT pages). About 22 credits in all, against hundreds for the first sync.
 * The signatures are the look; a failure of the other two leaves their facts unknown.
 *
 * @example
 * const facts = await probeWalletSize(call, address, nowSec)
 * facts.hasMoreSignatures // true: more than 1,000 transactions
 */
export async function probeWalletSize(
  call: WalletCall,
  address: string,
  nowSec: number,
  signal?: AbortSignal,
): Promise<{ facts: WalletSizeFacts; funding: WalletFunding | null }> {
  let credits = 0
  const paid = async <T>(operation: OperationName, work: Promise<T>): Promise<T> => {
    const answer = await work
    credits += creditsPerCall(getOperation(operation).priceKey)
    return answer
  }
  const signatures = await paid(
    'rpc.getSignaturesForAddress',
    call('rpc.getSignaturesForAddress', [address, { limit: SIGNATURES_PAGE_ITEMS }], signal),
  )
  let fungibleTokens: number | null = 0
  for (const programId of TOKEN_PROGRAM_IDS) {
    const listed = await paid(
      'rpc.getTokenAccountsByOwner',
      call(
        'rpc.getTokenAccountsByOwner',
        [address, { programId }, { encoding: 'jsonParsed' }],
        signal,
      ),
    ).catch(() => null)
    fungibleTokens =
      listed === null || fungibleTokens === null
        ? null
        : fungibleTokens + listed.value.filter(isFungibleHolding).length
  }
  const assets = await paid(
    'das.getAssetsByOwner',
    call(
      'das.getAssetsByOwner',
      { ownerAddress: address, page: 1, limit: 1, options: { showGrandTotal: true } },
      signal,
    ),
  ).catch(() => null)
  const times = signatures.map((s) => s.blockTime).filter((t): t is number => t !== null)
  const hasMoreSignatures = signatures.length >= SIGNATURES_PAGE_ITEMS
  // More than a page: when its history starts says how big it is. The first sync asks
  // the funder anyway (once): the answer is kept for it, so it costs nothing more.
  const funding = hasMoreSignatures
    ? await askFunding(call, address, nowSec, signal).catch(() => null)
    : null
  // Charged when answered; a wallet without a funder (404) or a plan without it (403) is not.
  if (funding?.status === 'found')
    credits += creditsPerCall(getOperation('wallet.fundedBy').priceKey)
  return {
    facts: {
      signatures: signatures.length,
      hasMoreSignatures,
      oldestSignatureSec: times.length === 0 ? null : Math.min(...times),
      newestSignatureSec: times.length === 0 ? null : Math.max(...times),
      fungibleTokens,
      // `total` counts the page only; without the grand total the NFTs stay unknown.
      nfts: assets?.grand_total ?? null,
      fundedAtSec: funding?.fundedAtSec ?? null,
      probedAtSec: nowSec,
      credits,
    },
    funding,
  }
}

/**
 * A token account holding a fungible balance: not empty, and not an NFT (one unit of a
 * mint of no decimals), which the DAS total counts instead.
 */
function isFungibleHolding(account: OwnedTokenAccount): boolean {
  const data = account.account.data
  // An account the node could not parse is counted: the holdings pages then err high.
  if (Array.isArray(data)) return true
  const amount = data.parsed.info.tokenAmount
  if (amount.amount === '0') return false
  return !(amount.decimals === 0 && amount.amount === '1')
}
