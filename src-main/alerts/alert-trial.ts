import type { AlertRule } from '@shared/domain/alert-rules'
import type { AlertTrial } from '@shared/ipc/alert-schemas'
import { MAX_TRY_LISTED } from '@shared/ipc/alert-schemas'
import type { Mirror } from '../db/mirror'
import type { RuleMatch } from '../db/stores/alert-store'
import { matchContext } from './alert-evaluator'
import { isQuietBy, placeMatch } from '@shared/domain/alert-cooldown'
import { isSnapshotTrigger } from '@shared/domain/alert-rules'
import { matchSnapshot, matchTransaction, walletsCovered } from './rule-matcher'

const DAY_SEC = 86_400
/** Transactions read per batch while trying a rule. */
const BATCH = 500

interface Fired {
  wallet: string | null
  signature: string | null
  at: string
  text: string
  matchCount: number
  atSec: number
}

/**
 * How often a rule would have fired over the mirror's last `days` days, and what it would
 * have said: the same matching the evaluator runs on new rows, over the stored past, each
 * match placed as a live run places it (its cool-down, a cluster's window), with the past's
 * own times for "now". Reads the mirror only: it costs no credits.
 *
 * @example
 * const trial = await tryRule(mirror, rule, 30, nowSec)
 * trial.fired // 4
 */
export async function tryRule(
  mirror: Mirror,
  rule: AlertRule,
  days: number,
  nowSec: number,
): Promise<AlertTrial> {
  const reader = mirror.alertFacts
  const ctx = await matchContext(mirror)
  const scope = walletsCovered(rule, ctx)
  const sinceSec = nowSec - days * DAY_SEC
  const outbox = pastOutbox()
  let matches = 0
  const txIds = isSnapshotTrigger(rule.trigger)
    ? []
    : await reader.transactionIdsSince(scope, sinceSec)
  for (let i = 0; i < txIds.length; i += BATCH) {
    for (const tx of await reader.transactions(txIds.slice(i, i + BATCH))) {
      const match = await matchTransaction(rule, tx, ctx)
      if (match === null) continue
      if (outbox.add(match, tx.blockTimeSec ?? nowSec)) matches += 1
    }
  }
  const snapshotIds = isSnapshotTrigger(rule.trigger)
    ? await reader.snapshotIdsSince(scope, sinceSec)
    : []
  for (const id of snapshotIds) {
    const snap = await reader.snapshot(id)
    if (snap === null) continue
    const match = await matchSnapshot(rule, snap, ctx)
    if (match === null) continue
    if (outbox.add(match, snap.takenAtSec)) matches += 1
  }
  const fired = outbox.alerts().sort((a, b) => a.atSec - b.atSec)
  return {
    days,
    fired: fired.length,
    matches,
    transactionsExamined: txIds.length,
    snapshotsExamined: snapshotIds.length,
    alerts: fired.slice(0, MAX_TRY_LISTED).map(({ atSec: _atSec, ...alert }) => alert),
  }
}

/**
 * The outbox a live run would have written, in memory: one alert per cause, a quiet key's
 * window kept, and each match placed by the rule's cool-down (placeMatch, as AlertStore
 * places it). Resolves `add` to whether the match counted (not a repeat, not kept quiet).
 */
function pastOutbox() {
  const alerts: Fired[] = []
  const causes = new Set<string>()
  const latestOf = new Map<string, Fired>()
  const quietAt = new Map<string, number[]>()
  const add = (match: RuleMatch, atSec: number): boolean => {
    if (causes.has(match.dedupeKey)) return false
    if (match.quiet !== undefined) {
      const fired = quietAt.get(match.quiet.key) ?? []
      if (isQuietBy(fired, match.quiet.atSec, match.quiet.windowSec)) return false
      quietAt.set(match.quiet.key, [...fired, match.quiet.atSec])
    }
    causes.add(match.dedupeKey)
    const key = match.walletAddress ?? ''
    const latest = latestOf.get(key)
    const place = placeMatch(
      match.cooldownSec,
      atSec,
      latest ? { deliverAfterSec: latest.atSec } : null,
    )
    if (place.into === 'gathering' && latest !== undefined) {
      // The gathered alert says the latest match.
      Object.assign(latest, {
        signature: match.signature,
        text: match.text,
        matchCount: latest.matchCount + 1,
      })
      return true
    }
    const sentSec = place.into === 'new' ? place.deliverAfterSec : atSec
    const fired: Fired = {
      wallet: match.walletAddress,
      signature: match.signature,
      at: new Date(sentSec * 1000).toISOString(),
      text: match.text,
      matchCount: 1,
      atSec: sentSec,
    }
    alerts.push(fired)
    latestOf.set(key, fired)
    return true
  }
  return { add, alerts: () => alerts }
}
