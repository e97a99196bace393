import type { RunningSimulator } from '../../src-main/simulator/simulator-server'
import { readStoredMirror, type MirrorPlace } from './stored-mirror'

/**
 * New activity on a simulator wallet through its control routes; resolves once every
 * delivery it caused has been attempted. Returns the new transactions' signatures.
 */
export async function addActivityAndDeliver(
  simUrl: string,
  address: string,
  count = 1,
): Promise<string[]> {
  const res = await fetch(`${simUrl}/__sim/activity`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet: address, count }),
  })
  const { signatures } = (await res.json()) as { signatures: string[] }
  await fetch(`${simUrl}/__sim/webhooks/flush`, { method: 'POST' })
  return signatures
}

/** Webhook management calls and their credits as the simulator counted them (deliveries apart). */
export function simulatorManagementCredits(
  sim: RunningSimulator,
  key: string,
): { calls: number; credits: number } {
  const managed = Object.entries(sim.credits.forKey(key).byOperation).filter(
    ([op]) => op.startsWith('webhooks.') && op !== 'webhooks.delivery',
  )
  return {
    calls: managed.reduce((sum, [, v]) => sum + v.calls, 0),
    credits: managed.reduce((sum, [, v]) => sum + v.credits, 0),
  }
}

/** What the mirror's ledger recorded for webhook management (its `webhooks` stream). */
export function ledgerWebhookCredits(
  place: MirrorPlace,
): Promise<{ calls: number; credits: number }> {
  return readStoredMirror(place, async (db) => {
    const row = await db
      .selectFrom('credit_ledger')
      .select((eb) => [
        eb.fn.countAll<number>().as('calls'),
        eb.fn.coalesce(eb.fn.sum<number>('credits'), eb.lit(0)).as('credits'),
      ])
      .where('stream', '=', 'webhooks')
      .executeTakeFirstOrThrow()
    return { calls: Number(row.calls), credits: Number(row.credits) }
  })
}
