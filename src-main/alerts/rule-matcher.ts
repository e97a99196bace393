import type { AlertRule } from '@shared/domain/alert-rules'
import { formatAmount, formatUsd, formatCount } from '@shared/domain/display-text'
import { decimalText } from '@shared/domain/exact-amount'
import {
  counterpartyWord,
  tokenWord,
  transactionWords,
  walletWord,
} from '@shared/domain/transaction-words'
import { MAX_ADDRESS_CHARS, plainText } from '@shared/domain/untrusted-text'
import { shortAddress } from '@shared/domain/wallet-address'
import type { AlertAmount, AlertDetail } from '@shared/ipc/alert-schemas'
import type {
  AlertFactsReader,
  Holding,
  Receipt,
  SnapshotFacts,
  TxFacts,
  TxLeg,
} from '../db/stores/alert-facts-reader'
import type { RuleMatch } from '../db/stores/alert-store'
import { alertAmounts, describeTransaction, holdingText, legsUsd, whoOf } from './alert-text'

/** What matching reads besides the transaction: the mirror, and the scope's wallets. */
export interface MatchContext {
  reader: AlertFactsReader
  /** Each watched wallet's tags, by wallet id. */
  tags: ReadonlyMap<number, readonly string[]>
  /** Every watched wallet: id, address and label. */
  wallets: readonly { id: number; address: string; label: string | null }[]
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
  about: { walletAddress: string | null; signature: string | null },
  text: string,
  detail: AlertDetail,
  cause: string,
): RuleMatch {
  return {
    ruleId: rule.id,
    ruleName: rule.name,
    cooldownSec: rule.cooldownSec,
    channels: rule.channels,
    walletAddress: about.walletAddress,
    signature: about.signature,
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
  if (minUsd !== undefined && (legsUsd(legs) ?? 0) < minUsd) return false
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
      // The transaction's value as its words say it: the feed's figure.
      if (o.minUsd !== undefined && (transactionWords(tx).usd ?? 0) < o.minUsd) return null
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
        ? fire(`${plainText(tx.kind, 40)} · ${describeTransaction(tx)}`)
        : null
    case 'failed':
      return tx.isFailed ? fire(describeTransaction(tx)) : null
    case 'new-token':
      return matchNewToken(tx, ctx, fire)
    case 'wakes':
      return matchWakes(rule, tx, ctx, fire)
    case 'new-counterparty':
      return matchNewCounterparty(tx, ctx, fire)
    case 'lookalike':
      return matchLookalike(tx, ctx, fire)
    case 'cluster':
      return matchCluster(rule, tx, ctx)
    default:
      // Balance and value rules read snapshots, not transactions.
      return null
  }
}

type Fire = (text: string, cause?: string) => RuleMatch

async function matchNewToken(tx: TxFacts, ctx: MatchContext, fire: Fire) {
  for (const leg of tx.legs.filter((l) => l.amount > 0 && !isNft(l))) {
    const held = await ctx.reader.heldBefore(tx.walletId, leg.mint, tx)
    if (!held) {
      return fire(
        `${whoOf(tx)} received a token it never held: ${formatAmount(leg.amountText)} ${tokenWord(leg)}`,
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
  return fire(`${whoOf(tx)} woke up after ${days} idle days: ${describeTransaction(tx)}`)
}

async function matchNewCounterparty(tx: TxFacts, ctx: MatchContext, fire: Fire) {
  for (const c of tx.transfers) {
    if (c.counterparty === tx.walletAddress) continue
    if (!(await ctx.reader.hasDealtWith(tx.walletId, c.counterparty, tx))) {
      return fire(
        `${whoOf(tx)} dealt with a new address, ${counterpartyWord(c)}: ${describeTransaction(tx)}`,
        `${tx.signature}:${c.counterparty}`,
      )
    }
  }
  return null
}

/**
 * Address poisoning: a counterparty the wallet never dealt with, whose address starts and
 * ends like one a watched wallet dealt with before (or a watched wallet's own), so a person
 * copying an address from the history may take it for the known one.
 */
async function matchLookalike(tx: TxFacts, ctx: MatchContext, fire: Fire) {
  const seen = new Set<string>()
  for (const c of tx.transfers) {
    if (c.counterparty === tx.walletAddress || seen.has(c.counterparty)) continue
    seen.add(c.counterparty)
    if (await ctx.reader.hasDealtWith(tx.walletId, c.counterparty, tx)) continue
    const watched = ctx.wallets.filter(
      (w) => w.address !== c.counterparty && looksLike(w.address, c.counterparty),
    )
    const known =
      watched.length > 0
        ? watched.map((w) => w.address)
        : await ctx.reader.lookalikesDealtWith(c.counterparty, tx)
    const [original] = known
    if (original === undefined) continue
    // Whole addresses: their short forms are the same, which is the point of the trick.
    const knownAs = watched[0] ? ` (${walletWord(watched[0])})` : ''
    return fire(
      `${whoOf(tx)} dealt with a lookalike address: ${plainText(c.counterparty, MAX_ADDRESS_CHARS)} looks like ${plainText(original, MAX_ADDRESS_CHARS)}${knownAs}, known before · ${describeTransaction(tx)}`,
      `${tx.signature}:lookalike:${c.counterparty}`,
    )
  }
  return null
}

/** The same first and last four characters: what a glance at an address checks. */
function looksLike(a: string, b: string): boolean {
  return a.slice(0, 4) === b.slice(0, 4) && a.slice(-4) === b.slice(-4)
}

/**
 * A cluster: the N-th distinct wallet of the scope received the token within the window of
 * the others. Worked out on the receipts around this one (before and after it), so the
 * cluster is found whichever wallet syncs first; its alert is the receipt that completed it
 * (the N-th wallet's, in time), and the rule says nothing more about the token within the
 * window of that (AlertStore's quiet key).
 */
async function matchCluster(
  rule: AlertRule,
  tx: TxFacts,
  ctx: MatchContext,
): Promise<RuleMatch | null> {
  const { count = 2, windowSec = 3600 } = rule.options
  if (tx.blockTimeSec === null) return null
  const scope = walletsCovered(rule, ctx)
  for (const leg of await legsFor(rule, tx, 1, ctx)) {
    const around = await ctx.reader.receipts(
      leg.mint,
      scope,
      tx.blockTimeSec - windowSec,
      tx.blockTimeSec + windowSec,
    )
    const cluster = clusterAround(around, tx.transactionId, count, windowSec)
    if (cluster === null) continue
    const { completion, members } = cluster
    const completer = ctx.wallets.find((w) => w.id === completion.walletId)
    const wallets = [...new Set(members.map((m) => m.walletId))]
    const names = wallets.map((id) => {
      const w = ctx.wallets.find((x) => x.id === id)
      return w ? walletWord(w) : `wallet ${id}`
    })
    const token = tokenWord(leg)
    const text = `${formatCount(wallets.length)} watched wallets received ${token} within ${windowText(windowSec)}: ${listText(names)}`
    const amounts: AlertAmount[] = members.map((m) => ({
      mint: leg.mint,
      symbol: leg.symbol,
      amount: m.amountText,
      usd: leg.priceUsd === null ? null : Number(m.amountText) * leg.priceUsd,
    }))
    const quietKey = `cluster:${leg.mint}`
    return {
      ...matchOf(
        rule,
        { walletAddress: completer?.address ?? null, signature: completion.signature },
        text,
        { signatures: members.map((m) => m.signature), amounts, transactionKind: null },
        `${quietKey}:${completion.atSec}:${completion.signature}`,
      ),
      quiet: { key: quietKey, atSec: completion.atSec, windowSec },
    }
  }
  return null
}

/**
 * The earliest receipt, at or after `transactionId`'s, with which `count` distinct wallets
 * have received within the window before it (its own included) while that receipt is among
 * them; null when there is none.
 */
export function clusterAround(
  receipts: readonly Receipt[],
  transactionId: number,
  count: number,
  windowSec: number,
): { completion: Receipt; members: Receipt[] } | null {
  const ownIndex = receipts.findIndex((r) => r.transactionId === transactionId)
  const own = receipts[ownIndex]
  if (own === undefined) return null
  for (let i = ownIndex; i < receipts.length; i++) {
    const completion = receipts[i] as Receipt
    if (completion.atSec - own.atSec > windowSec) break
    const members = receipts.slice(0, i + 1).filter((r) => r.atSec >= completion.atSec - windowSec)
    const wallets = new Set(members.map((r) => r.walletId))
    if (wallets.size < count) continue
    // It completes the cluster only if the wallets before it were one short.
    const before = new Set(members.slice(0, -1).map((r) => r.walletId))
    if (before.size >= count) continue
    return { completion, members }
  }
  return null
}

function windowText(windowSec: number): string {
  if (windowSec % 86_400 === 0) return `${formatCount(windowSec / 86_400)} d`
  if (windowSec % 3600 === 0) return `${formatCount(windowSec / 3600)} h`
  return `${formatCount(Math.round(windowSec / 60))} min`
}

/** "A", "A and B", "A, B and C". */
function listText(names: readonly string[]): string {
  if (names.length <= 1) return names.join('')
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

function holdingOf(holdings: readonly Holding[], mints: ReadonlySet<string> | null) {
  if (mints === null) return undefined
  return holdings.find((h) => mints.has(h.mint))
}

/**
 * Whether a balance or value rule fires for a new snapshot: when its condition holds now
 * and did not at the snapshot before (crossing, not while it stays), or there is none before.
 */
export async function matchSnapshot(
  rule: AlertRule,
  snap: SnapshotFacts,
  ctx: MatchContext,
): Promise<RuleMatch | null> {
  if (!ruleCovers(rule, { id: snap.walletId, address: snap.walletAddress }, ctx.tags)) return null
  const text =
    rule.trigger === 'value-change'
      ? await valueChangeText(rule, snap, ctx)
      : rule.trigger === 'balance-below' || rule.trigger === 'balance-above'
        ? await balanceText(rule, snap, ctx)
        : null
  if (text === null) return null
  return matchOf(
    rule,
    { walletAddress: snap.walletAddress, signature: null },
    text,
    { signatures: [], amounts: [], transactionKind: null },
    `${snap.walletId}:snapshot:${snap.snapshotId}`,
  )
}

async function balanceText(
  rule: AlertRule,
  snap: SnapshotFacts,
  ctx: MatchContext,
): Promise<string | null> {
  const o = rule.options
  const mints = o.token === undefined ? null : await ctx.mintsNamed(o.token)
  const below = rule.trigger === 'balance-below'
  const amountLimit = below ? o.max : o.min
  const usdLimit = below ? o.maxUsd : o.minUsd
  const measure = (holdings: readonly Holding[], totalUsd: number) => {
    const h = holdingOf(holdings, mints)
    if (amountLimit !== undefined) return h?.balance ?? 0
    return mints === null ? totalUsd : (h?.usdValue ?? 0)
  }
  const limit = (amountLimit ?? usdLimit) as number
  const holds = (v: number) => (below ? v < limit : v > limit)
  const now = measure(snap.holdings, snap.totalUsd)
  if (!holds(now)) return null
  if (snap.previous && holds(measure(snap.previous.holdings, snap.previous.totalUsd))) return null
  const who = whoOf(snap)
  const token = o.token === undefined ? '' : tokenNameOf(o.token, snap.holdings, mints)
  return amountLimit !== undefined
    ? `${who}'s ${token} balance is ${holdingText(holdingOf(snap.holdings, mints), token)}, ${below ? 'below' : 'above'} ${formatAmount(decimalText(limit))}`
    : `${who}'s ${token ? `${token} ` : ''}holdings are worth ${formatUsd(now)}, ${below ? 'below' : 'above'} ${formatUsd(limit)}`
}

/** The rule's token as the holdings name it (its symbol), else as the rule wrote it. */
function tokenNameOf(
  token: string,
  holdings: readonly Holding[],
  mints: ReadonlySet<string> | null,
) {
  const h = holdingOf(holdings, mints)
  if (h !== undefined) return tokenWord(h)
  return token.length > 20 ? shortAddress(token) : plainText(token, 20)
}

/** The largest move of the value within the window before a snapshot, as a share of where it started. */
async function largestMove(
  rule: AlertRule,
  walletId: number,
  atSec: number,
  mints: ReadonlySet<string> | null,
  ctx: MatchContext,
): Promise<{ from: number; to: number; share: number } | null> {
  const windowSec = rule.options.windowSec ?? DAY_SEC
  const values = await ctx.reader.snapshotValues(walletId, mints, atSec - windowSec, atSec)
  const now = values.at(-1)
  if (now === undefined || now.takenAtSec !== atSec) return null
  let best: { from: number; to: number; share: number } | null = null
  for (const then of values.slice(0, -1)) {
    if (then.usd <= 0) continue
    const share = Math.abs(now.usd - then.usd) / then.usd
    if (best === null || share > best.share) best = { from: then.usd, to: now.usd, share }
  }
  return best
}

async function valueChangeText(
  rule: AlertRule,
  snap: SnapshotFacts,
  ctx: MatchContext,
): Promise<string | null> {
  const o = rule.options
  const threshold = (o.pct ?? 100) / 100
  const mints = o.token === undefined ? null : await ctx.mintsNamed(o.token)
  const move = await largestMove(rule, snap.walletId, snap.takenAtSec, mints, ctx)
  if (move === null || move.share < threshold) return null
  // Once when the move reaches the share, not again while it stays beyond it.
  if (snap.previous) {
    const before = await largestMove(rule, snap.walletId, snap.previous.takenAtSec, mints, ctx)
    if (before !== null && before.share >= threshold) return null
  }
  const token = o.token === undefined ? '' : `${tokenNameOf(o.token, snap.holdings, mints)} `
  const way = move.to > move.from ? 'rose' : 'fell'
  const pct = `${(move.share * 100).toFixed(1)}%`
  return `${whoOf(snap)}'s ${token}holdings ${way} ${pct} within ${windowText(o.windowSec ?? DAY_SEC)}: ${formatUsd(move.from)} → ${formatUsd(move.to)}`
}
