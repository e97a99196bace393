import type { AlertRule } from '@shared/domain/alert-rules'
import type { AlertTrial } from '@shared/ipc/alert-schemas'
import { MAX_TRY_LISTED } from '@shared/ipc/alert-schemas'
import type { Mirror } from '../db/mirror'
import type { RuleMatch } from '../db/stores/alert-store'
import { matchContext } from './alert-evaluator'
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
 * have said: the same matching the evaluator runs on new rows, over the stored past, with
 * the rule's cool-down gathering bursts. Reads the mirror only: it costs no credits.
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
  const gather = cooldownGathering(rule.cooldownSec)
  let matches = 0
  const txIds = await reader.transactionIdsSince(scope, sinceSec)
  for (let i = 0; i < txIds.length; i += BATCH) {
    for (const tx of await reader.transactions(txIds.slice(i, i + BATCH))) {
      const match = await matchTransaction(rule, tx, ctx)
      if (match === null) continue
      matches += 1
      gather(match, tx.blockTimeSec ?? nowSec)
    }
  }
  const isBalanceRule = rule.trigger === 'balance-below' || rule.trigger === 'balance-above'
  const snapshotIds = isBalanceRule ? await reader.snapshotIdsSince(scope, sinceSec) : []
  for (const id of snapshotIds) {
    const snap = await reader.snapshot(id)
    if (snap === null) continue
    const match = await matchSnapshot(rule, snap, ctx)
    if (match === null) continue
    matches += 1
    gather(match, snap.takenAtSec)
  }
  const fired = gather.fired().sort((a, b) => a.atSec - b.atSec)
  return {
    days,
    fired: fired.length,
    matches,
    transactionsExamined: txIds.length,
    snapshotsExamined: snapshotIds.length,
    alerts: fired.slice(0, MAX_TRY_LISTED).map(({ atSec: _atSec, ...alert }) => alert),
  }
}

/** The evaluator's cool-down, on the past's own times: matches within it gather into one alert. */
function cooldownGathering(cooldownSec: number) {
  const alerts: Fired[] = []
  const seen = new Set<string>()
  const lastOf = new Map<string, Fired>()
  const add = (match: RuleMatch, atSec: number): void => {
    if (seen.has(match.dedupeKey)) return
    seen.add(match.dedupeKey)
    const key = match.walletAddress ?? ''
    const last = lastOf.get(key)
    if (cooldownSec > 0 && last && atSec < last.atSec + cooldownSec) {
      last.matchCount += 1
      return
    }
    const fired: Fired = {
      wallet: match.walletAddress,
      signature: match.signature,
      at: new Date(atSec * 1000).toISOString(),
      text: match.text,
      matchCount: 1,
      atSec,
    }
    alerts.push(fired)
    lastOf.set(key, fired)
  }
  return Object.assign(add, { fired: () => alerts })
}
