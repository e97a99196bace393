import type { TeamRole } from '@shared/domain/team-roles'
import type { Envelope } from '@shared/ipc/envelope'

/** What the team server sends instead of the data folder's path to those not shown it. */
export const HIDDEN_DATA_DIR = ''

/**
 * Where the server keeps its data is the server's business: its path (a home folder, a
 * user name) goes to admins only, who run the server. Answers that carry it (`app:info`,
 * the `settings:*` channels) reach viewers and editors with it left empty.
 */
export function withoutDataDir(envelope: Envelope<unknown>, role?: TeamRole): Envelope<unknown> {
  if (role === 'admin' || !envelope.ok) return envelope
  const result = envelope.result
  if (typeof result !== 'object' || result === null || !Object.hasOwn(result, 'dataDir'))
    return envelope
  return { ok: true, result: { ...result, dataDir: HIDDEN_DATA_DIR } }
}
