import { nowSec, systemClock, type Clock } from '@shared/clock'
import { isSnapshotTrigger, type AlertRule } from '@shared/domain/alert-rules'
import type { Mirror } from '../db/mirror'
import type { InboxMatch } from '../db/stores/alert-store'
import type { InboxItem } from '../db/stores/alert-facts-reader'
import { matchSnapshot, matchTransaction, type MatchContext } from './rule-matcher'

/** Inbox items evaluated per transaction of the outbox. */
const BATCH = 500

/** What one evaluation did, for those who show alerts as they fire. */
export interface EvaluationReport {
  /** Alerts written or grown. */
  alertIds: number[]
  /** When the oldest change of the evaluation was written (ms): the longest any waited. */
  oldestWrittenAtMs: number
}

/**
 * Evaluates the alert rules on what sync wrote. The writers record each new transaction
 * and snapshot in the alert inbox with the page itself; this reads the inbox, matches every
 * rule against it (reads of the mirror only: no credits), and writes the alerts and empties
 * the inbox in one transaction (AlertStore.commitEvaluation). Runs after each wallet's
 * sync and at start, one evaluation at a time.
 *
 * @example
 * const evaluator = new AlertEvaluator({ mirror })
 * await evaluator.evaluatePending() // after a sync wrote new transactions
 */
export class AlertEvaluator {
  readonly #mirror: Mirror
  readonly #clock: Clock
  readonly #onFired: ((report: EvaluationReport) => void) | undefined
  #queue: Promise<unknown> = Promise.resolve()

  constructor(options: {
    mirror: Mirror
    clock?: Clock
    /** Told after an evaluation wrote alerts. */
    onFired?: (report: EvaluationReport) => void
  }) {
    this.#mirror = options.mirror
    this.#clock = options.clock ?? systemClock
    this.#onFired = options.onFired
  }

  /** Evaluates everything in the inbox; resolves to the alerts written or grown. */
  evaluatePending(): Promise<number[]> {
    const run = this.#queue.then(() => this.#drain())
    this.#queue = run.catch(() => {})
    return run
  }

  async #drain(): Promise<number[]> {
    const fired: number[] = []
    for (;;) {
      const items = await this.#mirror.alertFacts.pendingInbox(BATCH)
      if (items.length === 0) return fired
      const rules = (await this.#mirror.alertRules.list()).filter((r) => !r.isMuted)
      const matches = rules.length === 0 ? [] : await this.#match(rules, items)
      const now = nowSec(this.#clock)
      const ids = await this.#mirror.alerts.commitEvaluation(
        items.map((i) => i.id),
        matches,
        now,
      )
      fired.push(...ids)
      if (ids.length > 0) {
        this.#onFired?.({
          alertIds: ids,
          oldestWrittenAtMs: Math.min(...items.map((i) => i.writtenAtMs)),
        })
      }
    }
  }

  async #match(rules: readonly AlertRule[], items: readonly InboxItem[]): Promise<InboxMatch[]> {
    const reader = this.#mirror.alertFacts
    const ctx = await matchContext(this.#mirror)
    const matches: InboxMatch[] = []
    const inboxOfTx = new Map<number, number>()
    for (const i of items) if (i.transactionId !== null) inboxOfTx.set(i.transactionId, i.id)
    for (const tx of await reader.transactions([...inboxOfTx.keys()])) {
      const inboxId = inboxOfTx.get(tx.transactionId) as number
      for (const rule of rules) {
        const match = await matchTransaction(rule, tx, ctx)
        if (match) matches.push({ ...match, inboxId })
      }
    }
    if (rules.some((r) => isSnapshotTrigger(r.trigger))) {
      for (const item of items) {
        if (item.snapshotId === null) continue
        const snap = await reader.snapshot(item.snapshotId)
        if (snap === null) continue
        for (const rule of rules) {
          const match = await matchSnapshot(rule, snap, ctx)
          if (match) matches.push({ ...match, inboxId: item.id })
        }
      }
    }
    return matches
  }
}

/** The context rules are matched in: tags, wallets, and a per-evaluation token cache. */
export async function matchContext(mirror: Mirror): Promise<MatchContext> {
  const reader = mirror.alertFacts
  const named = new Map<string, Promise<ReadonlySet<string>>>()
  return {
    reader,
    tags: await reader.tagsByWallet(),
    wallets: await reader.wallets(),
    mintsNamed: (token) => {
      let found = named.get(token)
      if (!found) named.set(token, (found = reader.mintsNamed(token)))
      return found
    },
  }
}
