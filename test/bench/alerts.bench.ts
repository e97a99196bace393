import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { HistoryEntry, TransferEntry } from '@shared/api/wallet-rest'
import type { AlertRuleInput } from '@shared/domain/alert-rules'
import { readWalletTruth } from '../helpers/sim-truth'
import { runWatchDay, type WatchDayResult } from '../helpers/watch-day-run'
import { percentile } from './watch-day.bench'

// The alerts bench (issue 30): the watch day (50 wallets, 24 simulated hours, the default
// cadence) with ten rules of different triggers evaluated after each wallet's sync, as the
// app does. What they should have fired is computed from the simulator's truth (its history
// and transfers of every wallet), not from the mirror; latency is real time from the page
// that brought a change being written to the alert being written; the credits for alerts
// are the day's credits with the rules minus the same day without them.
// Run: npm run bench -- alerts

const IDLE_DAYS = 2
const DAY = 86_400
const TAG = 'desk'

interface RuleOracle {
  rule: AlertRuleInput
  /** Whether the rule fires for this transaction of `address`, from the truth alone. */
  fires(tx: TruthTx, wallet: WalletTruthView): boolean
}

interface TruthTx {
  entry: HistoryEntry
  /** Legs net of the fee the wallet paid, dust dropped. */
  legs: { mint: string; amount: number; decimals: number }[]
}

interface WalletTruthView {
  address: string
  isTagged: boolean
  /** Every transaction, oldest first. */
  history: TruthTx[]
  transfers: TransferEntry[]
}

function truthTx(entry: HistoryEntry, address: string): TruthTx {
  const paid = entry.feePayer === address ? entry.fee : 0
  return {
    entry,
    legs: entry.balanceChanges
      .map((c) => ({ ...c, amount: c.mint === NATIVE_SOL_MINT ? c.amount + paid : c.amount }))
      .filter((c) => Math.abs(c.amount) > 1e-12),
  }
}

const isNft = (l: { decimals: number; amount: number }) =>
  l.decimals === 0 && Math.abs(l.amount) === 1

const before = (w: WalletTruthView, tx: TruthTx, orSameSlot: boolean) =>
  w.history.filter(
    (o) =>
      o.entry.signature !== tx.entry.signature &&
      (orSameSlot ? o.entry.slot <= tx.entry.slot : o.entry.slot < tx.entry.slot),
  )

/** Ten rules and, for each, the truth's own reading of when it fires. */
function rulesWithOracles(): RuleOracle[] {
  return [
    { rule: { trigger: 'activity' }, fires: () => true },
    { rule: { trigger: 'activity', scope: { tags: [TAG] } }, fires: (_, w) => w.isTagged },
    {
      rule: { trigger: 'incoming', options: { token: 'SOL' } },
      fires: (tx) => tx.legs.some((l) => l.mint === NATIVE_SOL_MINT && l.amount > 0),
    },
    { rule: { trigger: 'outgoing' }, fires: (tx) => tx.legs.some((l) => l.amount < 0) },
    {
      rule: { trigger: 'type', options: { types: ['NFT_SALE'] } },
      fires: (tx) => tx.legs.some(isNft) && tx.legs.some((l) => !isNft(l)),
    },
    { rule: { trigger: 'failed' }, fires: (tx) => tx.entry.error !== null },
    {
      rule: { trigger: 'new-token' },
      fires: (tx, w) =>
        tx.legs
          .filter((l) => l.amount > 0 && !isNft(l))
          .some(
            (l) =>
              !before(w, tx, true).some((o) =>
                o.entry.balanceChanges.some((c) => c.mint === l.mint),
              ),
          ),
    },
    { rule: { trigger: 'nft-in' }, fires: (tx) => tx.legs.some((l) => isNft(l) && l.amount > 0) },
    {
      rule: { trigger: 'wakes', options: { idleDays: IDLE_DAYS } },
      fires: (tx, w) => {
        const previous = before(w, tx, false).at(-1)?.entry.timestamp
        const time = tx.entry.timestamp
        return previous != null && time !== null && time - previous >= IDLE_DAYS * DAY
      },
    },
    {
      rule: { trigger: 'new-counterparty' },
      fires: (tx, w) =>
        w.transfers
          .filter((t) => t.signature === tx.entry.signature && t.counterparty !== w.address)
          .some(
            (t) =>
              !w.transfers.some(
                (o) =>
                  o.counterparty === t.counterparty &&
                  o.signature !== t.signature &&
                  o.timestamp <= (tx.entry.timestamp ?? Infinity),
              ),
          ),
    },
  ]
}

interface AlertsInspection {
  expected: Set<string>
  fired: Set<string>
  firedCount: number
}

export interface AlertsBenchResult {
  rules: number
  fired: number
  expected: number
  missed: number
  extra: number
  latenciesSec: number[]
  creditsForAlerts: number
  day: WatchDayResult
}

/** The one line the README quotes. */
export function alertsLine(r: AlertsBenchResult): string {
  const s = (v: number) => v.toFixed(2)
  return (
    `alerts: ${r.rules} rules, ${r.day.hours} h: fired ${r.fired}, expected ${r.expected} ` +
    `(missed ${r.missed}, extra ${r.extra}), latency after the change lands ` +
    `p50 ${s(percentile(r.latenciesSec, 50))} s p95 ${s(percentile(r.latenciesSec, 95))} s; ` +
    `credits for alerts ${r.creditsForAlerts}`
  )
}

export async function runAlertsBench(): Promise<AlertsBenchResult> {
  const oracles = rulesWithOracles()
  const latenciesSec: number[] = []
  let tagged = new Set<string>()
  const progress = (label: string) => (hour: number, credits: number) => {
    if (hour % 6 === 0)
      process.stderr.write(`  ${label}: ${hour} h simulated, ${credits} credits\n`)
  }
  const withRules = await runWatchDay({
    onHour: progress('with rules'),
    alerts: {
      rules: () => oracles.map((o) => o.rule),
      tags: (wallets) => {
        const chosen = wallets.filter((_, i) => i % 5 === 0)
        tagged = new Set(chosen.map((w) => w.address))
        return chosen.map((w) => ({ address: w.address, tag: TAG }))
      },
      onFired: (report) => {
        const waitedSec = (Date.now() - report.oldestWrittenAtMs) / 1000
        for (const _ of report.alertIds) latenciesSec.push(waitedSec)
      },
    },
    inspect: async ({ sim, mirror, newSignatures }): Promise<AlertsInspection> => {
      const rules = await mirror.alertRules.list()
      const expected = new Set<string>()
      for (const [address, signatures] of newSignatures) {
        if (signatures.length === 0) continue
        const truth = await readWalletTruth(sim.url, address)
        const history = truth.history
          .map((e) => truthTx(e, address))
          .sort((a, b) => a.entry.slot - b.entry.slot)
        const view: WalletTruthView = {
          address,
          isTagged: tagged.has(address),
          history,
          transfers: truth.transfers,
        }
        const bySignature = new Map(history.map((t) => [t.entry.signature, t]))
        for (const signature of signatures) {
          const tx = bySignature.get(signature)
          if (!tx) continue
          oracles.forEach((o, i) => {
            if (o.fires(tx, view)) expected.add(`${rules[i]?.id}:${signature}`)
          })
        }
      }
      const alerts = await mirror.alerts.history({ limit: 500_000 })
      return {
        expected,
        fired: new Set(alerts.map((a) => `${a.rule?.id}:${a.signature}`)),
        firedCount: alerts.length,
      }
    },
  })
  const without = await runWatchDay({ onHour: progress('without rules') })
  const { expected, fired, firedCount } = withRules.inspection as AlertsInspection
  return {
    rules: oracles.length,
    fired: firedCount,
    expected: expected.size,
    missed: [...expected].filter((k) => !fired.has(k)).length,
    extra: [...fired].filter((k) => !expected.has(k)).length + (firedCount - fired.size),
    latenciesSec,
    creditsForAlerts: withRules.heliographCredits - without.heliographCredits,
    day: withRules,
  }
}

export async function runAlertsBenchReport(): Promise<AlertsBenchResult> {
  const result = await runAlertsBench()
  process.stdout.write(`${alertsLine(result)}\n`)
  return result
}
