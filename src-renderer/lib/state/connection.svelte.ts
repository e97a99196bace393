import type { AppInfo } from '@shared/ipc/app-schemas'
import { firstOwnWalletText } from '@shared/domain/first-own-wallet'
import { connectContractClient } from '../ipc/contract-client'
import type { SocketState } from '../ipc/websocket-bridge'
import { loadTeamSession, refusalFor } from './team-session.svelte'

/** Whether the page can reach the app's core, the service, and what the core said about itself. */
export const connection = $state<{
  socket: SocketState
  info: AppInfo | null
  /** What the sync engine last said about the network (`app:network`). */
  network: 'online' | 'offline'
  isBrowserOnline: boolean
}>({
  socket: 'connecting',
  info: null,
  network: 'online',
  isBrowserOnline: typeof navigator === 'undefined' ? true : navigator.onLine,
})

/** The one contract client of the page. */
export const client = connectContractClient((state) => {
  connection.socket = state
  // On the team server a socket closes when the session ends: then sign in again.
  if (state === 'closed') void loadTeamSession().catch(() => {})
})
if (client.transport === 'electron') connection.socket = 'open'

// Every view reads another mirror after a switch: start the page afresh so nothing from
// the other data source stays on screen.
client.on('app:data-source', ({ demoKept }) => {
  // The person chose what is shown: the reload keeps them where they are.
  sessionStorage.setItem(KEY_ASKED, 'yes')
  // Their first own wallet made the switch: the page says so, and what the demo keeps.
  if (demoKept)
    sessionStorage.setItem(SWITCH_NOTE, firstOwnWalletText(demoKept, 'Settings → Data source'))
  location.reload()
})

/** Set in the tab when the first own wallet switched to one's own data; shown once after. */
const SWITCH_NOTE = 'heliograph:switch-note'

/** What the page says, once, after the first own wallet switched to one's own data; else null. */
export function takeSwitchNote(): string | null {
  const note = sessionStorage.getItem(SWITCH_NOTE)
  sessionStorage.removeItem(SWITCH_NOTE)
  return note
}

client.on('app:network', ({ state }) => {
  connection.network = state
})
window.addEventListener('online', () => (connection.isBrowserOnline = true))
window.addEventListener('offline', () => (connection.isBrowserOnline = false))

/** Set in the tab once the key was asked for (or the person chose the data source). */
const KEY_ASKED = 'heliograph:key-asked'

/**
 * Whether the app should open on Settings to ask for the key: the person's own data is
 * shown and nothing can sync without one. Once a tab: a reload keeps the page they chose.
 */
export function takeKeyRequest(): boolean {
  if (connection.info?.keyNotice !== 'missing' || sessionStorage.getItem(KEY_ASKED)) return false
  // On the team server only an admin enters the key.
  if (refusalFor('settings:set-api-key') !== null) return false
  sessionStorage.setItem(KEY_ASKED, 'yes')
  return true
}

/** Loads the app facts shown in the status bar. */
export async function loadAppInfo(): Promise<void> {
  connection.info = await client.call('app:info')
  connection.network = connection.info.network
}
