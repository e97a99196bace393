import type { HealthStatus, KeptAsideReport } from '@shared/ipc/health-schemas'
import type { Mirror } from '../db/mirror'

/** ISO-8601 UTC of Unix seconds. */
function iso(sec: number): string {
  return new Date(sec * 1000).toISOString()
}

/** The raw JSON as it was kept; text that no longer parses is shown as text. */
function rawOf(json: string): unknown {
  try {
    return JSON.parse(json) as unknown
  } catch {
    return json
  }
}

/**
 * What the edge kept aside of the service's answers, newest first, with the line health
 * says of it (`heliograph doctor`, `health:kept-aside`).
 */
export async function keptAsideReport(
  mirror: Mirror,
  health: HealthStatus,
  options: { includeWritten: boolean },
): Promise<KeptAsideReport> {
  const rows = await mirror.keptAside.list(options)
  const condition = health.conditions.find((c) => c.kind === 'service-shape')
  return {
    keptAside: rows.map((r) => ({
      wallet: r.walletAddress,
      label: r.walletLabel,
      stream: r.stream,
      operation: r.operation,
      key: r.key,
      reason: r.reason,
      firstSeen: iso(r.firstSeenSec),
      lastSeen: iso(r.lastSeenSec),
      seenCount: r.seenCount,
      written: r.writtenAtSec === null ? null : iso(r.writtenAtSec),
      raw: rawOf(r.rawJson),
    })),
    line: condition ? `${condition.headline} ${condition.action}` : null,
  }
}
