import { resolve } from 'node:path'
import { createCore, type Core } from '../../src-main/app/core'
import { summarizeCredits } from '../../src-main/db/queries/credit-ledger'
import { addWatchedWallet } from '../../src-main/db/queries/watchlist-queries'
import { singleOriginServiceSettings } from '../../src-main/service/service-settings'
import type { ProfileId } from '../../src-main/simulator/chain/wallet-profiles'
import { startSimulator, type RunningSimulator } from '../../src-main/simulator/simulator-server'
import { startWebShell, type RunningWebShell } from '../../src-main/shell/web/web-shell'
import { createSyncRuntime, type SyncRuntime } from '../../src-main/sync/sync-runtime'
import { isChannel } from '../../src-shared/ipc/contract'
import { okEnvelope } from '../../src-shared/ipc/envelope'
import type { AppSettings } from '../../src-shared/ipc/settings-schemas'
import type { WalletSyncStatus } from '../../src-shared/ipc/sync-schemas'
import { makeTempDir } from './temp-dir'
import { BUILT_RENDERER_DIR } from './web-shell-fixture'

/** Profile wallets a first run watches in demo mode (what "Add demo wallets" adds). */
export const DEMO_PROFILES: ProfileId[] = [
  'casual',
  'nft-collector',
  'compressed-holder',
  'failed-transactions',
]

/**
 * The review app as a person meets it: a core on a fresh data folder, the simulator, the
 * sync engine, and the web shell serving the built renderer.
 *
 * When the core runs demo mode itself (its contract has the sync channels) it is used as
 * it is. Until then the fixture wires the sync engine to the core the same way: the
 * engine's events become the `sync:*` push events and a handful of sync channels answer
 * from the engine and the mirror.
 */
export interface ReviewApp {
  core: Core
  shell: RunningWebShell
  sim: RunningSimulator | null
  runtime: SyncRuntime | null
  /** The address of a simulator profile wallet. */
  profileAddress(profile: ProfileId): string
  /** Puts a simulator profile wallet on the watchlist and starts its sync. */
  watchProfile(profile: ProfileId, label: string): Promise<string>
  /** Stops the simulator: the service is then unreachable. */
  stopService(): Promise<void>
  stop(): Promise<void>
}

export async function startReviewApp(options: { apiKey?: string } = {}): Promise<ReviewApp> {
  const temp = makeTempDir('heliograph-e2e-')
  const core = await createCore({
    dataDir: temp.dir,
    shell: 'web',
    version: 'test',
    apiKey: options.apiKey,
  })
  const hasDemoMode = isChannel('sync:status')
  let sim: RunningSimulator | null = null
  let runtime: SyncRuntime | null = null
  const emit = core.events.emit.bind(core.events) as (event: string, payload: unknown) => void
  const syncing = new Set<string>()

  async function syncWallet(address: string): Promise<void> {
    if (!runtime || syncing.has(address)) return
    syncing.add(address)
    emit('sync:wallet-state', await statusOf(address, 'syncing'))
    try {
      await runtime.engine.syncWallet(address)
    } catch {
      // The stream rows carry the error; the status below shows it.
    } finally {
      syncing.delete(address)
      emit('sync:wallet-state', await statusOf(address))
    }
  }

  async function statusOf(
    address: string,
    forced?: WalletSyncStatus['state'],
  ): Promise<WalletSyncStatus> {
    return (await statuses(forced ? { address, state: forced } : undefined)).find(
      (s) => s.address === address,
    ) as WalletSyncStatus
  }

  async function statuses(forced?: {
    address: string
    state: WalletSyncStatus['state']
  }): Promise<WalletSyncStatus[]> {
    const wallets = await core.database.db
      .selectFrom('wallets')
      .select(['id', 'address', 'label'])
      .orderBy('position')
      .execute()
    const rows = await core.database.db.selectFrom('sync_streams').selectAll().execute()
    return wallets.map((w) => {
      const streams = rows
        .filter((r) => r.wallet_id === w.id)
        .map((r) => ({
          stream: r.stream as never,
          state: r.state as never,
          itemsStored: r.items_stored,
          pagesFetched: r.pages_fetched,
          creditsSpent: r.credits_spent,
          isBackfillComplete: r.is_backfill_complete === 1,
          newestKey: r.newest_key,
          backfillCursor: r.backfill_cursor,
          depthLimitCount: r.depth_limit_count,
          depthLimitSinceSec: r.depth_limit_since_sec,
          lastSuccessSec: r.last_success_sec,
          lastError: r.last_error,
          isPaused: r.is_paused === 1,
        }))
      const worst = (['offline', 'error', 'paused'] as const).find((s) =>
        streams.some((st) => st.state === s),
      )
      const state: WalletSyncStatus['state'] =
        forced?.address === w.address
          ? forced.state
          : syncing.has(w.address)
            ? 'syncing'
            : streams.length === 0
              ? 'never'
              : (worst ?? 'up-to-date')
      return {
        address: w.address,
        label: w.label,
        state,
        message: streams.find((s) => s.lastError)?.lastError ?? null,
        streams,
      }
    })
  }

  const local: Record<string, (input: unknown) => Promise<unknown>> = {}
  if (!hasDemoMode) {
    sim = await startSimulator({ seed: 7 })
    runtime = createSyncRuntime({
      sqlite: core.database.sqlite,
      service: singleOriginServiceSettings(sim.url, 'demo', { timeoutMs: 2_000 }),
      rate: 'developer',
      budget: () => ({ dailyCredits: null, monthlyCredits: null }),
      retry: { baseDelayMs: 50, maxDelayMs: 500 },
      emit: (event) => {
        if (event.type === 'progress') emit('sync:progress', event.progress)
        else if (event.type === 'activity') emit('sync:activity', event.notice)
        else if (event.type === 'network') emit('app:network', { state: event.state })
      },
    })
    local['sync:status'] = () => statuses()
    local['sync:start'] = async (input) => {
      const address = (input as { address?: string } | undefined)?.address
      const targets = address ? [address] : (await statuses()).map((s) => s.address)
      for (const a of targets) void syncWallet(a)
    }
    local['sync:cancel'] = async (input) =>
      runtime?.engine.cancel((input as { address?: string } | undefined)?.address)
    local['credits:overview'] = async () => ({
      ...(await summarizeCredits(core.database.db, Date.now(), 30)),
      dailyBudget: null,
      monthlyBudget: null,
    })
    // Settings as the page sees them: the key itself stays here, only its hint goes out.
    let apiKey = options.apiKey ?? null
    const settings = (): AppSettings => ({
      dataSource: apiKey ? 'service' : 'demo',
      walletRestBaseUrl: sim?.url ?? '',
      v0RestBaseUrl: sim?.url ?? '',
      jsonRpcUrl: sim?.url ?? '',
      plan: 'developer',
      customRates: null,
      dailyBudget: null,
      monthlyBudget: null,
      watch: { isWatching: true, minIntervalSec: 60, maxIntervalSec: 3_600 },
      apiKeyHint: apiKey ? `…${apiKey.slice(-4)}` : null,
      keyStorage: apiKey ? 'file-0600' : null,
      dataDir: temp.dir,
    })
    local['settings:get'] = async () => settings()
    local['settings:update'] = async () => settings()
    local['settings:set-api-key'] = async (input) => {
      apiKey = (input as { apiKey: string }).apiKey
      return settings()
    }
    local['settings:clear-api-key'] = async () => {
      apiKey = null
      return settings()
    }
    // A wallet added from the page starts syncing at once, as in the app.
    core.events.subscribe((event, payload) => {
      if (event !== 'watchlist:changed') return
      for (const w of payload as { address: string }[]) {
        void core.database.db
          .selectFrom('sync_streams as s')
          .innerJoin('wallets as w', 'w.id', 's.wallet_id')
          .select('s.stream')
          .where('w.address', '=', w.address)
          .executeTakeFirst()
          .then((row) => {
            if (!row) void syncWallet(w.address)
          })
      }
    })
    for (const profile of DEMO_PROFILES) {
      const address = sim.chain.walletByProfile(profile).address
      await addWatchedWallet(
        core.database.db,
        { address, label: `Demo: ${profile}` },
        Math.floor(Date.now() / 1000),
      )
    }
  }

  const served: Core = {
    ...core,
    async dispatch(channel, input) {
      const handler = local[channel]
      if (handler) return okEnvelope(await handler(input))
      return core.dispatch(channel, input)
    },
  }
  const shell = await startWebShell({ core: served, rendererDir: resolve(BUILT_RENDERER_DIR) })
  if (!hasDemoMode) {
    // First run: the demo wallets start syncing without anyone asking.
    for (const s of await statuses()) void syncWallet(s.address)
  }

  function profileAddress(profile: ProfileId): string {
    // In demo mode the core runs the simulator itself and exposes it; otherwise ours.
    const running = sim ?? (core as Core & { simulator?: RunningSimulator }).simulator
    if (!running) throw new Error('No simulator is running to take profile wallets from.')
    return running.chain.walletByProfile(profile).address
  }

  return {
    core,
    shell,
    sim,
    runtime,
    profileAddress,
    async watchProfile(profile, label) {
      const address = profileAddress(profile)
      const added = await served.dispatch('watchlist:add', { address, label })
      if (!added.ok) throw new Error(added.error.message)
      void served.dispatch('sync:start', { address })
      return address
    },
    async stopService() {
      await sim?.close()
    },
    async stop() {
      runtime?.engine.cancel()
      await shell.close()
      await sim?.close().catch(() => {})
      await core.close()
      temp.remove()
    },
  }
}
