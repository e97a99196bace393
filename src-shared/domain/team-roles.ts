import { z } from 'zod'

/**
 * A team server account's role: a viewer reads everything and spends nothing, an editor
 * does everything one person can do in the app except the API key and the data source,
 * an admin does everything.
 */
export const TeamRole = z.enum(['viewer', 'editor', 'admin'])
export type TeamRole = z.infer<typeof TeamRole>

const RANKS: Record<TeamRole, number> = { viewer: 0, editor: 1, admin: 2 }

/** Whether `role` is at least `minimum`. */
export function hasRole(role: TeamRole, minimum: TeamRole): boolean {
  return RANKS[role] >= RANKS[minimum]
}

/** The least role that may spend credits (a paid call to the service). */
export const SPENDING_ROLE: TeamRole = 'editor'
