import type { HealthKind } from './alert-rules'

// What each health condition says to a person, in one place: the banner, the first line of
// `heliograph status`, the refusal of "Sync now" and the health alerts all read it.

/**
 * How a condition touches syncing: it stops, it slows, it warns before either, or some of
 * what the service sent is kept aside while syncing goes on.
 */
type HealthEffect = 'stopped' | 'slowed' | 'warning' | 'kept-aside'

const EFFECT_OF: Record<HealthKind, HealthEffect> = {
  'budget-80': 'warning',
  'budget-100': 'stopped',
  'monthly-credits-spent': 'stopped',
  'key-rejected': 'stopped',
  'rate-limited': 'slowed',
  unreachable: 'stopped',
  'disk-full': 'stopped',
  'database-locked': 'stopped',
  'postgres-unreachable': 'stopped',
  'service-shape': 'kept-aside',
}

/** What to do about each condition. */
const ACTION_OF: Record<HealthKind, string> = {
  'budget-80': 'Raise the budget in Settings if watching needs more.',
  'budget-100': 'Syncing resumes at 00:00 UTC, or raise the budget in Settings.',
  'monthly-credits-spent': 'Syncing resumes on the 1st (UTC), or raise the budget in Settings.',
  'key-rejected':
    'Replace it in Settings (the command line: --api-key or HELIOGRAPH_API_KEY); syncing resumes once a call succeeds.',
  'rate-limited': 'Syncing continues, slower; check that the plan chosen in Settings is your plan.',
  unreachable:
    'Check the network and the service URLs in Settings; syncing resumes when the service answers.',
  'disk-full': 'Free some space; syncing resumes with the next sync (nothing was lost).',
  'database-locked': 'Close the other Heliograph windows or commands using this data folder.',
  'postgres-unreachable': 'Start the server or check the database URL; nothing was lost.',
  'service-shape':
    'The rest of each page was written and syncing goes on; each sync reads them again, so a Heliograph that can read them writes them.',
}

/** A condition as the texts need it. */
export interface HealthConditionFacts {
  kind: HealthKind
  sinceSec: number
  /** What happened, as a sentence without its full stop ("The service rejected the API key"). */
  detail: string
}

/** Whether a condition stops syncing (rather than slowing it or warning). */
export function isSyncStoppedBy(kind: HealthKind): boolean {
  return EFFECT_OF[kind] === 'stopped'
}

/** "12:03 UTC" on the same UTC day as `nowSec`, else "2026-11-26 12:03 UTC". */
export function utcTimeText(sec: number, nowSec: number): string {
  const iso = new Date(sec * 1000).toISOString()
  const sameDay = iso.slice(0, 10) === new Date(nowSec * 1000).toISOString().slice(0, 10)
  return `${sameDay ? '' : `${iso.slice(0, 10)} `}${iso.slice(11, 16)} UTC`
}

/** The lead words: "Syncing stopped", "Syncing slowed", "Budget warning" or "Kept aside". */
export function healthLead(kind: HealthKind): string {
  const effect = EFFECT_OF[kind]
  return effect === 'stopped'
    ? 'Syncing stopped'
    : effect === 'slowed'
      ? 'Syncing slowed'
      : effect === 'kept-aside'
        ? 'Kept aside'
        : 'Budget warning'
}

/** What was kept aside in one wallet's stream, as health counts it. */
export interface KeptAsideFacts {
  /** The wallet's label, else its address. */
  wallet: string
  stream: string
  count: number
}

/** What each stream's items are called, one and many. */
const ITEM_NOUNS: Readonly<Record<string, readonly [string, string]>> = {
  history: ['history entry', 'history entries'],
  transfers: ['transfer', 'transfers'],
  balances: ['holding', 'holdings'],
}

/**
 * The detail of the service-shape condition: what could not be read, where, and where
 * to see it, each wallet's streams together.
 *
 * @example
 * keptAsideDetail([{ wallet: 'Treasury', stream: 'history', count: 3 }])
 * // '3 history entries of Treasury could not be read; kept aside (heliograph doctor shows them)'
 * keptAsideDetail([{ wallet: 'A', stream: 'balances', count: 1 }, { wallet: 'A', stream: 'transfers', count: 2 }])
 * // '1 holding and 2 transfers of A could not be read; kept aside (heliograph doctor shows them)'
 */
export function keptAsideDetail(kept: readonly KeptAsideFacts[]): string {
  const byWallet = new Map<string, string[]>()
  for (const k of kept) {
    const [one, many] = ITEM_NOUNS[k.stream] ?? [`${k.stream} item`, `${k.stream} items`]
    const items = byWallet.get(k.wallet) ?? []
    items.push(`${k.count} ${k.count === 1 ? one : many}`)
    byWallet.set(k.wallet, items)
  }
  const clauses = [...byWallet].map(([wallet, items]) => `${listText(items)} of ${wallet}`)
  return `${clauses.join('; ')} could not be read; kept aside (heliograph doctor shows them)`
}

/** "a", "a and b", "a, b and c". */
function listText(parts: readonly string[]): string {
  return parts.length <= 1
    ? (parts[0] ?? '')
    : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`
}

/** What to do about a condition, one sentence or two. */
export function healthAction(kind: HealthKind): string {
  return ACTION_OF[kind]
}

/**
 * One line saying what stopped, since when and what to do.
 *
 * @example
 * healthLine({ kind: 'key-rejected', sinceSec, detail: 'The service rejected the API key' }, now)
 * // 'Syncing stopped: the service rejected the API key (since 12:03 UTC). Replace it in Settings …'
 */
export function healthLine(condition: HealthConditionFacts, nowSec: number): string {
  return `${healthHeadline(condition, nowSec)} ${healthAction(condition.kind)}`
}

/**
 * The line without the action: "Syncing stopped: the service rejected the API key (since
 * 12:03 UTC)." What is kept aside is said as it is (its detail names what and where).
 */
export function healthHeadline(condition: HealthConditionFacts, nowSec: number): string {
  if (EFFECT_OF[condition.kind] === 'kept-aside') return `${condition.detail}.`
  return `${healthLead(condition.kind)}: ${lowerFirst(condition.detail)} (since ${utcTimeText(condition.sinceSec, nowSec)}).`
}

/** The one line of a resolution: "Resolved: the service rejected the API key (12:03–12:20 UTC)." */
export function healthResolvedLine(condition: HealthConditionFacts, resolvedSec: number): string {
  const from = utcTimeText(condition.sinceSec, resolvedSec)
  return `Resolved: ${lowerFirst(condition.detail)} (from ${from} to ${utcTimeText(resolvedSec, resolvedSec)}).`
}

function lowerFirst(text: string): string {
  // Keep names and acronyms ("PostgreSQL", "API") as they are: only a capital then a lower case letter.
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text
}
