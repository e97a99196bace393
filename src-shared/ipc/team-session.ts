import { z } from 'zod'
import { TeamRole } from '../domain/team-roles'

// The team server tells the page who is signed in: a GET of SESSION_INFO_PATH answers
// this JSON with the session cookie, 401 without one. The loopback web shell has no such
// route (it answers its page there), so the page knows which server it talks to.

/** Where the page asks who is signed in. */
export const SESSION_INFO_PATH = '/auth/session'

/** Where the page signs out (POST with the CSRF token in CSRF_HEADER). */
export const SIGN_OUT_PATH = '/logout'

/** Where the page changes the signed-in account's password (POST, JSON, CSRF_HEADER). */
export const CHANGE_PASSWORD_PATH = '/auth/password'

/** What the page posts to CHANGE_PASSWORD_PATH. */
export const ChangePasswordRequest = z.object({
  currentPassword: z.string().max(1024),
  newPassword: z.string().max(1024),
})
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>

/** The header carrying the session's CSRF token on the page's POSTs. */
export const CSRF_HEADER = 'x-csrf-token'

/** Who is signed in, and the token their page's state changes must carry. */
export const TeamSessionInfo = z.object({
  name: z.string(),
  role: TeamRole,
  csrfToken: z.string(),
  /** Signed in with a one-time password: the page asks for a new one before anything else. */
  mustChangePassword: z.boolean(),
})
export type TeamSessionInfo = z.infer<typeof TeamSessionInfo>
