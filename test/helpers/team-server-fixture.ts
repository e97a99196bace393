import type WebSocket from 'ws'
import type { Core } from '../../src-main/app/core'
import { databasePath } from '../../src-main/app/data-dir'
import type { TeamAccountStore } from '../../src-main/db/stores/team-account-store'
import { openPostgresMirror, type PostgresMirror } from '../../src-main/db/postgres/mirror'
import { openSqliteMirror, type SqliteMirror } from '../../src-main/db/sqlite/mirror'
import { hashPassword, newOneTimePassword } from '../../src-main/shell/team/password-hashing'
import {
  startTeamServer,
  type RunningTeamServer,
  type TeamServerOptions,
} from '../../src-main/shell/team/team-server'
import type { TeamRole } from '@shared/domain/team-roles'
import type { Envelope } from '@shared/ipc/envelope'
import { openSocket, rawRequest, type RawResponse } from './raw-http'
import { BUILT_RENDERER_DIR, openTestCore, type TestCoreOptions } from './web-shell-fixture'

/** A signed-in client: its session cookie and the CSRF token its page would send. */
export interface TeamClient {
  cookie: string
  csrfToken: string
}

/** The contract over a team server's socket, keeping every frame it received. */
export interface TeamSocket {
  ws: WebSocket
  /** Every frame received, as text. */
  frames: string[]
  call(channel: string, input?: unknown): Promise<Envelope<unknown>>
  close(): void
}

export type TeamFixture = Awaited<ReturnType<typeof startTestTeamServer>>

/**
 * A test core served by the team server on a free loopback port, with accounts made as
 * `user add` makes them (Argon2id hashes of random passwords) in the same mirror, their
 * passwords taken as chosen unless a user is marked one-time.
 */
export async function startTestTeamServer(
  options: TestCoreOptions & {
    /** Accounts with chosen passwords, unless `isPasswordOneTime` (as `user add` makes them). */
    users?: { name: string; role: TeamRole; isPasswordOneTime?: boolean }[]
    server?: Partial<Omit<TeamServerOptions, 'core' | 'accounts' | 'rendererDir'>>
    /** Serve this core on its data folder (the caller closes it) instead of a fresh one. */
    existing?: { core: Core; dataDir: string }
    /** The accounts store as the server gets it (a test may count what it is asked). */
    accountsStore?: (store: TeamAccountStore) => TeamAccountStore
  } = {},
) {
  const { core, dataDir, removeDir } = options.existing
    ? { ...options.existing, removeDir: () => {} }
    : await openTestCore(options)
  // A second connection to the person's mirror, as `heliograph server` opens one.
  const accounts: SqliteMirror | PostgresMirror = options.databaseUrl
    ? await openPostgresMirror(options.databaseUrl)
    : await openSqliteMirror(databasePath(dataDir))
  const passwords = new Map<string, string>()
  for (const user of options.users ?? []) {
    const password = newOneTimePassword()
    await accounts.team.addUser(
      user.name,
      user.role,
      await hashPassword(password),
      0,
      user.isPasswordOneTime === true ? 'one-time' : 'chosen',
    )
    passwords.set(user.name, password)
  }
  const server: RunningTeamServer = await startTeamServer({
    core,
    accounts: options.accountsStore ? options.accountsStore(accounts.team) : accounts.team,
    rendererDir: BUILT_RENDERER_DIR,
    ...options.server,
  })
  const { port } = server
  const origin = `http://127.0.0.1:${port}`

  /** Posts the sign-in form as the sign-in page would, from our origin. */
  const postLogin = async (
    name: string,
    password: string,
    headers: Record<string, string> = {},
  ): Promise<RawResponse> => {
    const form = await rawRequest(port, '/login')
    const loginCookie = setCookies(form).find((c) => c.startsWith('heliograph_login='))
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? ''
    return rawRequest(port, '/login', {
      method: 'POST',
      headers: {
        origin,
        cookie: (loginCookie ?? '').split(';')[0] ?? '',
        'content-type': 'application/x-www-form-urlencoded',
        ...headers,
      },
      body: new URLSearchParams({ csrf, name, password }).toString(),
    })
  }

  /** Signs in; throws when the server does not answer with a session cookie. */
  const signIn = async (
    name: string,
    password = passwords.get(name) ?? '',
  ): Promise<TeamClient> => {
    const answer = await postLogin(name, password)
    const session = setCookies(answer).find((c) => c.startsWith('heliograph_session='))
    if (answer.status !== 303 || !session)
      throw new Error(`sign-in of ${name} answered ${answer.status}: ${answer.body}`)
    const cookie = session.split(';')[0] as string
    const info = await rawRequest(port, '/auth/session', { headers: { cookie } })
    return { cookie, csrfToken: (JSON.parse(info.body) as { csrfToken: string }).csrfToken }
  }

  /** Opens the contract's socket with a cookie from our origin (or the headers given). */
  const connect = async (headers: Record<string, string>): Promise<TeamSocket | number> => {
    const ws = await openSocket(port, '/ipc', { origin, ...headers }, ['heliograph'])
    if (typeof ws === 'number') return ws
    return contractSocket(ws)
  }

  return {
    core,
    server,
    accounts,
    dataDir,
    origin,
    port,
    password: (name: string) => passwords.get(name) as string,
    postLogin,
    signIn,
    connect,
    stop: async () => {
      await server.close()
      await accounts.close()
      if (!options.existing) await core.close()
      removeDir()
    },
  }
}

/** The Set-Cookie headers of an answer. */
export function setCookies(response: RawResponse): string[] {
  const value = response.headers['set-cookie']
  return value === undefined ? [] : Array.isArray(value) ? value : [value]
}

function contractSocket(ws: WebSocket): TeamSocket {
  const frames: string[] = []
  const waiting = new Map<
    number,
    { resolve: (envelope: Envelope<unknown>) => void; reject: (error: Error) => void }
  >()
  let nextId = 1
  ws.on('close', () => {
    for (const call of waiting.values()) call.reject(new Error('socket closed before its reply'))
    waiting.clear()
  })
  ws.on('message', (data) => {
    const text = String(data)
    frames.push(text)
    const message = JSON.parse(text) as { type: string; id?: number; envelope?: Envelope<unknown> }
    if (message.type === 'reply' && message.id !== undefined) {
      waiting.get(message.id)?.resolve(message.envelope as Envelope<unknown>)
      waiting.delete(message.id)
    }
  })
  return {
    ws,
    frames,
    call: (channel, input) =>
      new Promise((resolve, reject) => {
        const id = nextId++
        waiting.set(id, { resolve, reject })
        ws.send(JSON.stringify({ type: 'invoke', id, channel, input }))
      }),
    close: () => ws.close(),
  }
}
