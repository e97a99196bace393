import type { DesktopAlert } from '@shared/ipc/notify-schemas'
import { client } from './connection.svelte'
import { toast } from './toasts.svelte'

// Alerts for the desktop in the web shell: the core pushes each one to its open pages
// (`alerts:desktop`) and marks it delivered, so the page shows it with the browser's
// Notification API once the person allowed it, and as a notice on the page otherwise.
// The desktop app shows them itself (Electron's Notification), so nothing arrives there.

/**
 * Whether this page can show desktop notifications:
 * - `desktop-app`: the Electron app shows them from its main process;
 * - `unsupported`: the browser has no Notification API;
 * - `insecure`: the page is not a secure context (the API is offered only on https or loopback);
 * - else the browser's permission: `default` (not asked yet), `granted`, `denied`.
 */
export type DesktopNotificationState =
  'desktop-app' | 'unsupported' | 'insecure' | NotificationPermission

function currentState(): DesktopNotificationState {
  if (client.transport === 'electron') return 'desktop-app'
  if (typeof window === 'undefined' || !('Notification' in window)) return 'unsupported'
  if (!window.isSecureContext) return 'insecure'
  return Notification.permission
}

/** What the page can do with desktop notifications now. */
export const desktopNotifications = $state<{ state: DesktopNotificationState }>({
  state: currentState(),
})

/**
 * Asks the browser for permission. Browsers accept the question only from the person's own
 * click, so this is called from a button's handler, never on its own.
 */
export async function askDesktopPermission(): Promise<void> {
  if (desktopNotifications.state !== 'default') return
  desktopNotifications.state = await Notification.requestPermission()
}

/** Shows one alert on the desktop, or on the page when the browser may not. */
function showDesktopAlert(alert: DesktopAlert): void {
  desktopNotifications.state = currentState()
  if (desktopNotifications.state !== 'granted') {
    toast(`${alert.title}: ${alert.body}`)
    return
  }
  // Every open page gets the alert: one tag per alert lets the browser show it once.
  const notification = new Notification(alert.title, {
    body: alert.body,
    tag: `heliograph-alert-${alert.alertId}`,
  })
  notification.onclick = () => window.focus()
}

if (client.transport !== 'electron') {
  client.on('alerts:desktop', showDesktopAlert)
  // A choice made in the browser's own site settings is followed without a reload.
  void navigator.permissions
    ?.query({ name: 'notifications' })
    .then((status) => {
      status.onchange = () => (desktopNotifications.state = currentState())
    })
    .catch(() => {})
}
