import { HealthKind } from './alert-rules'
import { hasRole, type TeamRole } from './team-roles'

// What each health condition says to a person, in one place: the banner, the first line of
// `heliograph status`, the refusal of "Sync now" and the health alerts all read it.

/** How a condition touches syncing: it stops, it slows, or it warns before either. */
type HealthEffect = 'stopped' | 'slowed' | 'warning'

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
}

/** Each condition's name in words: titles of health alerts and their lines everywhere. */
const NAME_OF: Record<HealthKind, string> = {
  'budget-80': 'Budget 80% spent',
  'budget-100': 'Daily budget spent',
  'monthly-credits-spent': 'Monthly budget spent',
  'key-rejected': 'API key rejected',
  'rate-limited': 'Rate limited',
  unreachable: 'Service unreachable',
  'disk-full': 'Disk full',
  'database-locked': 'Database locked',
  'postgres-unreachable': 'PostgreSQL unreachable',
}

/** What a condition's end means, said in the past of what it was and the present of now. */
const ENDED_OF: Record<HealthKind, { lead: string; now: string; was: string }> = {
  'budget-80': {
    lead: 'Budget warning over',
    now: 'less than 80% of the budget is spent',
    was: 'over 80% spent',
  },
  'budget-100': {
    lead: 'Syncing resumed',
    now: 'the daily budget allows calls again',
    was: 'spent',
  },
  'monthly-credits-spent': {
    lead: 'Syncing resumed',
    now: 'the monthly budget allows calls again',
    was: 'spent',
  },
  'key-rejected': {
    lead: 'Syncing resumed',
    now: 'the service accepts the API key again',
    was: 'rejected',
  },
  'rate-limited': {
    lead: 'Syncing back to full speed',
    now: 'the service no longer answers 429',
    was: 'rate-limited',
  },
  unreachable: {
    lead: 'Syncing resumed',
    now: 'the data service answers again',
    was: 'unreachable',
  },
  'disk-full': {
    lead: 'Syncing resumed',
    now: 'the mirror’s disk takes writes again',
    was: 'full',
  },
  'database-locked': {
    lead: 'Syncing resumed',
    now: 'the mirror’s database is no longer locked',
    was: 'locked',
  },
  'postgres-unreachable': {
    lead: 'Syncing resumed',
    now: 'the mirror’s PostgreSQL server answers again',
    was: 'unreachable',
  },
}

/**
 * On a team server, the least role that can act on each condition: the budget and the
 * plan are settings an editor changes; the key, the service URLs and the server's own
 * disk, database and data folder are an admin's.
 */
const ACTOR_OF: Record<HealthKind, TeamRole> = {
  'budget-80': 'editor',
  'budget-100': 'editor',
  'monthly-credits-spent': 'editor',
  'key-rejected': 'admin',
  'rate-limited': 'editor',
  unreachable: 'admin',
  'disk-full': 'admin',
  'database-locked': 'admin',
  'postgres-unreachable': 'admin',
}

/** What a team member whose role cannot act is told instead: whom to ask, and what waits. */
const ASK_OF: Record<HealthKind, string> = {
  'budget-80': 'Ask an editor or an admin to raise the budget if watching needs more.',
  'budget-100': 'Syncing resumes at 00:00 UTC, or ask an editor or an admin to raise the budget.',
  'monthly-credits-spent':
    'Syncing resumes on the 1st (UTC), or ask an editor or an admin to raise the budget.',
  'key-rejected': 'Ask an admin to replace it; syncing resumes once a call succeeds.',
  'rate-limited':
    'Syncing continues, slower; ask an editor or an admin to check that the plan chosen is the team’s plan.',
  unreachable:
    'Syncing resumes when the service answers; if it lasts, ask an admin to check the server’s network and service URLs.',
  'disk-full': 'Ask an admin to free some space on the server; nothing was lost.',
  'database-locked': 'Ask an admin: another program is using the server’s data folder.',
  'postgres-unreachable': 'Ask an admin to check the server’s database; nothing was lost.',
}

/**
 * What to do about a condition, for whoever reads it: the person at this machine (`role`
 * null) or a team account. `mayAct` says whether the reader can do it themselves (in
 * Settings); one who cannot is told whom to ask, and offered nothing to press.
 *
 * @example
 * healthActionFor('key-rejected', 'viewer')
 * // { action: 'Ask an admin to replace it; syncing resumes once a call succeeds.', mayAct: false }
 */
export function healthActionFor(
  kind: HealthKind,
  role: TeamRole | null,
): { action: string; mayAct: boolean } {
  const mayAct = role === null || hasRole(role, ACTOR_OF[kind])
  return { action: mayAct ? ACTION_OF[kind] : ASK_OF[kind], mayAct }
}

/** A condition as the texts need it. */
export interface HealthConditionFacts {
  kind: HealthKind
  sinceSec: number
  /** What happened, as a sentence without its full stop ("The service rejected the API key"). */
  detail: string
}

/** A condition's name in words: "API key rejected". */
export function healthKindName(kind: HealthKind): string {
  return NAME_OF[kind]
}

/**
 * A health alert's title from its `healthKind` (a condition, or one with "-resolved" when
 * it ended): "API key rejected", "Resolved: API key rejected".
 */
export function healthAlertTitle(healthKind: string): string {
  const isResolved = healthKind.endsWith('-resolved')
  const kind = HealthKind.safeParse(
    isResolved ? healthKind.slice(0, -'-resolved'.length) : healthKind,
  )
  const name = kind.success ? NAME_OF[kind.data] : healthKind
  return isResolved ? `Resolved: ${name}` : name
}

/** The order conditions are said in: what stops syncing, then what slows it, then warnings; oldest first within each. */
export function byHealthEffect(
  a: { kind: HealthKind; sinceSec: number },
  b: { kind: HealthKind; sinceSec: number },
): number {
  const rank = { stopped: 0, slowed: 1, warning: 2 } as const
  return rank[EFFECT_OF[a.kind]] - rank[EFFECT_OF[b.kind]] || a.sinceSec - b.sinceSec
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

/** The lead words: "Syncing stopped", "Syncing slowed" or "Budget warning". */
export function healthLead(kind: HealthKind): string {
  const effect = EFFECT_OF[kind]
  return effect === 'stopped'
    ? 'Syncing stopped'
    : effect === 'slowed'
      ? 'Syncing slowed'
      : 'Budget warning'
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

/** The line without the action: "Syncing stopped: the service rejected the API key (since 12:03 UTC)." */
export function healthHeadline(condition: HealthConditionFacts, nowSec: number): string {
  return `${healthLead(condition.kind)}: ${lowerFirst(condition.detail)} (since ${utcTimeText(condition.sinceSec, nowSec)}).`
}

/**
 * The one line of a resolution, in the past tense: "Syncing resumed: the service accepts
 * the API key again (rejected from 12:03 to 12:20 UTC)."
 */
export function healthResolvedLine(condition: HealthConditionFacts, resolvedSec: number): string {
  const ended = ENDED_OF[condition.kind]
  const from = utcTimeText(condition.sinceSec, resolvedSec)
  const to = utcTimeText(resolvedSec, resolvedSec).replace(/ UTC$/, '')
  const sameZone = from.endsWith(' UTC') ? from.slice(0, -' UTC'.length) : from
  return `${ended.lead}: ${ended.now} (${ended.was} from ${sameZone} to ${to} UTC).`
}

/**
 * Why a wallet is stopped, as its status line says it after "stopped: ": "the service
 * rejected the API key (HTTP 401), since 12:03 UTC".
 */
export function healthReason(condition: HealthConditionFacts, nowSec: number): string {
  return `${lowerFirst(condition.detail)}, since ${utcTimeText(condition.sinceSec, nowSec)}`
}

function lowerFirst(text: string): string {
  // Keep names and acronyms ("PostgreSQL", "API") as they are: only a capital then a lower case letter.
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text
}
