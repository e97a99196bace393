import { AsyncLocalStorage } from 'node:async_hooks'
import { hasRole, SPENDING_ROLE, type TeamRole } from '@shared/domain/team-roles'
import { PermissionError } from '@shared/ipc/ipc-errors'

// Who is spending. A team server request runs as its account's role; everything else (the
// person at this machine, the CLI, the app's own watching) runs as no one in particular
// and may spend. The check sits where every paid call passes (SyncEngine's call), so no
// channel or option can lead a viewer past it.

/** A signed-in team account on whose behalf a request runs. */
export interface Caller {
  role: TeamRole
  /** The account's name: what is its own (alerts it has read, exports waiting) is kept under it. */
  account?: string
}

const caller = new AsyncLocalStorage<Caller>()

/**
 * Runs `work` on behalf of a signed-in account: paid calls it leads to (now or in what it
 * starts, such as an export job) are checked against its role.
 *
 * @example
 * await runAsCaller({ role: 'viewer', account: 'vera' }, () => core.dispatch('export:run', input)) // no credit moves
 */
export function runAsCaller<T>(who: Caller, work: () => T): T {
  return caller.run(who, work)
}

/**
 * Runs `work` as the app itself, whoever's request started it: the watch scheduler's
 * rounds and the webhook keeper spend on the watchlist's behalf, which an editor set up.
 */
export function runAsApp<T>(work: () => T): T {
  return caller.exit(work)
}

/** The role of the account whose request this is; null for the local user or the app. */
export function callerRole(): TeamRole | null {
  return caller.getStore()?.role ?? null
}

/** The name of the account whose request this is; null for the local user or the app. */
export function callerAccount(): string | null {
  return caller.getStore()?.account ?? null
}

/**
 * Throws when the caller may not spend credits; names the call that was refused.
 *
 * @example
 * assertMaySpend('wallet.history') // PermissionError for a viewer
 */
export function assertMaySpend(operation: string): void {
  const role = callerRole()
  if (role !== null && !hasRole(role, SPENDING_ROLE))
    throw new PermissionError(
      `Your role (${role}) cannot spend credits (${operation} is a paid call) — ask an admin.`,
      { role, operation },
    )
}
