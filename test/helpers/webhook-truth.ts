import Database from 'better-sqlite3'
import { databasePath } from '../../src-main/app/data-dir'
import type { RunningSimulator } from '../../src-main/simulator/simulator-server'

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
export function ledgerWebhookCredits(dataDir: string): { calls: number; credits: number } {
  const db = new Database(databasePath(dataDir), { readonly: true })
  try {
    return db
      .prepare(
        "select count(*) as calls, coalesce(sum(credits), 0) as credits from credit_ledger where stream = 'webhooks'",
      )
      .get() as { calls: number; credits: number }
  } finally {
    db.close()
  }
}
