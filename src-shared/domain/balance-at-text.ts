import { countText } from './display-text'

/** What a balance-at plan says about asking the service (see `BalanceAtPlan`). */
export interface BalanceAtCost {
  mints: number
  serviceCredits: number
  nftMints: number
  nftCredits: number
  includeNfts: boolean
}

const credits = (n: number): string => `${n.toLocaleString('en-US')} credits`

/**
 * What asking the service costs, said before anything is asked: the mints asked (a
 * balance-at call each) and what the NFT mints add or were left out at.
 *
 * @example
 * balanceAtCostText({ mints: 3, serviceCredits: 300, nftMints: 173, nftCredits: 17_300, includeNfts: false })
 * // '3 mint(s) × balance-at = 300 credits; 173 NFT mints not asked (asking them too: +17,300 credits)'
 */
export function balanceAtCostText(plan: BalanceAtCost): string {
  const head = `${plan.mints} mint(s) × balance-at = ${credits(plan.serviceCredits)}`
  if (plan.nftMints === 0) return head
  const nfts = countText(plan.nftMints, 'NFT mint')
  return plan.includeNfts
    ? `${head}, ${nfts} included (${credits(plan.nftCredits)})`
    : `${head}; ${nfts} not asked (asking them too: +${credits(plan.nftCredits)})`
}
