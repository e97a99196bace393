import { getOperation } from '@shared/api/operations'
import { systemClock, type Clock } from '@shared/clock'
import {
  ENDPOINT_CLASSES,
  PLAN_RATE_LIMITS_RPS,
  type EndpointClass,
  type Plan,
} from '@shared/api/prices'
import type { Mirror } from '../db/mirror'
import type { KeptAsideCount } from '../db/stores/kept-aside-store'
import { createServiceClient, type ServiceClient } from '../service/service-client'
import type { ServiceSettings } from '../service/service-settings'
import { callAttribution } from './call-attribution'
import type { CallReport } from '../service/call-report'
import { CreditMeter, type CreditBudget, type SpendingCheck } from './credit-meter'
import { RateShaper, type RateShaperOptions } from './rate-shaper'
import { HistoryLoads } from './history-loads'
import { SyncEngine, type SyncEvent } from './sync-engine'
import { DEFAULT_NAMES_REFRESH_SEC } from './wallet-names'

/** Requests per second: a plan (docs/service.md, Rate limits), custom numbers, or unpaced ('off'). */
export type RateSetting = Plan | 'off' | { custom: Record<EndpointClass, number> }

/** The per-class rates a setting stands for. */
function ratesFor(setting: RateSetting): Record<EndpointClass, number> {
  if (setting === 'off')
    return Object.fromEntries(ENDPOINT_CLASSES.map((c) => [c, Infinity])) as Record<
      EndpointClass,
      number
    >
  if (typeof setting === 'string') return { ...PLAN_RATE_LIMITS_RPS[setting] }
  return { ...setting.custom }
}

export interface SyncRuntimeOptions {
  /** Where pages, cursors and the credit ledger are written. */
  mirror: Mirror
  service: ServiceSettings
  rate: RateSetting
  /** The person's budget, read before every call (it can change at any time). */
  budget: () => Promise<CreditBudget>
  /** Seconds before a name asked of the service is asked again (the person's setting). */
  namesRefreshSec?: () => Promise<number>
  emit?: (event: SyncEvent) => void
  retry?: RateShaperOptions['retry']
  /** Time for pacing, backoff, the ledger and the mirror (the system clock unless a test drives it). */
  clock?: Clock
  /** See SyncEngineOptions.afterWalletWritten: the alert rules' turn after each wallet. */
  afterWalletWritten?: (address: string) => Promise<void>
  health?: HealthSignals
  /**
   * The month's credits a load of history is weighed against (the monthly budget, else the
   * plan's): one that would take more than a tenth of what is left asks first. Without it
   * nothing asks.
   */
  monthlyAllowance?: () => Promise<number | null>
}

/** Who hears what the engine sees that can stop or slow syncing (alerts/health-monitor.ts). */
export interface HealthSignals {
  onCall(report: CallReport): void
  onNetworkState(state: 'online' | 'offline'): void
  onSpending(check: SpendingCheck): void
  onStreamFailed(error: unknown): void
  /** A wallet's sync wrote its pages: storage works. */
  onWalletWritten(): void
  /** What the edge keeps aside now, after a wallet's sync. */
  onKeptAside(counts: readonly KeptAsideCount[]): void
}

/** The parts of a running sync: engine, and what it is built from. */
export interface SyncRuntime {
  engine: SyncEngine
  /** Prices loads of history and keeps the ask before a large one. */
  loads: HistoryLoads
  client: ServiceClient
  shaper: RateShaper
  meter: CreditMeter
}

/**
 * Builds the sync engine over a service: the client reports every call to the credit
 * meter (attributed to the wallet whose stream made it), the shaper paces per class.
 */
export function createSyncRuntime(options: SyncRuntimeOptions): SyncRuntime {
  const clock = options.clock ?? systemClock
  const health = options.health
  const meter = new CreditMeter(
    options.mirror.ledger,
    options.budget,
    () => clock.nowMs(),
    health && ((check) => health.onSpending(check)),
  )
  const client = createServiceClient(options.service, {
    onCall: (report) => {
      health?.onCall(report)
      callAttribution.getStore()?.onCredits?.(report.credits)
      meter.record({
        atMs: clock.nowMs(),
        operation: report.operation,
        endpointClass: getOperation(report.operation).endpointClass,
        walletAddress: callAttribution.getStore()?.walletAddress ?? null,
        stream: callAttribution.getStore()?.stream ?? null,
        credits: report.credits,
        status: report.status,
        errorName: report.errorName ?? null,
        durationMs: Math.round(report.durationMs),
        httpStatus: report.httpStatus ?? null,
      })
    },
  })
  const shaper = new RateShaper({
    rpsByClass: ratesFor(options.rate),
    ...(options.retry ? { retry: options.retry } : {}),
    clock,
    onNetworkState: (state) => {
      health?.onNetworkState(state)
      options.emit?.({ type: 'network', state })
    },
  })
  const namesRefreshSec = options.namesRefreshSec ?? (async () => DEFAULT_NAMES_REFRESH_SEC)
  const monthlyAllowance = options.monthlyAllowance
  const loads = new HistoryLoads({
    loads: options.mirror.historyLoads,
    names: options.mirror.names,
    writer: options.mirror.writer,
    month: async () => ({
      allowance: monthlyAllowance ? await monthlyAllowance() : null,
      spent: (await meter.spent()).month,
    }),
    namesRefreshSec,
    nowSec: () => Math.floor(clock.nowMs() / 1000),
  })
  const engine = new SyncEngine({
    writer: options.mirror.writer,
    mints: options.mirror.mints,
    holdings: options.mirror.holdings,
    syncState: options.mirror.syncState,
    watchState: options.mirror.watchState,
    names: options.mirror.names,
    ...(options.namesRefreshSec ? { namesRefreshSec: options.namesRefreshSec } : {}),
    client,
    shaper,
    meter,
    emit: (event) => {
      if (event.type === 'wallet-state' && event.outcome?.streams.some((s) => s.pages > 0))
        health?.onWalletWritten()
      options.emit?.(event)
    },
    ...(health ? { onStreamFailed: (error: unknown) => health.onStreamFailed(error) } : {}),
    keptAside: options.mirror.keptAside,
    ...(health ? { onKeptAside: (counts: KeptAsideCount[]) => health.onKeptAside(counts) } : {}),
    ...(options.afterWalletWritten ? { afterWalletWritten: options.afterWalletWritten } : {}),
    clock,
    loads,
  })
  return { engine, loads, client, shaper, meter }
}
