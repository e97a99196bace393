import type { HealthStatus } from '@shared/ipc/health-schemas'
import { client } from './connection.svelte'

/** What stops or slows syncing now (the banner on every page), as main last said. */
export const health = $state<{ status: HealthStatus | null }>({ status: null })

client.on('health:changed', (status) => {
  health.status = status
})

/** Loads the health status (at start; pushes keep it current after). */
export async function loadHealth(): Promise<void> {
  try {
    health.status = await client.call('health:status')
  } catch {
    // Not connected yet: the next push brings it.
  }
}
