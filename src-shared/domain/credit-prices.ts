import { PLAN_MONTHLY_CREDITS, PLANS, type Plan } from '../api/prices'

// The service's published prices as pages quote them, for the renderer (which reads the
// contract and these rules, never the service's shapes); the tables stay in src-shared/api.

export { creditsPerCall } from '../api/prices'

/**
 * The monthly credits a rate plan includes: the published ones, the person's own for the
 * Custom plan, or null when none are known (custom without them, off).
 */
export function planMonthlyCredits(
  plan: string,
  customMonthlyCredits: number | null = null,
): number | null {
  if (plan === 'custom') return customMonthlyCredits
  return (PLANS as readonly string[]).includes(plan) ? PLAN_MONTHLY_CREDITS[plan as Plan] : null
}
