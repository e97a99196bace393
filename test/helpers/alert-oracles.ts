import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { HistoryEntry, TransferEntry } from '@shared/api/wallet-rest'
import type { AlertRuleInput } from '@shared/domain/alert-rules'
import type { Mirror } from '../../src-main/db/mirror'
import { readWalletTruth } from './sim-truth'
import type { WatchDayAlerts } from './watch-run'

// Alert rules beside an oracle of each, independent of the app's rule matcher: when a rule
// should fire is read from the simulator's truth (each wallet's whole history and
// transfers), never from the mirror. The alerts bench and the watch fuzz compare what
// fired with it.
//
// Rules that read the wallet's past (new-token, wakes, new-counterparty) judge a change by
// the past known when it reached the mirror: a transaction found later (an account someone
// else opened, found by the hourly list) cannot take back an alert already sent. Given when
// each change was found, the oracle reads the past as it was then; without, the whole past.

const IDLE_DAYS = 2
const DAY = 86_400
/** The tag of the wallets the tagged rule covers. */
export const ORACLE_TAG = 'desk'

export interface RuleOracle {
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
  /** When the watch found a transaction (-Infinity: before watching; every one by default). */
  foundAt: (signature: string) => number
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

/** Whether `other` was in the mirror by the time `tx` reached it. */
const wasKnown = (w: WalletTruthView, other: string, tx: TruthTx) =>
  w.foundAt(other) <= w.foundAt(tx.entry.signature)

const before = (w: WalletTruthView, tx: TruthTx, orSameSlot: boolean) =>
  w.history.filter(
    (o) =>
      o.entry.signature !== tx.entry.signature &&
      wasKnown(w, o.entry.signature, tx) &&
      (orSameSlot ? o.entry.slot <= tx.entry.slot : o.entry.slot < tx.entry.slot),
  )

/** Ten rules and, for each, the truth's own reading of when it fires. */
export function rulesWithOracles(): RuleOracle[] {
  return [
    { rule: { trigger: 'activity' }, fires: () => true },
    { rule: { trigger: 'activity', scope: { tags: [ORACLE_TAG] } }, fires: (_, w) => w.isTagged },
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
                  wasKnown(w, o.signature, tx) &&
                  o.timestamp <= (tx.entry.timestamp ?? Infinity),
              ),
          ),
    },
  ]
}

/**
 * The alerts the truth says the rules (stored in this order) fire for the transactions
 * that came while watching, keyed `ruleId:signature`.
 */
export async function expectedAlerts(
  simUrl: string,
  mirror: Mirror,
  oracles: readonly RuleOracle[],
  newSignatures: ReadonlyMap<string, readonly string[]>,
  tagged: ReadonlySet<string>,
  /** When the watch found each new transaction (UTC seconds); all at once when absent. */
  foundAt?: ReadonlyMap<string, number>,
): Promise<Set<string>> {
  const rules = await mirror.alertRules.list()
  const expected = new Set<string>()
  for (const [address, signatures] of newSignatures) {
    if (signatures.length === 0) continue
    const truth = await readWalletTruth(simUrl, address)
    const history = truth.history
      .map((e) => truthTx(e, address))
      .sort((a, b) => a.entry.slot - b.entry.slot)
    const view: WalletTruthView = {
      address,
      isTagged: tagged.has(address),
      history,
      transfers: truth.transfers,
      foundAt: (signature) => foundAt?.get(signature) ?? -Infinity,
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
  return expected
}

/** Every alert a rule fired, keyed `ruleId:signature`, with how many times each fired. */
export async function firedAlerts(mirror: Mirror): Promise<Map<string, number>> {
  const alerts = await mirror.alerts.history({ limit: 500_000 })
  const fired = new Map<string, number>()
  for (const a of alerts) {
    if (a.rule === null) continue
    const key = `${a.rule.id}:${a.signature}`
    fired.set(key, (fired.get(key) ?? 0) + 1)
  }
  return fired
}

/**
 * The oracles' rules for a watch, every fifth wallet tagged for the tagged rule; `tagged`
 * is filled with their addresses as the watch starts.
 */
export function oracleRules(
  oracles: readonly RuleOracle[],
  tagged: Set<string>,
): Required<Pick<WatchDayAlerts, 'rules' | 'tags'>> {
  return {
    rules: () => oracles.map((o) => o.rule),
    tags: (wallets) => {
      const chosen = wallets.filter((_, i) => i % 5 === 0)
      for (const w of chosen) tagged.add(w.address)
      return chosen.map((w) => ({ address: w.address, tag: ORACLE_TAG }))
    },
  }
}
