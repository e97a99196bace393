import type { AlertRuleDefinition } from '@shared/domain/alert-rules'
import { isPublishedTransactionType, unknownTypeWords } from '@shared/domain/transaction-types'
import { describeAddressProblem } from '@shared/domain/wallet-address'
import { InvalidInputError } from '@shared/ipc/ipc-errors'
import type { Mirror } from '../db/mirror'
import type { NotifyChannelStore } from '../db/stores/notify-channel-store'

// What a rule's words cannot show on their own: whether what it names exists in the mirror.
// The core checks each rule before saving or trying it, so the command line and the rule
// editor are refused in the same words, naming the flag (the editor says its field).

/** The refusal of a rule: InvalidInputError naming the flag, with it in `details.flag`. */
function refusal(flag: string, message: string): InvalidInputError {
  return new InvalidInputError(message, { flag })
}

/**
 * Throws, naming the flag, when a rule names what the mirror does not have: a wallet not on
 * the watchlist, a token symbol it never saw, a transaction type neither the service nor the
 * mirror knows, or a channel not added (channels are the person's, kept in their own mirror).
 *
 * @example
 * await assertRuleFits(mirror, ownMirror.notifyChannels, rule) // InvalidInputError: '--token “NOPE”: …'
 */
export async function assertRuleFits(
  mirror: Mirror,
  channels: NotifyChannelStore,
  rule: AlertRuleDefinition,
): Promise<void> {
  if (rule.scope.wallets.length > 0) {
    const watched = new Set((await mirror.alertFacts.wallets()).map((w) => w.address))
    const missing = rule.scope.wallets.find((w) => !watched.has(w))
    if (missing !== undefined)
      throw refusal(
        '--wallet',
        `--wallet ${missing}: not on the watchlist; add it with \`heliograph watch add ${missing}\` first.`,
      )
  }
  const { token } = rule.options
  if (token !== undefined && !(await isTokenNamed(mirror, token)))
    throw refusal(
      '--token',
      `--token “${token}”: no token the mirror has seen is called that; give a symbol it knows (e.g. SOL, USDC) or a mint address.`,
    )
  await assertTypesKnown(mirror, rule.options.types ?? [], '--type')
  if (rule.channels.length > 0) {
    const known = new Set((await channels.list()).map((c) => c.name))
    const missing = rule.channels.find((c) => !known.has(c))
    if (missing !== undefined)
      throw refusal(
        '--notify',
        `--notify ${missing}: no alert channel is named “${missing}”: add it with \`heliograph notify add ${missing} --url URL --format json\` first (or in Settings, Alert channels).`,
      )
  }
}

/** A token a rule may name: SOL, a mint address (a token yet to arrive), or what the mirror knows. */
async function isTokenNamed(mirror: Mirror, token: string): Promise<boolean> {
  if (token.toUpperCase() === 'SOL' || describeAddressProblem(token) === null) return true
  return mirror.alertFacts.isTokenKnown(token)
}

/**
 * Throws, naming `flag`, at the first type that is neither on the service's published list
 * nor held by a transaction of the mirror (the feed's `--type` is checked the same way).
 */
export async function assertTypesKnown(
  mirror: Mirror,
  types: readonly string[],
  flag: string,
): Promise<void> {
  for (const type of types) {
    if (isPublishedTransactionType(type)) continue
    if (await mirror.alertFacts.hasTransactionsOfKind(type)) continue
    throw refusal(flag, `${flag} “${type}”: ${unknownTypeWords(type)}.`)
  }
}
