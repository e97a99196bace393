import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Core } from '../../app/core'
import type { TeamAccountStore } from '../../db/stores/team-account-store'
import { mayUse, refusalMessage } from '@shared/ipc/channel-roles'
import { IPC_SOCKET_PATH } from '@shared/ipc/web-socket-protocol'
import {
  CHANGE_PASSWORD_PATH,
  SESSION_INFO_PATH,
  SIGN_OUT_PATH,
  type TeamSessionInfo,
} from '@shared/ipc/team-session'
import { contentSecurityPolicy, pageHeaders, serveAppRoute } from '../web/app-routes'
import {
  closeServerAndSockets,
  createContractSockets,
  refuseUpgrade,
  serveContract,
} from '../web/contract-socket'
import { requestUrl } from '../web/request-parts'
import { findUnsafeText } from '@shared/validation/safe-text'
import { hasCsrfToken, isSameOrigin, serverOrigin } from './csrf'
import { withoutKeyHint } from './key-shield'
import { LOGIN_PATH, loginPage } from './login-page'
import { DEFAULT_THROTTLE_POLICY, LoginThrottle, type ThrottlePolicy } from './login-throttle'
import { isServedHost, servedHosts } from './served-hosts'
import { readSmallBody } from './small-body'
import { changePassword } from './password-change'
import { decoyPasswordHash, verifyPassword } from './password-hashing'
import { cookieHeader, LOGIN_CSRF_COOKIE, readCookie, SESSION_COOKIE } from './session-cookie'
import {
  csrfTokenOf,
  DEFAULT_SESSION_LIFETIME,
  isSameSecret,
  type SessionLifetime,
} from './session-tokens'
import { TeamSessions, type SignedIn } from './team-sessions'

/** An HTTP route that bypasses sign-in (it authenticates itself): POST at an exact path. */
export interface ExtraRoute {
  path: string
  handle(request: IncomingMessage, response: ServerResponse): void
}

export interface TeamServerOptions {
  core: Core
  /** Where accounts and sessions live (the mirror's team store). */
  accounts: TeamAccountStore
  /** Folder of the built renderer (out/renderer). */
  rendererDir: string
  /** Interface to listen on (default 127.0.0.1; 0.0.0.0 for every one). */
  host?: string
  /** 0 (default) picks a free one. */
  port?: number
  /** Where browsers reach the server (https: cookies are Secure; Origin must match it). */
  publicUrl?: string
  /** Routes checked before sign-in, e.g. webhook deliveries with their own secret. */
  routes?: ExtraRoute[]
  lifetime?: SessionLifetime
  /** How often the accounts store is asked whether sessions changed (SESSION_RECHECK_MS). */
  sessionRecheckMs?: number
  throttle?: ThrottlePolicy
  /** Clock in UTC seconds; tests pass their own. */
  nowSec?: () => number
  /** Clock in milliseconds for the sign-in throttle. */
  nowMs?: () => number
}

export interface RunningTeamServer {
  /** Where it listens, e.g. http://127.0.0.1:8080/. */
  url: string
  port: number
  /** The public URL it was started with, for mounting webhook deliveries; null without one. */
  publicUrl: string | null
  close(): Promise<void>
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8' }

const ONE_TIME_PASSWORD_REFUSAL =
  'You signed in with a one-time password: choose your own password first, then the app opens.'

/**
 * Serves the app to a team: the same renderer, files and IPC socket as the web shell,
 * behind accounts with roles. Every route but the sign-in page and the extra routes needs
 * a session cookie; every state change needs our Origin and the session's CSRF token (the
 * socket: our Origin at its handshake); each channel needs the role its contract entry names.
 *
 * @example
 * const server = await startTeamServer({ core, accounts: mirror.team, rendererDir })
 * console.log(server.url) // http://127.0.0.1:49152/
 */
export async function startTeamServer(options: TeamServerOptions): Promise<RunningTeamServer> {
  const { core } = options
  const publicUrl = options.publicUrl ? new URL(options.publicUrl) : null
  const isSecure = publicUrl?.protocol === 'https:'
  const nowSec = options.nowSec ?? (() => Math.floor(Date.now() / 1000))
  const sessions = new TeamSessions(
    options.accounts,
    options.lifetime ?? DEFAULT_SESSION_LIFETIME,
    nowSec,
    options.sessionRecheckMs === undefined ? {} : { recheckMs: options.sessionRecheckMs },
  )
  const throttle = new LoginThrottle(options.throttle ?? DEFAULT_THROTTLE_POLICY, options.nowMs)
  const routes = new Map((options.routes ?? []).map((r) => [r.path, r]))
  let served: ReadonlySet<string> = new Set()
  const isServed = (request: IncomingMessage): boolean => isServedHost(request, served)
  const team: TeamContext = { options, core, publicUrl, isSecure, sessions, throttle, isServed }

  const { sendLoginPage, signIn } = signInPages(team)

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!isServed(request)) {
      response
        .writeHead(421, TEXT)
        .end('Misdirected request: this server does not answer for that host name.')
      return
    }
    const url = requestUrl(request)
    if (url === null) {
      response.writeHead(400, TEXT).end('Bad request: the URL cannot be read.')
      return
    }
    const route = routes.get(url.pathname)
    if (route && request.method === 'POST') {
      route.handle(request, response)
      return
    }
    if (url.pathname === LOGIN_PATH) {
      if (request.method === 'POST') await signIn(request, response)
      else if (request.method === 'GET' || request.method === 'HEAD') sendLoginPage(response, 200)
      else response.writeHead(405, TEXT).end('Method not allowed.')
      return
    }
    const signedIn = await sessions.find(request)
    if (signedIn === null) {
      const isPage =
        request.method === 'GET' && (request.headers.accept ?? '').includes('text/html')
      if (isPage) response.writeHead(303, { location: LOGIN_PATH, 'cache-control': 'no-store' })
      else response.writeHead(401, TEXT)
      response.end(isPage ? undefined : 'Sign in first.')
      return
    }
    serveSignedIn(team, signedIn, request, url, response)
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, TEXT)
      response.end()
    })
  })

  const sockets = acceptContractSockets(server, team)

  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  served = servedHosts({ host, port, publicUrl })
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}/`,
    port,
    publicUrl: publicUrl?.href ?? null,
    close: () => closeServerAndSockets(server, sockets),
  }
}

function refusal(name: string, message: string, details?: unknown) {
  return { ok: false as const, error: { name, message, ...(details ? { details } : {}) } }
}

/** A url-encoded form body, or null when it is too long or not a form. */
async function readForm(request: IncomingMessage): Promise<URLSearchParams | null> {
  const text = await readSmallBody(request, 'application/x-www-form-urlencoded')
  return text === null ? null : new URLSearchParams(text)
}

/** What the parts of the team server share. */
interface TeamContext {
  options: TeamServerOptions
  core: TeamServerOptions['core']
  publicUrl: URL | null
  isSecure: boolean
  sessions: TeamSessions
  throttle: LoginThrottle
  /** Whether a request's Host names this server (known once it listens). */
  isServed(request: IncomingMessage): boolean
}

const sessionCookieOf =
  (isSecure: boolean) =>
  (token: string, maxAgeSec: number): string =>
    cookieHeader(SESSION_COOKIE, token, { isSecure, maxAgeSec })

/** Sign-in: the sign-in page and its form's throttled check. */
function signInPages(team: TeamContext) {
  const { options, publicUrl, isSecure, sessions, throttle } = team
  const sessionCookie = sessionCookieOf(isSecure)
  const sendLoginPage = (
    response: ServerResponse,
    status: number,
    extra: { name?: string; notice?: string; headers?: Record<string, string> } = {},
  ): void => {
    const csrfToken = randomBytes(24).toString('base64url')
    response.writeHead(status, {
      ...pageHeaders(contentSecurityPolicy([], "'self'"), 'same-origin'),
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'set-cookie': cookieHeader(LOGIN_CSRF_COOKIE, csrfToken, { isSecure, maxAgeSec: 3600 }),
      ...extra.headers,
    })
    response.end(loginPage({ csrfToken, ...extra }))
  }

  /** POST /login: a throttled check of name and password; a session cookie when right. */
  const signIn = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const form = await readForm(request)
    const formToken = form?.get('csrf') ?? null
    const cookieToken = readCookie(request, LOGIN_CSRF_COOKIE)
    if (
      form === null ||
      !isSameOrigin(request, serverOrigin(request, publicUrl)) ||
      formToken === null ||
      cookieToken === null ||
      !isSameSecret(formToken, cookieToken)
    ) {
      response.writeHead(403, TEXT).end('Forbidden: sign in from the sign-in page of this server.')
      return
    }
    const name = (form.get('name') ?? '').trim()
    const password = form.get('password') ?? ''
    const keys = [`account:${name.toLowerCase()}`, `address:${request.socket.remoteAddress}`]
    // Reserved before the (slow) check: attempts sent at once are counted as they arrive.
    const attempt = throttle.reserve(keys)
    if ('waitMs' in attempt) {
      const waitSec = Math.ceil(attempt.waitMs / 1000)
      sendLoginPage(response, 429, {
        name,
        notice: `Too many failed sign-ins: try again in ${waitSec} s.`,
        headers: { 'retry-after': String(waitSec) },
      })
      return
    }
    let isRight = false
    try {
      // A name no account can have (a NUL, half a character) is a wrong name, checked
      // before any database sees it.
      const account =
        findUnsafeText(name) === null ? await options.accounts.credentials(name) : null
      // An unknown name costs one verification too: the answer's time does not tell it apart.
      isRight =
        (await verifyPassword(account?.passwordHash ?? (await decoyPasswordHash), password)) &&
        account !== null
    } finally {
      if (isRight) attempt.succeeded()
      else attempt.failed()
    }
    if (!isRight) {
      sendLoginPage(response, 401, { name, notice: 'Wrong name or password.' })
      return
    }
    const token = await sessions.start(name)
    response.writeHead(303, {
      location: '/',
      'cache-control': 'no-store',
      'set-cookie': [
        sessionCookie(token, sessions.lifetime.absoluteSec),
        cookieHeader(LOGIN_CSRF_COOKIE, '', { isSecure, maxAgeSec: 0 }),
      ],
    })
    response.end()
  }

  return { sendLoginPage, signIn }
}

/** Routes that need a session. */
function serveSignedIn(
  team: TeamContext,
  signedIn: SignedIn,
  request: IncomingMessage,
  url: URL,
  response: ServerResponse,
): void {
  const { core, options, publicUrl, sessions } = team
  const sessionCookie = sessionCookieOf(team.isSecure)
  const method = request.method ?? 'GET'
  if (method !== 'GET' && method !== 'HEAD') {
    // Every state change: from our own page (Origin) and carrying the session's token.
    if (
      !isSameOrigin(request, serverOrigin(request, publicUrl)) ||
      !hasCsrfToken(request, signedIn.token)
    ) {
      response.writeHead(403, TEXT).end('Forbidden: cross-site request or missing CSRF token.')
      return
    }
    if (method === 'POST' && url.pathname === SIGN_OUT_PATH) {
      void sessions.end(signedIn.token).then(() => {
        response.writeHead(204, { 'set-cookie': sessionCookie('', 0) }).end()
      })
      return
    }
    if (method === 'POST' && url.pathname === CHANGE_PASSWORD_PATH) {
      void changePassword(request, response, signedIn, options.accounts, team.throttle)
        // The account's other sessions end at once, not at the next reading of the store.
        .then(() => sessions.forgetAll())
        .catch(() => {
          if (!response.headersSent) response.writeHead(500, TEXT)
          response.end()
        })
      return
    }
    response.writeHead(405, TEXT).end('Method not allowed.')
    return
  }
  if (url.pathname === SESSION_INFO_PATH) {
    const info: TeamSessionInfo = {
      name: signedIn.name,
      role: signedIn.role,
      csrfToken: csrfTokenOf(signedIn.token),
      mustChangePassword: signedIn.isPasswordOneTime,
    }
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    })
    response.end(JSON.stringify(info))
    return
  }
  const origin = serverOrigin(request, publicUrl)
  const socketOrigin = origin?.replace(/^http/, 'ws')
  const csp = contentSecurityPolicy(socketOrigin ? [socketOrigin] : [])
  serveAppRoute(core, options.rendererDir, method, url, response, pageHeaders(csp, 'same-origin'))
}

/** The contract socket for signed-in pages of this server, each request checked against the role. */
function acceptContractSockets(
  server: Server,
  team: TeamContext,
): ReturnType<typeof createContractSockets> {
  const { core, publicUrl, sessions } = team
  const sockets = createContractSockets()
  server.on('upgrade', (request: IncomingMessage, socket, head) => {
    const accept = async (): Promise<SignedIn | null> => {
      if (!team.isServed(request)) return null
      if (requestUrl(request)?.pathname !== IPC_SOCKET_PATH) return null
      // Cross-site WebSocket hijacking: the handshake carries the cookie whatever page
      // opens it, so its Origin must be ours.
      const origin = request.headers.origin
      if (origin === undefined || origin !== serverOrigin(request, publicUrl)) return null
      return sessions.find(request)
    }
    void accept()
      .catch(() => null)
      .then((signedIn) => {
        if (signedIn === null) {
          refuseUpgrade(socket)
          return
        }
        sockets.handleUpgrade(request, socket, head, (ws) =>
          serveContract(ws, core, {
            // The session is checked again at each request: signing out, expiry, a removed
            // account or a changed role end what the open socket may do.
            admit: async (channel) => {
              const current = await sessions.findToken(signedIn.token)
              if (current === null) {
                // Closed once this refusal is sent (after the reply's microtasks).
                setImmediate(() => ws.close(4401, 'Signed out'))
                return { refusal: refusal('AppError', 'Your session has ended: sign in again.') }
              }
              // A one-time password signs in only to choose a new one (POST /auth/password).
              if (current.isPasswordOneTime)
                return {
                  refusal: refusal('PermissionError', ONE_TIME_PASSWORD_REFUSAL, {
                    channel,
                  }),
                }
              if (!mayUse(current.role, channel))
                return {
                  refusal: refusal('PermissionError', refusalMessage(current.role, channel), {
                    role: current.role,
                    channel,
                  }),
                }
              // What the channel spends is checked against the role too, on every path;
              // what the account has read is its own.
              return { caller: { role: current.role, account: current.name } }
            },
            reply: (_channel, envelope) => withoutKeyHint(envelope),
          }),
        )
      })
  })
  return sockets
}
