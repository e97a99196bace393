import { BRIDGE_GLOBAL } from '@shared/ipc/bridge'
import type { Channel } from '@shared/ipc/contract'
import { mayUse, maySpend, refusalMessage, spendingRefusalMessage } from '@shared/ipc/channel-roles'
import {
  CHANGE_PASSWORD_PATH,
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

/**
 * Replaces the signed-in account's password; throws the server's reason when it refuses.
 * The page then reloads: a one-time session could read nothing until now.
 */
export async function choosePassword(currentPassword: string, newPassword: string): Promise<void> {
  const info = teamSession.info
  if (info === null) return
  const response = await fetch(CHANGE_PASSWORD_PATH, {
    method: 'POST',
    headers: { [CSRF_HEADER]: info.csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({ currentPassword, newPassword }),
  })
  if (response.status === 401) {
    location.assign('/login')
    return
  }
  if (!response.ok)
    throw new Error((await response.text()) || `The server answered ${response.status}.`)
  location.reload()
}

/** Signs out, then shows the sign-in form. */
export async function signOut(): Promise<void> {
  const info = teamSession.info
  if (info === null) return
  await fetch(SIGN_OUT_PATH, { method: 'POST', headers: { [CSRF_HEADER]: info.csrfToken } })
  location.assign('/login')
}

/**
 * Why the signed-in role may not use a channel, or null when it may (or there are no roles).
 * `spendsCredits`: this use of the channel asks the service, which a viewer may not do even
 * where the channel itself is open to viewers (an export of balances at a date).
 */
export function refusalFor(
  channel: Channel,
  options: { spendsCredits?: boolean } = {},
): string | null {
  const info = teamSession.info
  if (info === null) return null
  if (!mayUse(info.role, channel)) return refusalMessage(info.role, channel)
  if (options.spendsCredits === true && !maySpend(info.role))
    return spendingRefusalMessage(info.role)
  return null
}

/** A control's own state, merged with what the signed-in role allows. */
export interface GateOptions {
  /** Disabled for the control's own reasons (busy, empty input). */
  disabled?: boolean
  /** Its own hover text, shown while the role allows it. */
  title?: string
  spendsCredits?: boolean
}

/**
 * The `disabled` and `title` of a control that calls `channel`: disabled with the reason on
 * hover when the signed-in role may not use it, so no one presses a button the server will
 * refuse. Spread it on the control:
 *
 * @example
 * <button {...roleGate('sync:start', { disabled: busy })} onclick={sync}>Sync now</button>
 */
export function roleGate(
  channel: Channel,
  options: GateOptions = {},
): { disabled: boolean; title: string | undefined } {
  const refusal = refusalFor(channel, options)
  return {
    disabled: refusal !== null || options.disabled === true,
    title: refusal ?? options.title,
  }
}
