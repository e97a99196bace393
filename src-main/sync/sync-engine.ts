import { nowSec, systemClock, type Clock } from '@shared/clock'
import {
  getOperation,
  type OperationInput,
  type OperationName,
  type OperationOutput,
} from '@shared/api/operations'
import { creditsPerCall } from '@shared/api/prices'
import type { ConfirmedTransaction } from '@shared/api/rpc-transaction'
import type {
  ActivityNotice,
  StreamOutcome,
  StreamState,
  SyncProgress,
  WalletSyncOutcome,
} from '@shared/ipc/sync-schemas'
import { STREAM_NAMES, type MirrorWriter, type StreamName } from '../db/mirror-writer'
import type { HoldingsStore } from '../db/stores/holdings-store'
import type { KeptAsideCount, KeptAsideStore } from '../db/stores/kept-aside-store'
import type { SyncStateStore } from '../db/stores/sync-state-store'
import { isHistoryWhole } from '../db/queries/sync-status'
import type { WatchStateStore } from '../db/stores/watch-state-store'
import type { MintStore } from '../db/stores/mint-store'
import type { NamesStore } from '../db/stores/names-store'
import type { ServiceClient } from '../service/service-client'
import { InvalidResponseError, ServiceError } from '../service/service-errors'
import { countText } from '@shared/domain/display-text'
import { callAttribution } from './call-attribution'
import { UnreadableAnswerError } from './retry-policy'
import { writeReadableKeptAside } from './kept-aside-reread'
import type { HistoryLoads } from './history-loads'
import { assertMaySpend } from './spender'
import { fillUnknownMints } from './mint-metadata'
import { accountsLeftBy, unwatchedAtHistory, watchHeldMints } from './account-learning'
import { DEFAULT_NAMES_REFRESH_SEC, fillCounterpartyNames, fillWalletNames } from './wallet-names'
import type { WalletCall } from './service-caller'
import { BudgetExceededError, type CreditMeter } from './credit-meter'
import { OfflineError, type RateShaper } from './rate-shaper'
import { syncBalances } from './streams/balances-stream'
import {
  earlierMissing,
  syncChange,
  type ChangeEvidence,
  type ChangeSyncResult,
  type MissingSince,
} from './streams/change-stream'
import { syncCompressedSignatures } from './streams/compressed-signatures-stream'
import { syncHistory } from './streams/history-stream'
import type {
  HistoryDepth,
  HistoryReach,
  MissingBelowNewest,
  StreamContext,
  StreamProgress,
  StreamResult,
} from './streams/stream-context'
import { syncTransfers } from './streams/transfers-stream'

/** What the engine tells the shells. */
export type SyncEvent =
  | { type: 'progress'; progress: SyncProgress }
  | {
      type: 'wallet-state'
      address: string
      state: 'syncing' | 'done'
      outcome?: WalletSyncOutcome
    }
  | { type: 'activity'; notice: ActivityNotice }
  | { type: 'network'; state: 'online' | 'offline' }

export type { StreamOutcome, WalletSyncOutcome }

export interface SyncEngineOptions {
  /** Where pages and cursors are written. */
  writer: MirrorWriter
  /** The mint cache, filled for mints the history names but no snapshot did. */
  mints: MintStore
  /** The latest holdings read back: a change's new snapshot carries its prices and names. */
  holdings: HoldingsStore
  /** Where the history's newest key stands (a change's newest key only moves forward). */
  syncState: SyncStateStore
  /**
   * Watching's accounts: the token accounts a written transaction or balances answer shows
   * as the wallet's are watched from that write (account-learning.ts). Not learned without.
   */
  watchState?: WatchStateStore
  /** Names of the wallet, its counterparties and its funder; not asked for when absent. */
  names?: NamesStore
  /** How long an asked name stays fresh (default monthly). */
  namesRefreshSec?: () => Promise<number>
  client: ServiceClient
  shaper: RateShaper
  meter: CreditMeter
  emit?: (event: SyncEvent) => void
  /** Time for the mirror's timestamps (the system clock unless a test drives it). */
  clock?: Clock
  /**
   * Runs once a wallet's streams, mints and names are written, before "done" is told: the
   * alert rules evaluate what the run wrote. Its failure fails no stream; what it has not
   * seen stays in the alert inbox for the next run.
   */
  afterWalletWritten?: (address: string) => Promise<void>
  /** Told of every stream failure (health: a full disk or a locked database stops all). */
  onStreamFailed?: (error: unknown) => void
  /**
   * The items the edge kept aside: each wallet's sync reads its own again first (a version
   * that reads them writes them), and is told after each wallet what is kept aside now.
   */
  keptAside?: KeptAsideStore
  onKeptAside?: (counts: KeptAsideCount[]) => void
  /**
   * Prices a first sync or a load of older history before it starts, and refuses one that
   * asks first (more than a tenth of what is left this month) and was not agreed to.
   */
  loads?: HistoryLoads
}

/** Options of one wallet's sync. */
export interface SyncWalletOptions {
  /** Streams to run; all by default. */
  streams?: readonly StreamName[]
  signal?: AbortSignal
  /**
   * What watching saw move. History and transfers are then first synced from the moved
   * accounts' new transactions (change-stream.ts); the streams run only if that declines.
   */
  change?: ChangeEvidence
  /**
   * A load of older history (`sync --deeper`): history, then the streams that follow it,
   * run only their backfill, on past complete rows down to this depth; every call is in
   * the ledger as OLDER_HISTORY_PURPOSE.
   */
  older?: { depth: HistoryDepth }
  /**
   * Watching's full check found transactions the mirror lacks below its newest item: the
   * history and transfers streams read from below them.
   */
  missingSince?: MissingSince
}

/** The ledger's name for the calls of a load of older history, apart from routine syncing. */
export const OLDER_HISTORY_PURPOSE = 'older-history'

/** The streams that go back as far as the stored history reaches ("their transfers"). */
const FOLLOWS_HISTORY: readonly StreamName[] = [
  'transfers',
  'compressed-owner',
  'compressed-token-owner',
]

/** The streams a change sync answers together. */
const CHANGE_STREAMS: readonly StreamName[] = ['history', 'transfers']

const STATE_RANK: Record<StreamState, number> = {
  idle: 0,
  ok: 1,
  syncing: 2,
  cancelled: 3,
  paused: 4,
  error: 5,
  offline: 6,
  budget: 7,
}

/** Whom a call's ledger row names: the wallet, the stream or purpose, and who hears its cost. */
interface CallPayer {
  address: string | null
  stream: string | null
  onCredits?: (credits: number) => void
}

/**
 * The sync engine: runs a wallet's streams against the service through the rate shaper
 * and the credit meter, writing each page with its cursor in one transaction. Policy
 * lives here; storage in db/, the wire in service/.
 */
export class SyncEngine {
  readonly writer: MirrorWriter
  readonly #options: SyncEngineOptions
  readonly #running = new Map<string, AbortController>()
  /** Each running wallet's stop: set, it starts no new call while calls under way finish. */
  readonly #runStops = new Map<string, RunStop>()
  readonly #runs = new Set<Promise<unknown>>()
  readonly #runOf = new Map<string, Promise<unknown>>()
  readonly #nowSec: () => number
  readonly #nowMs: () => number
  /** Mints DAS had no price for, when asked: not asked again for a day (das-prices.ts). */
  readonly #unpricedByDas = new Map<string, number>()
  /** Mints DAS had no name for, when asked: not asked again for a day (mint-metadata.ts). */
  readonly #unnamedByDas = new Map<string, number>()

  constructor(options: SyncEngineOptions) {
    this.#options = options
    this.writer = options.writer
    const clock = options.clock ?? systemClock
    this.#nowSec = () => nowSec(clock)
    this.#nowMs = () => clock.nowMs()
  }

  /** Whether a wallet is syncing now. */
  isSyncing(address: string): boolean {
    return this.#running.has(address)
  }

  /** Addresses syncing now. */
  syncingAddresses(): string[] {
    return [...this.#running.keys()]
  }

  /** Cancels one wallet's sync, or every running sync. Committed pages stay. */
  cancel(address?: string): void {
    for (const [key, controller] of this.#running) {
      if (address === undefined || key === address) controller.abort(new CancelledError())
    }
  }

  /**
   * Stops one wallet's running sync after its pages in flight (the person paused it): no
   * new call starts, the calls under way finish and are written, since they are paid for.
   * Its streams end as cancelled; resolves when the run has ended.
   */
  async finishPagesAndStopWallet(address: string): Promise<void> {
    const run = this.#runStops.get(address)
    if (!run) return
    run.stopError ??= new CancelledError()
    await this.#runOf.get(address)?.catch(() => {})
  }

  /**
   * Stops every running sync after the pages in flight: no new call starts, and the
   * calls under way finish and are written (they are paid for; aborting them would waste
   * their credits). Streams end as cancelled; resolves when no sync runs.
   */
  async finishPagesAndStop(): Promise<void> {
    for (const run of this.#runStops.values()) run.stopError ??= new CancelledError()
    while (this.#runs.size > 0) await Promise.allSettled([...this.#runs])
  }

  /**
   * Syncs one watched wallet: its streams run side by side, each stopping on its own
   * error (a schema mismatch pauses only that stream). A budget stop or cancellation
   * stops them all.
   *
   * @example
   * const outcome = await engine.syncWallet('86xC…2MMY')
   * outcome.state // 'ok'
   */
  async syncWallet(address: string, options: SyncWalletOptions = {}): Promise<WalletSyncOutcome> {
    if (this.#running.has(address)) throw new Error(`Wallet ${address} is already syncing.`)
    const run = this.#syncWallet(address, options)
    const tracked = run.finally(() => {
      this.#runs.delete(tracked)
      this.#runOf.delete(address)
    })
    // The caller gets the failure from `run`; the tracking copy must not report it again.
    tracked.catch(() => {})
    this.#runs.add(tracked)
    this.#runOf.set(address, tracked)
    return run
  }

  async #syncWallet(address: string, options: SyncWalletOptions): Promise<WalletSyncOutcome> {
    const controller = new AbortController()
    const onOuterAbort = (): void =>
      controller.abort(options.signal?.reason ?? new CancelledError())
    options.signal?.addEventListener('abort', onOuterAbort, { once: true })
    // Claimed before the first await, so two callers cannot start the same wallet.
    this.#running.set(address, controller)
    const run: RunStop = {}
    this.#runStops.set(address, run)
    try {
      const walletId = await this.writer.walletId(address)
      if (walletId === null) throw new Error(`Wallet ${address} is not on the watchlist.`)
      await this.#assertMayStart(walletId, address, options)
      this.#emit({ type: 'wallet-state', address, state: 'syncing' })
      const streams: StreamName[] = []
      let hasLookedUpPages = false
      for (const s of options.streams ?? STREAM_NAMES) {
        const row = await this.writer.stream(walletId, s)
        if (row.isPaused) continue
        streams.push(s)
        // Pages a look-up handed over ("watch this wallet") name mints no sync has named yet.
        if ((s === 'history' || s === 'transfers') && row.topReadAtSec !== null)
          hasLookedUpPages = true
      }
      await this.#writeReadableKeptAside(walletId, streams)
      const quick =
        options.change && streams.includes('history')
          ? await this.#syncChange(walletId, address, options.change, controller, run, streams)
          : null
      const rest = quick?.answered ? streams.filter((s) => !quick.covered.includes(s)) : streams
      const missing = await this.#missingBelowNewest(
        walletId,
        earlierMissing(options.missingSince, quick?.answered === false ? quick.missingSince : null),
      )
      const outcomes = [
        ...(quick?.answered ? quick.outcomes : []),
        ...(await this.#runStreams(walletId, address, rest, controller, run, {
          older: options.older,
          missing,
        })),
      ].map((o) =>
        // A declined change sync's calls are the history stream's cost.
        quick && !quick.answered && o.stream === 'history'
          ? { ...o, pages: o.pages + quick.calls, credits: o.credits + quick.credits }
          : o,
      )
      if (!controller.signal.aborted && run.stopError === undefined)
        await this.#learnAccounts(walletId, address, quick, outcomes, controller.signal)
      const state = outcomes.reduce<StreamState>(
        (worst, o) => (STATE_RANK[o.state] > STATE_RANK[worst] ? o.state : worst),
        'ok',
      )
      const newTransactions = outcomes.find((o) => o.stream === 'history')?.newItems ?? 0
      const hasNewMints =
        hasLookedUpPages ||
        outcomes.some((o) => (o.stream === 'history' || o.stream === 'transfers') && o.newItems > 0)
      if (hasNewMints && !controller.signal.aborted && run.stopError === undefined) {
        // Naming new mints is a courtesy to the views: its failure fails no stream.
        await fillUnknownMints(
          (operation, input, signal) =>
            this.#callForRun(address, options, operation, input, signal),
          this.#options.mints,
          walletId,
          this.#nowSec(),
          controller.signal,
          this.#unnamedByDas,
        ).catch(() => 0)
      }
      const transfers = outcomes.find((o) => o.stream === 'transfers')
      if (this.#options.names && transfers?.state === 'ok' && !controller.signal.aborted) {
        // Names, like mints, are a courtesy to the views: their failure fails no stream.
        const names = this.#options.names
        const call: WalletCall = (operation, input, signal) =>
          this.#callForRun(address, options, operation, input, signal)
        const asOf = { nowSec: this.#nowSec(), refreshSec: await this.#namesRefreshSec() }
        await fillWalletNames(call, names, {
          walletId,
          address,
          ...asOf,
          signal: controller.signal,
        })
          .then(() =>
            fillCounterpartyNames(call, names, {
              ...asOf,
              fullBatchesOnly: true,
              signal: controller.signal,
            }),
          )
          .catch(() => 0)
      }
      await this.#options.afterWalletWritten?.(address).catch(() => {})
      await this.#tellKeptAside()
      await this.#options.loads?.afterRun(walletId).catch(() => {})
      // The outcome is final only once every call it made is in the ledger.
      await this.#options.meter.idle()
      const outcome: WalletSyncOutcome = { address, streams: outcomes, state, newTransactions }
      // No longer running when listeners hear "done", so a status read then says so.
      this.#running.delete(address)
      this.#emit({ type: 'wallet-state', address, state: 'done', outcome })
      return outcome
    } finally {
      options.signal?.removeEventListener('abort', onOuterAbort)
      this.#running.delete(address)
      this.#runStops.delete(address)
    }
  }

  /**
   * A run that backfills the history (a first sync, or a load of older history) starts only
   * if it does not ask first, or the person agreed to it (HistoryLoads.assertMayStart).
   */
  async #assertMayStart(
    walletId: number,
    address: string,
    options: SyncWalletOptions,
  ): Promise<void> {
    const loads = this.#options.loads
    if (!loads) return
    const history = await this.writer.stream(walletId, 'history')
    const isFirstSync =
      options.older === undefined &&
      (options.streams ?? STREAM_NAMES).includes('history') &&
      !history.isBackfillComplete &&
      !history.isPaused
    await loads.assertMayStart(walletId, address, {
      isFirstSync,
      ...(options.older ? { older: options.older.depth } : {}),
    })
  }

  /**
   * Where the streams read from when transactions the mirror lacks lie below its newest
   * item: history after the newest stored one below them. Null when none is stored below
   * them (they are older than what the mirror keeps) or nothing is missing.
   */
  async #missingBelowNewest(
    walletId: number,
    since: MissingSince | null,
  ): Promise<MissingBelowNewest | undefined> {
    if (since === null) return undefined
    const after = await this.#options.syncState.newestBelowSlot(walletId, since.slot)
    return after === null ? undefined : { historyAfter: after, sinceSec: since.timestampSec }
  }

  /**
   * Watches the token accounts this run's writes show as the wallet's: those its change's
   * transactions left (their amounts replace the look's when the change was answered from
   * them: they are newer), and those of mints a balances answer holds that no watched
   * account holds (listed by mint, 1 credit each, counted as the balances stream's). Like
   * naming mints, a courtesy that fails no stream: the next listing finds what it missed.
   */
  async #learnAccounts(
    walletId: number,
    address: string,
    change: { answered: boolean; transactions: readonly ConfirmedTransaction[] } | null,
    outcomes: StreamOutcome[],
    signal: AbortSignal,
  ): Promise<void> {
    const store = this.#options.watchState
    if (!store) return
    const isOk = (stream: StreamName) =>
      outcomes.find((o) => o.stream === stream && o.state === 'ok')
    try {
      if (change && change.transactions.length > 0 && isOk('history'))
        await store.learnTokenAccounts(
          walletId,
          await unwatchedAtHistory(store, walletId, accountsLeftBy(address, change.transactions)),
          change.answered,
        )
      const balances = isOk('balances')
      if (!balances || balances.pages === 0) return
      const holdings = await this.#options.holdings.latest(walletId)
      if (holdings === null) return
      const calls = await watchHeldMints(
        store,
        walletId,
        address,
        holdings,
        (operation, input, s) => this.#call(operation, input, { address, stream: 'balances' }, s),
        signal,
      )
      balances.credits +=
        calls * creditsPerCall(getOperation('rpc.getTokenAccountsByOwner').priceKey)
    } catch {
      // Left to the next listing of the wallet's accounts.
    }
  }

  /**
   * Names the counterparties still unnamed after a run over the watchlist (the batches
   * short of 100 that each wallet's sync left for later). Resolves to the calls made.
   */
  async nameCounterparties(signal?: AbortSignal): Promise<number> {
    const names = this.#options.names
    if (!names) return 0
    return fillCounterpartyNames(
      (operation, input, s) => this.callFor(null, operation, input, s),
      names,
      {
        nowSec: this.#nowSec(),
        refreshSec: await this.#namesRefreshSec(),
        fullBatchesOnly: false,
        ...(signal ? { signal } : {}),
      },
    )
  }

  /** Writes the wallet's kept-aside items this version can read; a failure fails no stream. */
  async #writeReadableKeptAside(walletId: number, streams: readonly StreamName[]): Promise<void> {
    const store = this.#options.keptAside
    if (!store) return
    await writeReadableKeptAside(this.writer, store, walletId, streams, this.#nowSec()).catch(
      () => 0,
    )
  }

  /** Tells health what is kept aside now, after a wallet's pages are written. */
  async #tellKeptAside(): Promise<void> {
    const { keptAside, onKeptAside } = this.#options
    if (!keptAside || !onKeptAside) return
    const counts = await keptAside.counts().catch(() => null)
    if (counts !== null) onKeptAside(counts)
  }

  async #namesRefreshSec(): Promise<number> {
    return (await this.#options.namesRefreshSec?.()) ?? DEFAULT_NAMES_REFRESH_SEC
  }

  /** Clears a stream's pause and error so the next sync runs it again. */
  async retryStream(address: string, stream: StreamName): Promise<void> {
    const walletId = await this.writer.walletId(address)
    if (walletId === null) return
    await this.writer.patchStream(walletId, stream, {
      isPaused: false,
      lastError: null,
      state: 'idle',
    })
  }

  /**
   * Syncs history and transfers of a change from its transactions. Answered: the two
   * streams' outcomes (a failure, such as the budget, counts as answered: the streams
   * would stop the same way). Declined: the calls it made, for the history stream's tally.
   */
  async #syncChange(
    walletId: number,
    address: string,
    change: ChangeEvidence,
    controller: AbortController,
    run: RunStop,
    asked: readonly StreamName[],
  ): Promise<
    (
      | { answered: true; outcomes: StreamOutcome[]; covered: readonly StreamName[] }
      | { answered: false; calls: number; credits: number; missingSince: MissingSince | null }
    ) & { transactions: readonly ConfirmedTransaction[] }
  > {
    let result: ChangeSyncResult | null = null
    const stores = {
      mints: this.#options.mints,
      holdings: this.#options.holdings,
      syncState: this.#options.syncState,
    }
    const outcome = await this.#runStream(
      walletId,
      address,
      'history',
      controller,
      run,
      async (ctx) => {
        result = await syncChange(ctx, change, stores, asked.includes('balances'))
        return result.answered ? result.history : null
      },
    )
    const answer = result as ChangeSyncResult | null
    const transactions = answer?.transactions ?? []
    if (answer !== null && !answer.answered)
      return {
        answered: false,
        calls: answer.calls,
        credits: outcome.credits,
        missingSince: answer.missingSince,
        transactions,
      }
    if (answer === null)
      return { answered: true, outcomes: [outcome], covered: CHANGE_STREAMS, transactions }
    // Told only of the streams asked for (a compressed change asks for no transfers).
    const written = [answer.transfers, ...(answer.balances ? [answer.balances] : [])].filter((w) =>
      asked.includes(w.stream),
    )
    for (const w of written)
      await this.writer.patchStream(walletId, w.stream, {
        state: 'ok',
        lastError: null,
        topReadAtSec: null,
      })
    return {
      answered: true,
      outcomes: [outcome, ...written.map((w) => ({ ...w, state: 'ok' as const, credits: 0 }))],
      covered: [...CHANGE_STREAMS, ...(answer.balances ? (['balances'] as const) : [])],
      transactions,
    }
  }

  /**
   * Runs the streams side by side; but while the history's reach can move in this run (its
   * backfill under way, or a load of older history), the streams that follow it start once
   * the history has run, and go back as far as it got.
   */
  async #runStreams(
    walletId: number,
    address: string,
    streams: readonly StreamName[],
    controller: AbortController,
    run: RunStop,
    { older, missing }: { older?: SyncWalletOptions['older']; missing?: MissingBelowNewest },
  ): Promise<StreamOutcome[]> {
    const start = (stream: StreamName): Promise<StreamOutcome> =>
      this.#runStream(
        walletId,
        address,
        stream,
        controller,
        run,
        async (ctx) => {
          const followed = FOLLOWS_HISTORY.includes(stream)
            ? { historyReach: await this.#historyReach(walletId, stream, depth) }
            : {}
          const asked = { ...(older ? { older } : {}), ...(missing ? { missing } : {}) }
          return runStream({ ...ctx, ...followed, ...asked }, stream)
        },
        older ? OLDER_HISTORY_PURPOSE : stream,
      )
    const history = await this.writer.stream(walletId, 'history')
    const depth = older?.depth ?? {
      maxTransactions: history.depthLimitCount,
      sinceSec: history.depthLimitSinceSec,
    }
    // Without a depth the whole history is wanted, and with it every transfer: no waiting.
    const waits =
      streams.includes('history') &&
      isBounded(depth) &&
      (older !== undefined || !history.isBackfillComplete)
    if (!waits) return Promise.all(streams.map(start))
    const leading = streams.filter((s) => !FOLLOWS_HISTORY.includes(s))
    const leadingRuns = leading.map(start)
    await leadingRuns[leading.indexOf('history')]
    const following = streams.filter((s) => FOLLOWS_HISTORY.includes(s))
    const followingRuns = following.map(start)
    const outcomes = await Promise.all([...leadingRuns, ...followingRuns])
    const order = [...leading, ...following]
    return streams.map((s) => outcomes[order.indexOf(s)] as StreamOutcome)
  }

  /**
   * How far back the stored history reaches, for a stream that follows it; no bound when
   * the history is held, or wanted, whole (`depth` has no limit).
   */
  async #historyReach(
    walletId: number,
    stream: StreamName,
    depth: HistoryDepth,
  ): Promise<HistoryReach> {
    const history = await this.writer.stream(walletId, 'history')
    if (!isBounded(depth) || isHistoryWhole(history))
      return { sinceSec: null, isHistoryComplete: true, isReached: false }
    const { syncState } = this.#options
    const sinceSec = await syncState.oldestStoredSec(walletId, 'history')
    const isHistoryComplete = history.isBackfillComplete
    // Nothing held yet: nothing of this stream's past is asked for until there is.
    if (sinceSec === null) return { sinceSec: null, isHistoryComplete, isReached: true }
    const own = await syncState.oldestStoredSec(walletId, stream as 'transfers')
    return { sinceSec, isHistoryComplete, isReached: own !== null && own < sinceSec }
  }

  /**
   * Runs one stream (or `runner` in its name: null from it means it declined, and the
   * stream is left as it was for its own run).
   */
  async #runStream(
    walletId: number,
    address: string,
    stream: StreamName,
    controller: AbortController,
    run: RunStop,
    runner: (ctx: StreamContext) => Promise<StreamResult | null> = (ctx) => runStream(ctx, stream),
    /** The ledger's name for the stream's calls: the stream's own unless the run has one. */
    ledgerName: string = stream,
  ): Promise<StreamOutcome> {
    let credits = 0
    const ctx: StreamContext = {
      walletId,
      address,
      writer: this.writer,
      signal: controller.signal,
      nowSec: this.#nowSec,
      newsAtMs: this.#nowMs,
      unpricedByDas: this.#unpricedByDas,
      call: (operation, input) => {
        if (run.stopError !== undefined) return Promise.reject(run.stopError)
        const promise = this.#call(
          operation,
          input,
          { address, stream: ledgerName },
          controller.signal,
        )
        credits += creditsPerCall(getOperation(operation).priceKey)
        return promise
      },
      report: (progress: StreamProgress) =>
        this.#emit({ type: 'progress', progress: { address, ...progress, creditsSpent: credits } }),
    }
    try {
      await this.writer.patchStream(walletId, stream, { state: 'syncing' })
      const result = await runner(ctx)
      if (result === null) return { stream, state: 'ok', pages: 0, newItems: 0, credits }
      // A top a look-up read serves one sync: the next one reads the top again.
      await this.writer.patchStream(walletId, stream, {
        state: 'ok',
        lastError: null,
        topReadAtSec: null,
      })
      ctx.report({
        stream,
        phase: 'done',
        pages: result.pages,
        items: result.newItems,
        estimatedRemainingPages: 0,
        estimatedRemainingCredits: 0,
      })
      return { stream, state: 'ok', pages: result.pages, newItems: result.newItems, credits }
    } catch (error) {
      this.#options.onStreamFailed?.(error)
      const { state, message, stopsAll } = describeStreamFailure(error, stream, address)
      // A budget stop starts no new call in any stream, but lets calls under way finish:
      // they fit the budget and are paid for, so aborting them would waste their credits
      // (and the ledger could not know whether the service had charged them).
      if (stopsAll) run.stopError ??= error
      await this.writer.patchStream(walletId, stream, {
        state,
        lastError: state === 'cancelled' ? null : message,
        ...(state === 'paused' ? { isPaused: true } : {}),
      })
      return { stream, state, pages: 0, newItems: 0, credits, error: message }
    }
  }

  /**
   * Calls the service for a wallet through the rate shaper and the credit meter (the
   * ledger row names the wallet; null for watching's looks across many wallets).
   */
  callFor<N extends OperationName>(
    address: string | null,
    operation: N,
    input: OperationInput<N>,
    signal?: AbortSignal,
  ): Promise<OperationOutput<N>> {
    return this.#callRecorded(operation, input, { address, stream: null }, signal)
  }

  /** A call for a wallet's run beside its streams (mints, names): a load of older history's are its own. */
  #callForRun<N extends OperationName>(
    address: string,
    options: SyncWalletOptions,
    operation: N,
    input: OperationInput<N>,
    signal?: AbortSignal,
  ): Promise<OperationOutput<N>> {
    const stream = options.older ? OLDER_HISTORY_PURPOSE : null
    return this.#callRecorded(operation, input, { address, stream }, signal)
  }

  /**
   * Calls the service for a purpose other than a wallet's sync (the look-up desk), paced,
   * retried and budgeted like a sync's calls; the ledger row names the purpose as its
   * stream, and the wallet when the call is about one.
   */
  callAs<N extends OperationName>(
    payer: { address: string | null; purpose: string; onCredits?: (credits: number) => void },
    operation: N,
    input: OperationInput<N>,
    signal?: AbortSignal,
  ): Promise<OperationOutput<N>> {
    const { address, purpose, onCredits } = payer
    return this.#callRecorded(
      operation,
      input,
      { address, stream: purpose, ...(onCredits ? { onCredits } : {}) },
      signal,
    )
  }

  /**
   * An on-demand call answers only once its ledger row is written (the ledger is written
   * off the main thread), so whatever the person reads next — the answer's credits, the
   * credits page — already counts it.
   */
  async #callRecorded<N extends OperationName>(
    operation: N,
    input: OperationInput<N>,
    payer: CallPayer,
    signal?: AbortSignal,
  ): Promise<OperationOutput<N>> {
    let answer: OperationOutput<N>
    try {
      answer = await this.#call(operation, input, payer, signal)
    } catch (error) {
      await this.#options.meter.idle().catch(() => undefined)
      throw error
    }
    await this.#options.meter.idle()
    return answer
  }

  #call<N extends OperationName>(
    operation: N,
    input: OperationInput<N>,
    payer: CallPayer,
    signal?: AbortSignal,
  ): Promise<OperationOutput<N>> {
    assertMaySpend(operation)
    const op = getOperation(operation)
    return this.#options.shaper.run(
      op.endpointClass,
      async (attemptSignal) => {
        const release = await this.#options.meter.reserve(creditsPerCall(op.priceKey))
        try {
          return await callAttribution.run(
            {
              walletAddress: payer.address,
              stream: payer.stream,
              ...(payer.onCredits ? { onCredits: payer.onCredits } : {}),
            },
            () =>
              this.#options.client.call(
                operation,
                input,
                attemptSignal ? { signal: attemptSignal } : {},
              ),
          )
        } finally {
          release()
        }
      },
      signal,
    )
  }

  #emit(event: SyncEvent): void {
    this.#options.emit?.(event)
  }
}

/** Whether a depth stops short of the history's start (a count or a date). */
function isBounded(depth: HistoryDepth): boolean {
  return depth.maxTransactions !== null || depth.sinceSec !== null
}

/** What stops every stream of one wallet's run: set by the first budget stop. */
interface RunStop {
  stopError?: unknown
}

/** Raised into streams when the user cancels. */
class CancelledError extends Error {
  override name = 'CancelledError'
  constructor() {
    super('Sync cancelled.')
  }
}

function runStream(ctx: StreamContext, stream: StreamName): Promise<StreamResult> {
  switch (stream) {
    case 'history':
      return syncHistory(ctx)
    case 'transfers':
      return syncTransfers(ctx)
    case 'balances':
      return syncBalances(ctx)
    case 'compressed-owner':
    case 'compressed-token-owner':
      return syncCompressedSignatures(ctx, stream)
  }
}

/**
 * Turns a stream's failure into its state and a message in plain words. Bad data pauses
 * just that stream, naming operation, wallet and field (ARCHITECTURE, "Data rules").
 */
function describeStreamFailure(
  error: unknown,
  stream: StreamName,
  address: string,
): { state: StreamState; message: string; stopsAll: boolean } {
  if (
    error instanceof CancelledError ||
    (error instanceof ServiceError && error.name === 'AbortedError')
  ) {
    return { state: 'cancelled', message: 'Cancelled.', stopsAll: false }
  }
  if (error instanceof BudgetExceededError)
    return { state: 'budget', message: error.message, stopsAll: true }
  if (error instanceof OfflineError)
    return { state: 'offline', message: error.message, stopsAll: false }
  const unreadable = error instanceof UnreadableAnswerError ? error.answer : error
  if (unreadable instanceof InvalidResponseError && unreadable.fieldPath !== undefined) {
    const expected =
      typeof unreadable.details.expected === 'string'
        ? `: expected ${unreadable.details.expected}`
        : ''
    const asked =
      error instanceof UnreadableAnswerError
        ? `answered ${countText(error.attempts, 'time')}, with backoff, `
        : 'sent '
    // Not paused: the service's answers vary, and one it cannot read stops nothing.
    return {
      state: 'error',
      message:
        `${unreadable.operation} ${asked}data Heliograph cannot read for wallet ${address} ` +
        `(field ${unreadable.fieldPath}${expected}). Nothing from it was stored; the next sync of the ${stream} stream asks again.`,
      stopsAll: false,
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { state: 'error', message, stopsAll: false }
}
