import type { AlertRule } from '@shared/domain/alert-rules'
import { formatAmount, formatUsd } from '@shared/domain/display-text'
import { decimalText } from '@shared/domain/exact-amount'
import { shortAddress, walletName } from '@shared/domain/wallet-address'
import type { AlertDetail } from '@shared/ipc/alert-schemas'
import type {
  AlertFactsReader,
  Holding,
  SnapshotFacts,
  TxFacts,
  TxLeg,
} from '../db/stores/alert-facts-reader'
import type { RuleMatch } from '../db/stores/alert-store'
import { alertAmounts, describeTransaction, holdingText, movedUsd } from './alert-text'

/** What matching reads besides the transaction: the mirror, and the scope's wallets. */
export interface MatchContext {
  reader: AlertFactsReader
  /** Each watched wallet's tags, by wallet id. */
  tags: ReadonlyMap<number, readonly string[]>
  /** Every watched wallet: id and address. */
  wallets: readonly { id: number; address: string }[]
  /** The mints a rule's `token` names (cached per evaluation). */
  mintsNamed(token: string): Promise<ReadonlySet<string>>
}

const DAY_SEC = 86_400
const isNft = (l: TxLeg) => l.decimals === 0 && Math.abs(l.amount) === 1

/** Whether a rule covers a wallet: listed, tagged, or (no wallets, no tags) every one. */
export function ruleCovers(
  rule: Pick<AlertRule, 'scope'>,
  wallet: { id: number; address: string },
  tags: ReadonlyMap<number, readonly string[]>,
): boolean {
  const { wallets, tags: ruleTags } = rule.scope
  if (wallets.length === 0 && ruleTags.length === 0) return true
  if (wallets.includes(wallet.address)) return true
  const own = tags.get(wallet.id) ?? []
  return ruleTags.some((t) => own.includes(t.toLowerCase()))
}

/** The wallets a rule covers. */
export function walletsCovered(rule: Pick<AlertRule, 'scope'>, ctx: MatchContext): number[] {
  return ctx.wallets.filter((w) => ruleCovers(rule, w, ctx.tags)).map((w) => w.id)
}

function matchOf(
  rule: AlertRule,
  tx: { walletAddress: string; signature: string | null },
  text: string,
  detail: AlertDetail,
  cause: string,
): RuleMatch {
  return {
    ruleId: rule.id,
    ruleName: rule.name,
    cooldownSec: rule.cooldownSec,
    channels: rule.channels,
    walletAddress: tx.walletAddress,
    signature: tx.signature,
    text,
    detail,
    dedupeKey: `rule:${rule.id}:${cause}`,
  }
}

/** The legs of one direction, of the rule's token when it names one. */
async function legsFor(
  rule: AlertRule,
  tx: TxFacts,
  sign: 1 | -1,
  ctx: MatchContext,
): Promise<TxLeg[]> {
  const token = rule.options.token
  const mints = token === undefined ? null : await ctx.mintsNamed(token)
  return tx.legs.filter(
    (l) => Math.sign(l.amount) === sign && (mints === null || mints.has(l.mint)),
  )
}

/** Whether moved legs meet the rule's --min (in the token) and --min-usd. */
function meetsAmounts(rule: AlertRule, legs: readonly TxLeg[]): boolean {
  if (legs.length === 0) return false
  const { min, minUsd } = rule.options
  if (min !== undefined && !legs.some((l) => Math.abs(l.amount) >= min)) return false
  if (minUsd !== undefined && (movedUsd(legs) ?? 0) < minUsd) return false
  return true
}

/**
 * Whether a rule fires for one new transaction, and the alert it makes. Rules read only
 * the mirror: evaluating them costs no credits.
 */
export async function matchTransaction(
  rule: AlertRule,
  tx: TxFacts,
  ctx: MatchContext,
): Promise<RuleMatch | null> {
  if (!ruleCovers(rule, { id: tx.walletId, address: tx.walletAddress }, ctx.tags)) return null
  const detail: AlertDetail = {
    signatures: [tx.signature],
    amounts: alertAmounts(tx.legs),
    transactionKind: tx.kind,
  }
  // The text says what happened; the rule's name goes beside it (titles, the Alerts page).
  const fire = (text: string, cause = tx.signature) =>
    matchOf(rule, tx, text, detail, `${tx.walletId}:${cause}`)
  const o = rule.options
  switch (rule.trigger) {
    case 'activity':
      if (o.minUsd !== undefined && (movedUsd(tx.legs) ?? 0) < o.minUsd) return null
      return fire(describeTransaction(tx))
    case 'incoming':
    case 'outgoing': {
      const legs = await legsFor(rule, tx, rule.trigger === 'incoming' ? 1 : -1, ctx)
      return meetsAmounts(rule, legs) ? fire(describeTransaction(tx)) : null
    }
    case 'nft-in':
    case 'nft-out': {
      const sign = rule.trigger === 'nft-in' ? 1 : -1
      return tx.legs.some((l) => isNft(l) && Math.sign(l.amount) === sign)
        ? fire(describeTransaction(tx))
        : null
    }
    case 'type':
      return tx.kind !== null && (o.types ?? []).includes(tx.kind)
        ? fire(`${tx.kind} · ${describeTransaction(tx)}`)
        : null
    case 'failed':
      return tx.isFailed ? fire(describeTransaction(tx)) : null
    case 'new-token':
      return matchNewToken(tx, ctx, fire)
    case 'wakes':
      return matchWakes(rule, tx, ctx, fire)
    case 'new-counterparty':
      return matchNewCounterparty(tx, ctx, fire)
    case 'cluster':
      return matchCluster(rule, tx, ctx, detail)
    default:
      // Balance rules read snapshots, not transactions.
      return null
  }
}

type Fire = (text: string, cause?: string) => RuleMatch

async function matchNewToken(tx: TxFacts, ctx: MatchContext, fire: Fire) {
  for (const leg of tx.legs.filter((l) => l.amount > 0 && !isNft(l))) {
    const held = await ctx.reader.heldBefore(tx.walletId, leg.mint, tx)
    if (!held) {
      const who = walletName({ address: tx.walletAddress, label: tx.walletLabel })
      const token = leg.symbol ?? shortAddress(leg.mint)
      return fire(
        `${who} received a token it never held: ${formatAmount(leg.amountText)} ${token}`,
        `${tx.signature}:${leg.mint}`,
      )
    }
  }
  return null
}

async function matchWakes(rule: AlertRule, tx: TxFacts, ctx: MatchContext, fire: Fire) {
  const idleSec = (rule.options.idleDays ?? 0) * DAY_SEC
  if (tx.blockTimeSec === null) return null
  const previous = await ctx.reader.previousActivitySec(tx.walletId, tx.slot)
  if (previous === null || tx.blockTimeSec - previous < idleSec) return null
  const days = Math.floor((tx.blockTimeSec - previous) / DAY_SEC)
  const who = walletName({ address: tx.walletAddress, label: tx.walletLabel })
  return fire(`${who} woke up after ${days} idle days: ${describeTransaction(tx)}`)
}

async function matchNewCounterparty(tx: TxFacts, ctx: MatchContext, fire: Fire) {
  for (const c of tx.counterparties) {
    if (c.address === tx.walletAddress) continue
    if (!(await ctx.reader.hasDealtWith(tx.walletId, c.address, tx))) {
      const who = walletName({ address: tx.walletAddress, label: tx.walletLabel })
      const name = c.name ?? shortAddress(c.address)
      return fire(
        `${who} dealt with a new address, ${name}: ${describeTransaction(tx)}`,
        `${tx.signature}:${c.address}`,
      )
    }
  }
  return null
}

async function matchCluster(
  rule: AlertRule,
  tx: TxFacts,
  ctx: MatchContext,
  detail: AlertDetail,
): Promise<RuleMatch | null> {
  const { count = 2, windowSec = 3600 } = rule.options
  if (tx.blockTimeSec === null) return null
  const scope = walletsCovered(rule, ctx)
  for (const leg of await legsFor(rule, tx, 1, ctx)) {
    const wallets = await ctx.reader.walletsReceived(
      leg.mint,
      scope,
      tx.blockTimeSec - windowSec,
      tx.blockTimeSec,
    )
    if (wallets.length < count) continue
    const token = leg.symbol ?? shortAddress(leg.mint)
    const names = wallets
      .map((id) => ctx.wallets.find((w) => w.id === id)?.address ?? '')
      .map((a) => shortAddress(a))
    const window =
      windowSec % 3600 === 0 ? `${windowSec / 3600} h` : `${Math.round(windowSec / 60)} min`
    const text = `${wallets.length} watched wallets received ${token} within ${window} (${names.join(', ')})`
    // Once per token and window: the window the first qualifying transaction opened.
    const bucket = Math.floor(tx.blockTimeSec / windowSec)
    return {
      ...matchOf(rule, tx, text, detail, `cluster:${leg.mint}:${bucket}`),
      walletAddress: null,
    }
  }
  return null
}

function holdingOf(holdings: readonly Holding[], mints: ReadonlySet<string> | null) {
  if (mints === null) return undefined
  return holdings.find((h) => mints.has(h.mint))
}

/**
 * Whether a balance rule fires for a new snapshot: when its condition holds now and did
 * not at the snapshot before (crossing, not while it stays), or there is none before.
 */
export async function matchSnapshot(
  rule: AlertRule,
  snap: SnapshotFacts,
  ctx: MatchContext,
): Promise<RuleMatch | null> {
  if (rule.trigger !== 'balance-below' && rule.trigger !== 'balance-above') return null
  if (!ruleCovers(rule, { id: snap.walletId, address: snap.walletAddress }, ctx.tags)) return null
  const o = rule.options
  const mints = o.token === undefined ? null : await ctx.mintsNamed(o.token)
  const below = rule.trigger === 'balance-below'
  const amountLimit = below ? o.max : o.min
  const usdLimit = below ? o.maxUsd : o.minUsd
  // A token the service does not price has no USD value to compare (not $0): no measure.
  const measure = (holdings: readonly Holding[], totalUsd: number): number | null => {
    const h = holdingOf(holdings, mints)
    if (amountLimit !== undefined) return h?.balance ?? 0
    return mints === null ? totalUsd : h === undefined ? 0 : h.usdValue
  }
  const limit = (amountLimit ?? usdLimit) as number
  const holds = (v: number | null) => v !== null && (below ? v < limit : v > limit)
  const now = measure(snap.holdings, snap.totalUsd)
  if (now === null || !holds(now)) return null
  if (snap.previous && holds(measure(snap.previous.holdings, snap.previous.totalUsd))) return null
  const who = walletName({ address: snap.walletAddress, label: snap.walletLabel })
  const what =
    amountLimit !== undefined
      ? `${who}'s ${o.token} balance is ${holdingText(holdingOf(snap.holdings, mints), o.token ?? '')}, ${below ? 'below' : 'above'} ${formatAmount(decimalText(limit))}`
      : `${who}'s ${o.token ? `${o.token} ` : ''}holdings are worth ${formatUsd(now)}, ${below ? 'below' : 'above'} ${formatUsd(limit)}`
  return matchOf(
    rule,
    { walletAddress: snap.walletAddress, signature: null },
    what,
    { signatures: [], amounts: [], transactionKind: null },
    `${snap.walletId}:snapshot:${snap.snapshotId}`,
  )
}
