import { BRIDGE_GLOBAL } from '@shared/ipc/bridge'
import type { Channel } from '@shared/ipc/contract'
import { mayUse, refusalMessage } from '@shared/ipc/channel-roles'
import {
  CSRF_HEADER,
  SESSION_INFO_PATH,
  SIGN_OUT_PATH,
  TeamSessionInfo,
} from '@shared/ipc/team-session'
import { launchToken } from '../ipc/launch-token'

// On the team server the page is signed in by its cookie: it asks who it is signed in as,
// shows it, and greys out what the role may not do (the server refuses it anyway). In the
// desktop app and the loopback web shell there is no account: everything is allowed.

/** Who is signed in; null outside the team server. */
export const teamSession = $state<{ info: TeamSessionInfo | null }>({ info: null })

/** Whether the page may be on the team server: the web shell's page carries a launch token. */
function mayBeTeamServer(): boolean {
  return typeof window !== 'undefined' && !(BRIDGE_GLOBAL in window) && launchToken() === null
}

/**
 * Asks the server who is signed in. Signed out (the session ended), the page goes to the
 * sign-in form; the web shell answers its page instead, which leaves this null.
 */
export async function loadTeamSession(): Promise<void> {
  if (!mayBeTeamServer()) return
  const response = await fetch(SESSION_INFO_PATH, { headers: { accept: 'application/json' } })
  if (response.status === 401) {
    location.assign('/login')
    return
  }
  if (!(response.headers.get('content-type') ?? '').startsWith('application/json')) return
  teamSession.info = TeamSessionInfo.parse(await response.json())
}

/** Signs out, then shows the sign-in form. */
export async function signOut(): Promise<void> {
  const info = teamSession.info
  if (info === null) return
  await fetch(SIGN_OUT_PATH, { method: 'POST', headers: { [CSRF_HEADER]: info.csrfToken } })
  location.assign('/login')
}

/** Why the signed-in role may not use a channel, or null when it may (or there are no roles). */
export function refusalFor(channel: Channel): string | null {
  const info = teamSession.info
  if (info === null || mayUse(info.role, channel)) return null
  return refusalMessage(info.role, channel)
}
