import type { AlertRuleInput } from '@shared/domain/alert-rules'
import { MAX_ALERT_HISTORY, type AlertRuleView, type AlertView } from '@shared/ipc/alert-schemas'
import { client } from './connection.svelte'

// The in-app alert channel: the bell's unread count (this reader's own: each team account
// reads alerts for itself), the fired alerts the Alerts page shows (newest first by when
// they fired, paged) and the rules. `alerts:fired` keeps them current.

/** Alerts asked for per page of the list. */
export const ALERTS_PAGE_SIZE = 25

export const alerts = $state<{
  /** The bell's count: alerts not seen in the app yet. */
  unread: number
  /** Fired alerts shown, newest first; null until the page loaded them. */
  list: AlertView[] | null
  /** Whether older alerts may exist past the last one shown. */
  hasOlder: boolean
  rules: AlertRuleView[] | null
  /** Whether the Alerts page is open: alerts arriving then are seen at once. */
  isPageOpen: boolean
  error: string | null
}>({ unread: 0, list: null, hasOlder: false, rules: null, isPageOpen: false, error: null })

client.on('alerts:fired', (fired) => {
  // The count is this reader's own (a team account's): asked for, not pushed to everyone.
  void loadUnread().catch(() => {})
  if (alerts.list !== null) {
    // A gathered alert comes again with more matches: the newer copy replaces the shown one.
    const ids = new Set(fired.alerts.map((a) => a.id))
    // New to this reader, whatever the pushed copy says (it was read for no one yet).
    const newestFirst = [...fired.alerts]
      .map((a) => ({ ...a, isRead: false }))
      .sort((a, b) => b.firedAt.localeCompare(a.firedAt) || b.id - a.id)
    alerts.list = [...newestFirst, ...alerts.list.filter((a) => !ids.has(a.id))]
  }
  if (alerts.isPageOpen && document.visibilityState === 'visible') void markShownRead()
})

/** Reads the bell's count (at start; events keep it current after). */
export async function loadUnread(): Promise<void> {
  alerts.unread = (await client.call('alerts:history', { limit: 1 })).unread
}

/** Loads the newest page of fired alerts. */
export async function loadAlerts(): Promise<void> {
  const page = await client.call('alerts:history', { limit: ALERTS_PAGE_SIZE })
  alerts.list = page.alerts
  alerts.unread = page.unread
  alerts.hasOlder = page.alerts.length === ALERTS_PAGE_SIZE
}

/** Appends the page of alerts older than the last one shown. */
export async function loadOlderAlerts(): Promise<void> {
  const oldest = alerts.list?.at(-1)
  if (!oldest) return
  const page = await client.call('alerts:history', {
    limit: ALERTS_PAGE_SIZE,
    beforeId: oldest.id,
  })
  alerts.list = [...(alerts.list ?? []), ...page.alerts]
  alerts.hasOlder = page.alerts.length === ALERTS_PAGE_SIZE
}

/** Whether a shown alert still waits for a channel (its state may change without an event). */
export function hasPendingDeliveries(): boolean {
  return (alerts.list ?? []).some((a) => a.deliveries.some((d) => d.state === 'pending'))
}

/** Re-reads the shown alerts' delivery states: channels deliver after an alert is announced. */
export async function refreshShownAlerts(): Promise<void> {
  const shown = alerts.list
  if (!shown || shown.length === 0) return
  const page = await client.call('alerts:history', {
    limit: Math.min(shown.length, MAX_ALERT_HISTORY),
  })
  // The shown copy keeps its "new" mark: it says what was unread when the page opened.
  alerts.list = (alerts.list ?? []).map((a) => {
    const now = page.alerts.find((f) => f.id === a.id)
    return now ? { ...now, isRead: a.isRead } : a
  })
}

/** Marks every alert up to the newest shown as seen; the bell follows. */
export async function markShownRead(): Promise<void> {
  const newest = alerts.list?.[0]
  if (!newest || alerts.unread === 0) return
  alerts.unread = (await client.call('alerts:mark-read', { upToId: newest.id })).unread
}

/** Loads the stored rules. */
export async function loadRules(): Promise<void> {
  alerts.rules = await client.call('alerts:rules')
}

/** Saves a new rule (the schema's message is thrown when it refuses) and lists it. */
export async function addRule(rule: AlertRuleInput): Promise<AlertRuleView> {
  const saved = await client.call('alerts:add-rule', rule)
  alerts.rules = [...(alerts.rules ?? []), saved]
  return saved
}

/** Mutes or unmutes a rule. */
export async function setRuleMuted(id: number, isMuted: boolean): Promise<void> {
  const changed = await client.call('alerts:mute-rule', { id, isMuted })
  alerts.rules = (alerts.rules ?? []).map((r) => (r.id === id ? changed : r))
}

/** Removes a rule (the alerts it fired keep its name). */
export async function removeRule(id: number): Promise<void> {
  await client.call('alerts:remove-rule', { id })
  alerts.rules = (alerts.rules ?? []).filter((r) => r.id !== id)
}
