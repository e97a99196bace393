// What a password a person chooses for the team server must be: said once here, shown by
// the "Choose your password" form and checked by the server. Length is what makes a
// password hard to guess (NIST SP 800-63B asks for at least 8; 12 leaves room for
// passphrases); the upper bound keeps a sign-in's hashing input small.

/** The fewest characters a chosen password may have. */
export const PASSWORD_MIN_LENGTH = 12

/** The most characters a chosen password may have. */
export const PASSWORD_MAX_LENGTH = 256

/** The rules in a person's words, e.g. under the form's field. */
export const PASSWORD_RULES_TEXT = `At least ${PASSWORD_MIN_LENGTH} characters (at most ${PASSWORD_MAX_LENGTH}); spaces are allowed, so a few words make a good one.`

/** Why `password` may not be chosen, as a sentence; null when it may. */
export function describePasswordProblem(password: string): string | null {
  const length = [...password].length
  if (length < PASSWORD_MIN_LENGTH)
    return `The password is too short (${length} of at least ${PASSWORD_MIN_LENGTH} characters).`
  if (length > PASSWORD_MAX_LENGTH)
    return `The password is too long (at most ${PASSWORD_MAX_LENGTH} characters).`
  if (password.trim() === '') return 'The password cannot be only spaces.'
  return null
}
