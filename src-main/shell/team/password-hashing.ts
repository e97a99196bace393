import { randomBytes } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'

// Argon2id (memory-hard) with the library's defaults: 19 MiB, 2 passes, 1 lane — the
// OWASP minimum, about 30 ms per sign-in on one core.

const ARGON2ID_PREFIX = '$argon2id$'

/** A PHC string (`$argon2id$v=19$m=…`) of a password: salted, never reversible. */
export async function hashPassword(password: string): Promise<string> {
  const hashed = await hash(password)
  // The default algorithm is Argon2id; a library change must not weaken it silently.
  if (!hashed.startsWith(ARGON2ID_PREFIX)) throw new Error('Password hashing is not Argon2id.')
  return hashed
}

/** Whether `password` matches a stored hash (false for a damaged hash, never a throw). */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false)
}

/** A one-time password for a new account: 24 random bytes, base64url (32 characters). */
export function newOneTimePassword(): string {
  return randomBytes(24).toString('base64url')
}

/**
 * A hash of no one's password, verified when a name is unknown: a sign-in then takes as
 * long as one with a wrong password, so timing does not tell which names exist.
 */
export const decoyPasswordHash: Promise<string> = hashPassword(newOneTimePassword())
