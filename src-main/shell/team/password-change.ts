import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TeamAccountStore } from '../../db/stores/team-account-store'
import { describePasswordProblem } from '@shared/domain/password-rules'
import { ChangePasswordRequest } from '@shared/ipc/team-session'
import type { LoginThrottle } from './login-throttle'
import { hashPassword, verifyPassword } from './password-hashing'
import { sessionTokenHash } from './session-tokens'
import { readSmallBody } from './small-body'
import type { SignedIn } from './team-sessions'

// POST /auth/password: a signed-in account chooses its own password. A one-time password
// (from `user add` or `user passwd`) signs in only to come here. The current password is
// asked again, so a session left open cannot be used to take the account over, and wrong
// ones count against the account's sign-in throttle like a wrong sign-in.

const TEXT = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }

/** Answers a password change of the signed-in account: 204 once the new one is kept. */
export async function changePassword(
  request: IncomingMessage,
  response: ServerResponse,
  signedIn: SignedIn,
  accounts: TeamAccountStore,
  throttle: LoginThrottle,
): Promise<void> {
  const body = await readJson(request)
  const parsed = ChangePasswordRequest.safeParse(body)
  if (!parsed.success) {
    response
      .writeHead(400, TEXT)
      .end('Send your current password and the new one as JSON: { currentPassword, newPassword }.')
    return
  }
  const { currentPassword, newPassword } = parsed.data
  const problem = describePasswordProblem(newPassword)
  if (problem !== null) {
    response.writeHead(400, TEXT).end(problem)
    return
  }
  const attempt = throttle.reserve([`account:${signedIn.name.toLowerCase()}`])
  if ('waitMs' in attempt) {
    const waitSec = Math.ceil(attempt.waitMs / 1000)
    response
      .writeHead(429, { ...TEXT, 'retry-after': String(waitSec) })
      .end(`Too many wrong passwords: try again in ${waitSec} s.`)
    return
  }
  let isRight = false
  try {
    const account = await accounts.credentials(signedIn.name)
    isRight = account !== null && (await verifyPassword(account.passwordHash, currentPassword))
  } finally {
    if (isRight) attempt.succeeded()
    else attempt.failed()
  }
  if (!isRight) {
    response.writeHead(403, TEXT).end('Your current password is not right.')
    return
  }
  if (newPassword === currentPassword) {
    response.writeHead(400, TEXT).end('Choose a password different from the current one.')
    return
  }
  // The session that chose it stays signed in; every other one of the account ends.
  await accounts.setPassword(
    signedIn.name,
    await hashPassword(newPassword),
    'chosen',
    sessionTokenHash(signedIn.token),
  )
  response.writeHead(204, TEXT).end()
}

/** A small JSON body, or undefined when it is too long, not JSON or not readable. */
async function readJson(request: IncomingMessage): Promise<unknown> {
  const text = await readSmallBody(request, 'application/json')
  if (text === null) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
